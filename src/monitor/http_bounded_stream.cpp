// The in-memory request and answer stream of a worker (see http_bounded_stream.hpp).
#include "monitor/http_bounded_stream.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <algorithm>
#include <cstring>

namespace gpuvet::monitor {
namespace {

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

BoundedBufferStream::BoundedBufferStream(int sock, std::string received, std::size_t max_answer_bytes)
    : sock_(sock), received_(std::move(received)), max_answer_bytes_(max_answer_bytes) {}

std::string BoundedBufferStream::take_unread() {
  std::string out = received_.substr(begin_);
  received_.clear();
  begin_ = 0;
  return out;
}

std::string BoundedBufferStream::take_answer() {
  std::string out;
  if (!too_large_) out.swap(answer_);
  return out;
}

ssize_t BoundedBufferStream::read(char* ptr, size_t size) {
  const std::size_t count = std::min(size, received_.size() - begin_);
  std::memcpy(ptr, received_.data() + begin_, count);
  begin_ += count;
  return static_cast<ssize_t>(count);
}

ssize_t BoundedBufferStream::write(const char* ptr, size_t size) {
  if (too_large_ || size > max_answer_bytes_ - answer_.size()) {
    too_large_ = true;
    answer_.clear();
    answer_.shrink_to_fit();
    return -1;
  }
  answer_.append(ptr, size);
  return static_cast<ssize_t>(size);
}

void BoundedBufferStream::get_remote_ip_and_port(std::string& ip, int& port) const {
  sockaddr_storage address{};
  socklen_t length = sizeof(address);
  if (::getpeername(sock_, reinterpret_cast<sockaddr*>(&address), &length) == 0) address_of(address, ip, port);
}

void BoundedBufferStream::get_local_ip_and_port(std::string& ip, int& port) const {
  sockaddr_storage address{};
  socklen_t length = sizeof(address);
  if (::getsockname(sock_, reinterpret_cast<sockaddr*>(&address), &length) == 0) address_of(address, ip, port);
}

}  // namespace gpuvet::monitor
