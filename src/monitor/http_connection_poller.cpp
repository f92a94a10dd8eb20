// The monitor's HTTP connection front (see http_connection_poller.hpp).
#include "monitor/http_connection_poller.hpp"

#include <poll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdint>

#include <fmt/format.h>

namespace gpuvet::monitor {
namespace {

using Clock = std::chrono::steady_clock;

void close_socket(int sock) {
  ::shutdown(sock, SHUT_RDWR);
  ::close(sock);
}

constexpr std::chrono::milliseconds kMaxPollWait{1000};  // stop() is seen at least this often
constexpr std::chrono::seconds kLogEvery{60};             // one line a minute while the cap is hit

}  // namespace

bool request_head_complete(std::string_view bytes) { return bytes.find("\r\n\r\n") != std::string_view::npos; }

ConnectionPoller::ConnectionPoller(PollerLimits limits, Dispatch dispatch, Log log)
    : limits_(limits), dispatch_(std::move(dispatch)), log_(std::move(log)) {
  limits_.max_connections = std::max<std::size_t>(1, limits_.max_connections);
}

ConnectionPoller::~ConnectionPoller() {
  stop();
  if (wake_fd_ >= 0) ::close(wake_fd_);
}

bool ConnectionPoller::start() {
  if (thread_.joinable()) return true;
  wake_fd_ = ::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  if (wake_fd_ < 0) return false;
  thread_ = std::thread([this] { run(); });
  return true;
}

void ConnectionPoller::stop() {
  {
    std::lock_guard lock(mutex_);
    if (stopping_) return;
    stopping_ = true;
  }
  wake();
  if (thread_.joinable()) thread_.join();
  std::lock_guard lock(mutex_);
  for (auto& connection : waiting_) close_socket(connection.sock);
  waiting_.clear();
}

void ConnectionPoller::wake() const {
  if (wake_fd_ < 0) return;
  const std::uint64_t one = 1;
  [[maybe_unused]] const auto n = ::write(wake_fd_, &one, sizeof(one));
}

std::string ConnectionPoller::make_room_locked(Clock::time_point now, bool& refused) {
  refused = false;
  if (waiting_.size() + in_service_ < limits_.max_connections) return {};
  if (waiting_.empty()) {
    refused = true;  // every open connection is being answered: the new one waits for nothing
  } else {
    const auto oldest = std::min_element(waiting_.begin(), waiting_.end(), [](const auto& a, const auto& b) {
      return a.idle_since < b.idle_since;
    });
    close_socket(oldest->sock);
    waiting_.erase(oldest);
  }
  ++dropped_since_log_;
  if (last_log_ != Clock::time_point{} && now - last_log_ < kLogEvery) return {};
  last_log_ = now;
  std::string line = fmt::format(
      "HTTP endpoint: {} connections open, the limit; {} (dropped {} since the last such line); "
      "a client opens connections it does not use?",
      limits_.max_connections,
      refused ? "refused a new one, all are being answered" : "closed the one idle the longest",
      dropped_since_log_);
  dropped_since_log_ = 0;
  return line;
}

void ConnectionPoller::adopt(int sock) {
  const auto now = Clock::now();
  std::string line;
  bool refused = false;
  {
    std::lock_guard lock(mutex_);
    if (stopping_) {
      refused = true;
    } else {
      line = make_room_locked(now, refused);
      if (!refused) waiting_.push_back(HttpConnection{sock, {}, 0, now, now});
    }
  }
  if (refused) close_socket(sock);
  if (!line.empty() && log_) log_(line);
  wake();
}

void ConnectionPoller::resume(HttpConnection connection) {
  const auto now = Clock::now();
  {
    std::lock_guard lock(mutex_);
    if (in_service_ > 0) --in_service_;
    if (!stopping_) {
      connection.idle_since = now;
      connection.request_started = now;  // any pipelined bytes count from here
      waiting_.push_back(std::move(connection));
      connection.sock = -1;
    }
  }
  if (connection.sock >= 0) close_socket(connection.sock);
  wake();
}

void ConnectionPoller::release() {
  std::lock_guard lock(mutex_);
  if (in_service_ > 0) --in_service_;
}

std::size_t ConnectionPoller::open_connections() const {
  std::lock_guard lock(mutex_);
  return waiting_.size() + in_service_;
}

Clock::time_point ConnectionPoller::deadline_of(const HttpConnection& connection) const {
  return connection.received.empty() ? connection.idle_since + limits_.idle_timeout
                                     : connection.request_started + limits_.request_timeout;
}

bool ConnectionPoller::receive(HttpConnection& connection, Clock::time_point now) const {
  const std::size_t room = limits_.max_request_bytes - std::min(limits_.max_request_bytes, connection.received.size());
  if (room == 0) return true;
  std::array<char, 4096> buffer{};
  ssize_t n = 0;
  do {
    n = ::recv(connection.sock, buffer.data(), std::min(room, buffer.size()), MSG_DONTWAIT);
  } while (n < 0 && errno == EINTR);
  if (n == 0) return false;  // the client closed
  if (n < 0) return errno == EAGAIN || errno == EWOULDBLOCK;
  if (connection.received.empty()) connection.request_started = now;
  connection.received.append(buffer.data(), static_cast<std::size_t>(n));
  return true;
}

void ConnectionPoller::run() {
  std::vector<pollfd> fds;
  for (;;) {
    auto wait = kMaxPollWait;
    fds.assign(1, pollfd{wake_fd_, POLLIN, 0});
    {
      std::lock_guard lock(mutex_);
      if (stopping_) return;
      const auto now = Clock::now();
      for (const auto& connection : waiting_) {
        fds.push_back(pollfd{connection.sock, POLLIN, 0});
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline_of(connection) - now);
        wait = std::clamp(left + std::chrono::milliseconds(1), std::chrono::milliseconds(0), wait);
      }
    }
    int rc = ::poll(fds.data(), fds.size(), static_cast<int>(wait.count()));
    if (rc < 0 && errno != EINTR) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    if (rc > 0 && (fds[0].revents & POLLIN) != 0) {
      std::uint64_t count = 0;
      [[maybe_unused]] const auto n = ::read(wake_fd_, &count, sizeof(count));
    }
    std::vector<HttpConnection> ready;
    {
      std::lock_guard lock(mutex_);
      if (stopping_) return;
      const auto now = Clock::now();
      // Sockets polled above that are still here (an adopt() may have closed one meanwhile, and
      // its number been reused: a read that finds nothing is harmless).
      for (std::size_t i = 1; rc > 0 && i < fds.size(); ++i) {
        if (fds[i].revents == 0) continue;
        const auto it = std::find_if(waiting_.begin(), waiting_.end(), [&](const auto& c) { return c.sock == fds[i].fd; });
        if (it == waiting_.end()) continue;
        if (!receive(*it, now)) {
          close_socket(it->sock);
          it->sock = -1;
        }
      }
      for (auto& connection : waiting_) {
        if (connection.sock < 0) continue;
        if (request_head_complete(connection.received) || connection.received.size() >= limits_.max_request_bytes) {
          ready.push_back(std::move(connection));
          connection.sock = -1;
        } else if (now >= deadline_of(connection)) {
          close_socket(connection.sock);  // idle too long, or its request never finished
          connection.sock = -1;
        }
      }
      std::erase_if(waiting_, [](const auto& c) { return c.sock < 0; });
      in_service_ += ready.size();
    }
    for (auto& connection : ready) dispatch_(std::move(connection));
  }
}

}  // namespace gpuvet::monitor
