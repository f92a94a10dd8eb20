// A raw TCP client connection for the HTTP server tests (tests/monitor/http_*_test.cpp): requests
// an HTTP client library would refuse to send, connections that send nothing or read slowly, and
// pipelined requests sent while the answers are read.
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

namespace gpuvet::monitor::testing {

// A raw TCP connection, for requests an HTTP client library would refuse to send.
class RawConnection {
 public:
  // `receive_buffer_bytes` > 0: a small receive buffer (a client that reads slowly fills it soon).
  explicit RawConnection(int port, int receive_buffer_bytes = 0) {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    if (receive_buffer_bytes > 0) {
      ::setsockopt(fd_, SOL_SOCKET, SO_RCVBUF, &receive_buffer_bytes, sizeof(receive_buffer_bytes));
    }
    sockaddr_in sa{};
    sa.sin_family = AF_INET;
    sa.sin_port = htons(static_cast<std::uint16_t>(port));
    ::inet_pton(AF_INET, "127.0.0.1", &sa.sin_addr);
    connected_ = ::connect(fd_, reinterpret_cast<sockaddr*>(&sa), sizeof(sa)) == 0;
    timeval tv{10, 0};  // a safety net only: the server answers or closes long before
    ::setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
  }
  // True when the server has closed the connection (end of stream) within `timeout`, reading and
  // dropping anything it sent before.
  bool closed_by_server_within(std::chrono::milliseconds timeout) {
    const auto until = std::chrono::steady_clock::now() + timeout;
    char buffer[4096];
    while (std::chrono::steady_clock::now() < until) {
      pollfd pfd{fd_, POLLIN, 0};
      if (::poll(&pfd, 1, 50) <= 0) continue;
      const auto n = ::recv(fd_, buffer, sizeof(buffer), MSG_DONTWAIT);
      if (n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK)) return true;
    }
    return false;
  }
  ~RawConnection() {
    if (fd_ >= 0) ::close(fd_);
  }
  RawConnection(const RawConnection&) = delete;
  RawConnection& operator=(const RawConnection&) = delete;
  [[nodiscard]] bool connected() const { return connected_; }
  // False once the server has closed the connection.
  bool send_all(const std::string& data) {
    std::size_t sent = 0;
    while (sent < data.size()) {
      const auto n = ::send(fd_, data.data() + sent, data.size() - sent, MSG_NOSIGNAL);
      if (n <= 0) return false;
      sent += static_cast<std::size_t>(n);
    }
    return true;
  }
  // Sends `data` while reading what comes back, until the server closes (or the safety net):
  // pipelined requests whose answers would fill the buffers before the last request is sent.
  // `reset` tells whether the connection ended in an error (a RST) rather than an end of stream.
  std::string exchange(const std::string& data, bool& reset) {
    std::string out;
    std::size_t sent = 0;
    char buffer[65536];
    reset = false;
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (std::chrono::steady_clock::now() < until) {
      pollfd pfd{fd_, static_cast<short>(POLLIN | (sent < data.size() ? POLLOUT : 0)), 0};
      if (::poll(&pfd, 1, 100) <= 0) continue;
      if (sent < data.size() && (pfd.revents & POLLOUT) != 0) {
        const auto n = ::send(fd_, data.data() + sent, data.size() - sent, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (n > 0) sent += static_cast<std::size_t>(n);
      }
      if ((pfd.revents & (POLLIN | POLLHUP | POLLERR)) != 0) {
        const auto n = ::recv(fd_, buffer, sizeof(buffer), MSG_DONTWAIT);
        if (n > 0) {
          out.append(buffer, static_cast<std::size_t>(n));
        } else if (n == 0) {
          return out;
        } else if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
          reset = true;
          return out;
        }
      }
    }
    return out;
  }
  // True once the server has reset the connection (TCP state CLOSE).
  [[nodiscard]] bool reset_by_server() const {
    tcp_info info{};
    socklen_t length = sizeof(info);
    return ::getsockopt(fd_, IPPROTO_TCP, TCP_INFO, &info, &length) == 0 && info.tcpi_state == TCP_CLOSE;
  }
  // Reads at most `count` bytes now (0 when nothing is there, -1 once the connection is gone).
  long read_some(std::size_t count) {
    char buffer[4096];
    const auto n = ::recv(fd_, buffer, std::min(count, sizeof(buffer)), MSG_DONTWAIT);
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return 0;
    return n == 0 ? -1 : static_cast<long>(n);
  }
  // Everything until the server closes (or the safety net).
  std::string receive_all() {
    std::string out;
    char buffer[4096];
    for (;;) {
      const auto n = ::recv(fd_, buffer, sizeof(buffer), 0);
      if (n <= 0) break;
      out.append(buffer, static_cast<std::size_t>(n));
    }
    return out;
  }

 private:
  int fd_ = -1;
  bool connected_ = false;
};

// Waits (bounded) until `done` holds, checking every 10 ms; true if it did.
template <typename Predicate>
bool eventually(Predicate done, std::chrono::milliseconds timeout = std::chrono::seconds(10)) {
  const auto until = std::chrono::steady_clock::now() + timeout;
  while (!done()) {
    if (std::chrono::steady_clock::now() >= until) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return true;
}

// One HTTP/1.1 answer out of a byte stream: status, head (lower case) and body.
struct RawAnswer {
  int status = 0;
  std::string head;
  std::string body;
};

// The complete answers at the start of `bytes`, in order; an answer cut short is not counted.
// Each must carry a Content-Length and its body (GET answers; not HEAD).
inline std::vector<RawAnswer> parse_answers(const std::string& bytes) {
  std::vector<RawAnswer> out;
  std::size_t at = 0;
  for (;;) {
    const auto end = bytes.find("\r\n\r\n", at);
    if (end == std::string::npos || bytes.compare(at, 9, "HTTP/1.1 ") != 0) break;
    RawAnswer answer;
    answer.head = bytes.substr(at, end - at);
    std::transform(answer.head.begin(), answer.head.end(), answer.head.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    answer.status = std::atoi(answer.head.c_str() + 9);
    const auto length_at = answer.head.find("content-length:");
    if (length_at == std::string::npos) break;
    const std::size_t length = std::strtoull(answer.head.c_str() + length_at + 15, nullptr, 10);
    if (bytes.size() - (end + 4) < length) break;
    answer.body = bytes.substr(end + 4, length);
    at = end + 4 + length;
    out.push_back(std::move(answer));
  }
  return out;
}

}  // namespace gpuvet::monitor::testing
