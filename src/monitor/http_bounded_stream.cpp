// A request-bounded socket stream for cpp-httplib (see http_bounded_stream.hpp).
#include "monitor/http_bounded_stream.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace gpuvet::monitor {
namespace {

constexpr std::size_t kChunk = 4096;  // bytes read from the socket at a time

bool wait_for(int sock, short events, int timeout_ms) {
  if (timeout_ms <= 0) return false;
  pollfd pfd{sock, events, 0};
  int rc = 0;
  do {
    rc = ::poll(&pfd, 1, timeout_ms);
  } while (rc < 0 && errno == EINTR);
  return rc > 0 && (pfd.revents & (events | POLLHUP | POLLERR)) != 0;
}

void address_of(const sockaddr_storage& address, std::string& ip, int& port) {
  char text[INET6_ADDRSTRLEN] = {};
  if (address.ss_family == AF_INET) {
    const auto& a = reinterpret_cast<const sockaddr_in&>(address);
    ::inet_ntop(AF_INET, &a.sin_addr, text, sizeof(text));
    port = ntohs(a.sin_port);
  } else if (address.ss_family == AF_INET6) {
    const auto& a = reinterpret_cast<const sockaddr_in6&>(address);
    ::inet_ntop(AF_INET6, &a.sin6_addr, text, sizeof(text));
    port = ntohs(a.sin6_port);
  }
  ip = text;
}

}  // namespace

BoundedSocketStream::BoundedSocketStream(int sock, StreamLimits limits, std::string received,
                                         std::chrono::steady_clock::time_point request_started)
    : sock_(sock), limits_(limits), buffer_(std::move(received)) {
  deadline_ = request_started + limits_.request_timeout;
  received_ = buffer_.size();
}

void BoundedSocketStream::start_request() {
  deadline_ = std::chrono::steady_clock::now() + limits_.request_timeout;
  received_ = buffer_.size() - begin_;  // a pipelined request's bytes already count
}

std::string BoundedSocketStream::take_buffered() {
  std::string out = buffer_.substr(begin_);
  buffer_.clear();
  begin_ = 0;
  return out;
}

int BoundedSocketStream::remaining_ms() const {
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline_ - std::chrono::steady_clock::now());
  return static_cast<int>(std::max<long long>(0, left.count()));
}

bool BoundedSocketStream::is_readable() const {
  return has_buffered() || wait_for(sock_, POLLIN, remaining_ms());
}

bool BoundedSocketStream::is_writable() const {
  return wait_for(sock_, POLLOUT, static_cast<int>(limits_.write_timeout.count()));
}

ssize_t BoundedSocketStream::read(char* ptr, size_t size) {
  if (!has_buffered()) {
    if (received_ >= limits_.max_request_bytes) return -1;  // request too large: stop reading
    if (!wait_for(sock_, POLLIN, remaining_ms())) return -1;  // too slow
    const std::size_t room = std::min(kChunk, limits_.max_request_bytes - received_);
    buffer_.resize(room);
    begin_ = 0;
    ssize_t n = 0;
    do {
      n = ::recv(sock_, buffer_.data(), room, 0);
    } while (n < 0 && errno == EINTR);
    buffer_.resize(n > 0 ? static_cast<std::size_t>(n) : 0);
    if (n <= 0) return n;
    received_ += buffer_.size();
  }
  const std::size_t count = std::min(size, buffer_.size() - begin_);
  std::memcpy(ptr, buffer_.data() + begin_, count);
  begin_ += count;
  return static_cast<ssize_t>(count);
}

ssize_t BoundedSocketStream::write(const char* ptr, size_t size) {
  if (!is_writable()) return -1;
  ssize_t n = 0;
  do {
    n = ::send(sock_, ptr, size, MSG_NOSIGNAL);
  } while (n < 0 && errno == EINTR);
  return n;
}

void BoundedSocketStream::get_remote_ip_and_port(std::string& ip, int& port) const {
  sockaddr_storage address{};
  socklen_t length = sizeof(address);
  if (::getpeername(sock_, reinterpret_cast<sockaddr*>(&address), &length) == 0) address_of(address, ip, port);
}

void BoundedSocketStream::get_local_ip_and_port(std::string& ip, int& port) const {
  sockaddr_storage address{};
  socklen_t length = sizeof(address);
  if (::getsockname(sock_, reinterpret_cast<sockaddr*>(&address), &length) == 0) address_of(address, ip, port);
}

}  // namespace gpuvet::monitor
