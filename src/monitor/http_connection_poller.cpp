// The monitor's HTTP connection front (see http_connection_poller.hpp).
#include "monitor/http_connection_poller.hpp"

#include <linux/sockios.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdint>

#include <fmt/format.h>

#include "monitor/http_request_head.hpp"

namespace gpuvet::monitor {
namespace {

using Clock = std::chrono::steady_clock;

constexpr std::chrono::milliseconds kMaxPollWait{1000};  // stop() is seen at least this often
constexpr std::chrono::seconds kLogEvery{60};             // one line a minute while a limit is hit
constexpr int kDrainReadsPerWake = 16;                    // lingering: 64 KiB dropped per wake at most

// Closes a connection the server is done with. When the kernel still holds bytes the client has not
// taken (a slow reader cut off, an answer not read before the idle or linger limit), the close is
// abortive (SO_LINGER 0: RST, as nginx's reset_timedout_connection): a plain close() left the socket
// orphaned in FIN-WAIT-1 with its send buffer (375 KB measured) for as long as the client kept its
// window shut, charged to the daemon's memory; a client that connects, asks and never reads could
// pile them up. Otherwise FIN, as usual.
void close_socket(int sock) {
  int queued = 0;
  if (::ioctl(sock, SIOCOUTQ, &queued) == 0 && queued > 0) {
    const linger reset{1, 0};
    ::setsockopt(sock, SOL_SOCKET, SO_LINGER, &reset, sizeof(reset));
  } else {
    ::shutdown(sock, SHUT_RDWR);
  }
  ::close(sock);
}

// Sends what the socket takes now; false when the connection failed.
bool send_pending(int sock, const std::string& answer, std::size_t& sent) {
  while (sent < answer.size()) {
    const ssize_t n = ::send(sock, answer.data() + sent, answer.size() - sent, MSG_DONTWAIT | MSG_NOSIGNAL);
    if (n > 0) {
      sent += static_cast<std::size_t>(n);
    } else if (n < 0 && errno != EINTR) {
      return errno == EAGAIN || errno == EWOULDBLOCK;
    }
  }
  return true;
}

// Lingering: reads and drops what the client still sends (counted in `drained`); false at its end
// of stream or an error.
bool drain(int sock, std::size_t& drained) {
  std::array<char, 4096> buffer{};
  for (int i = 0; i < kDrainReadsPerWake; ++i) {
    const ssize_t n = ::recv(sock, buffer.data(), buffer.size(), MSG_DONTWAIT);
    if (n == 0) return false;
    if (n < 0 && errno != EINTR) return errno == EAGAIN || errno == EWOULDBLOCK;
    if (n > 0) drained += static_cast<std::size_t>(n);
  }
  return true;
}

}  // namespace

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
  for (auto& held : held_) close_locked(held);
  held_.clear();
}

void ConnectionPoller::wake() const {
  if (wake_fd_ < 0) return;
  const std::uint64_t one = 1;
  [[maybe_unused]] const auto n = ::write(wake_fd_, &one, sizeof(one));
}

std::string ConnectionPoller::log_line_locked(Clock::time_point now, std::string_view what) {
  ++dropped_since_log_;
  if (last_log_ != Clock::time_point{} && now - last_log_ < kLogEvery) return {};
  last_log_ = now;
  std::string line = fmt::format("HTTP endpoint: {} (dropped {} since the last such line)", what, dropped_since_log_);
  dropped_since_log_ = 0;
  return line;
}

void ConnectionPoller::close_locked(Held& held) {
  if (held.connection.sock < 0) return;
  if (held.phase == Phase::writing) answer_bytes_ -= held.connection.answer.size();
  std::string().swap(held.connection.answer);
  close_socket(held.connection.sock);
  held.connection.sock = -1;
}

std::string ConnectionPoller::make_room_locked(Clock::time_point now, bool& refused) {
  refused = false;
  if (held_.size() + in_service_ < limits_.max_connections) return {};
  // Which to close: one already answered and closing, else the one idle the longest, else the one
  // slowest to take its answer. Never one with a worker.
  const auto rank = [](const Held& h) { return h.phase == Phase::lingering ? 0 : h.phase == Phase::reading ? 1 : 2; };
  const auto since = [](const Held& h) { return h.phase == Phase::reading ? h.connection.idle_since : h.deadline; };
  const auto victim = std::min_element(held_.begin(), held_.end(), [&](const Held& a, const Held& b) {
    return rank(a) != rank(b) ? rank(a) < rank(b) : since(a) < since(b);
  });
  std::string_view what = "refused a new one, all are being answered";
  if (victim == held_.end()) {
    refused = true;  // every open connection is with a worker: the new one waits for nothing
  } else {
    what = victim->phase == Phase::lingering ? "closed one already answered and closing"
           : victim->phase == Phase::reading ? "closed the one idle the longest"
                                             : "closed the one slowest to take its answer";
    close_locked(*victim);
    held_.erase(victim);
  }
  return log_line_locked(now, fmt::format("{} connections open, the limit; {}; a client opens connections it does "
                                          "not use, or does not read its answers?",
                                          limits_.max_connections, what));
}

std::string ConnectionPoller::shed_answers_locked(Clock::time_point now, int keep) {
  std::string line;
  while (answer_bytes_ > limits_.max_answer_buffer_bytes) {
    auto oldest = held_.end();
    for (auto it = held_.begin(); it != held_.end(); ++it) {
      if (it->phase != Phase::writing || it->connection.sock == keep) continue;
      if (oldest == held_.end() || it->deadline < oldest->deadline) oldest = it;
    }
    if (oldest == held_.end()) break;  // only the new one: it fits alone (max_answer_bytes is smaller)
    close_locked(*oldest);
    held_.erase(oldest);
    line = log_line_locked(now, fmt::format("answers not yet taken by their clients hold over {} bytes, the limit; "
                                            "closed the one waiting the longest; a client does not read its answers?",
                                            limits_.max_answer_buffer_bytes));
  }
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
      if (!refused) held_.push_back(Held{HttpConnection{sock, {}, 0, now, now, {}, false}, Phase::reading, 0, 0, {}});
    }
  }
  if (refused) close_socket(sock);
  if (!line.empty() && log_) log_(line);
  wake();
}

void ConnectionPoller::answer(HttpConnection connection) {
  Held held{std::move(connection), Phase::writing, 0, 0, Clock::now() + limits_.answer_timeout};
  // Most answers fit the socket's buffer: sent here, on the worker's thread, without waiting.
  const bool ok = send_pending(held.connection.sock, held.connection.answer, held.sent);
  std::string line;
  {
    std::lock_guard lock(mutex_);
    if (in_service_ > 0) --in_service_;
    if (!stopping_ && ok) {
      const auto now = Clock::now();
      answer_bytes_ += held.connection.answer.size();
      if (held.sent == held.connection.answer.size()) {
        finish_answer_locked(held, now);
      } else {
        line = shed_answers_locked(now, held.connection.sock);
      }
      held_.push_back(std::move(held));
      held.connection.sock = -1;
    }
  }
  if (held.connection.sock >= 0) close_socket(held.connection.sock);
  if (!line.empty() && log_) log_(line);
  wake();
}

void ConnectionPoller::finish_answer_locked(Held& held, Clock::time_point now) {
  answer_bytes_ -= held.connection.answer.size();
  std::string().swap(held.connection.answer);
  held.sent = 0;
  if (held.connection.close_after_answer) {
    // Lingering close: FIN after the answer, then the client's input is read and dropped until it
    // closes (or linger_timeout), so close() finds nothing unread and sends no RST that would
    // destroy the answers still on their way (issue 20: pipelined requests past the keep-alive cap).
    ::shutdown(held.connection.sock, SHUT_WR);
    held.connection.received.clear();
    held.phase = Phase::lingering;
    held.deadline = now + limits_.linger_timeout;
  } else {
    held.phase = Phase::reading;
    held.connection.idle_since = now;
    held.connection.request_started = now;  // any pipelined bytes count from here
  }
}

std::size_t ConnectionPoller::open_connections() const {
  std::lock_guard lock(mutex_);
  return held_.size() + in_service_;
}

std::size_t ConnectionPoller::answer_bytes_waiting() const {
  std::lock_guard lock(mutex_);
  return answer_bytes_;
}

Clock::time_point ConnectionPoller::deadline_of(const Held& held) const {
  if (held.phase != Phase::reading) return held.deadline;
  const auto& connection = held.connection;
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
      for (const auto& held : held_) {
        fds.push_back(pollfd{held.connection.sock, static_cast<short>(held.phase == Phase::writing ? POLLOUT : POLLIN), 0});
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline_of(held) - now);
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
      // its number been reused, or its phase changed: every call below is non-blocking, so a
      // readiness that is not there is harmless).
      for (std::size_t i = 1; rc > 0 && i < fds.size(); ++i) {
        if (fds[i].revents == 0) continue;
        const auto it = std::find_if(held_.begin(), held_.end(), [&](const auto& h) { return h.connection.sock == fds[i].fd; });
        if (it == held_.end()) continue;
        bool ok = true;
        if (it->phase == Phase::reading) {
          ok = receive(it->connection, now);
        } else if (it->phase == Phase::writing) {
          ok = send_pending(it->connection.sock, it->connection.answer, it->sent);
          if (ok && it->sent == it->connection.answer.size()) finish_answer_locked(*it, now);
        } else {
          ok = drain(it->connection.sock, it->drained) && it->drained < limits_.linger_max_bytes;
        }
        if (!ok) close_locked(*it);
      }
      for (auto& held : held_) {
        auto& connection = held.connection;
        if (connection.sock < 0) continue;
        if (held.phase == Phase::reading && (request_head_complete(connection.received) ||
                                             connection.received.size() >= limits_.max_request_bytes)) {
          ready.push_back(std::move(connection));
          connection.sock = -1;
        } else if (now >= deadline_of(held)) {
          // Idle too long, its request never finished, its answer not taken in time, or lingered enough.
          close_locked(held);
        }
      }
      std::erase_if(held_, [](const auto& h) { return h.connection.sock < 0; });
      in_service_ += ready.size();
    }
    for (auto& connection : ready) dispatch_(std::move(connection));
  }
}

}  // namespace gpuvet::monitor
