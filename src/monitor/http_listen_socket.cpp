// The monitor endpoint's listening address and socket (see http_listen_socket.hpp).
#include "monitor/http_listen_socket.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstdint>
#include <cstring>

#include <fmt/format.h>

namespace gpuvet::monitor {

bool is_ipv6(const std::string& host) { return host.find(':') != std::string::npos; }

// "127.0.0.1:9835" or "[::1]:9835".
std::string host_port(const std::string& host, int port) {
  return is_ipv6(host) ? fmt::format("[{}]:{}", host, port) : fmt::format("{}:{}", host, port);
}

// Why binding failed, asked of the kernel with a socket of our own (cpp-httplib only says "no").
core::Error bind_failure(const ListenAddress& address) {
  const std::string where = host_port(address.host, address.port);
  const int family = is_ipv6(address.host) ? AF_INET6 : AF_INET;
  const int sock = ::socket(family, SOCK_STREAM | SOCK_CLOEXEC, 0);
  int error = 0;
  if (sock < 0) {
    error = errno;
  } else {
    int yes = 1;
    ::setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof(yes));
    int rc = 0;
    if (family == AF_INET) {
      sockaddr_in sa{};
      sa.sin_family = AF_INET;
      sa.sin_port = htons(static_cast<std::uint16_t>(address.port));
      ::inet_pton(AF_INET, address.host.c_str(), &sa.sin_addr);
      rc = ::bind(sock, reinterpret_cast<sockaddr*>(&sa), sizeof(sa));
    } else {
      sockaddr_in6 sa{};
      sa.sin6_family = AF_INET6;
      sa.sin6_port = htons(static_cast<std::uint16_t>(address.port));
      ::inet_pton(AF_INET6, address.host.c_str(), &sa.sin6_addr);
      rc = ::bind(sock, reinterpret_cast<sockaddr*>(&sa), sizeof(sa));
    }
    error = rc == 0 ? 0 : errno;
    ::close(sock);
  }
  switch (error) {
    case EADDRINUSE:
      return core::environment_error(fmt::format(
          "cannot listen on {}: the port is already in use (another gpuvet monitor or exporter?); "
          "choose another with --listen", where));
    case EADDRNOTAVAIL:
      return core::environment_error(
          fmt::format("cannot listen on {}: the address is not one of this machine's", where));
    case EACCES:
      return core::environment_error(
          fmt::format("cannot listen on {}: permission denied (ports below 1024 need privileges)", where));
    default:
      return core::environment_error(fmt::format("cannot listen on {}: {}", where,
                                                 error == 0 ? "cpp-httplib could not bind" : std::strerror(error)));
  }
}

// cpp-httplib 0.11 listens with a backlog of 5: connections made while the accept thread waits for
// a core beyond those 5 lose their SYN and retry a second later. A second listen() on the bound
// socket (Linux) deepens the queue; checked to be that socket, and harmless if it fails.
void deepen_backlog(int sock, int port) {
  constexpr int kListenBacklog = 128;
  int accepting = 0;
  socklen_t length = sizeof(accepting);
  sockaddr_storage address{};
  socklen_t address_length = sizeof(address);
  if (sock < 0 || ::getsockopt(sock, SOL_SOCKET, SO_ACCEPTCONN, &accepting, &length) != 0 || accepting == 0 ||
      ::getsockname(sock, reinterpret_cast<sockaddr*>(&address), &address_length) != 0) {
    return;
  }
  const int bound = address.ss_family == AF_INET6 ? ntohs(reinterpret_cast<sockaddr_in6&>(address).sin6_port)
                                                  : ntohs(reinterpret_cast<sockaddr_in&>(address).sin_port);
  if (bound == port) ::listen(sock, kListenBacklog);
}

core::Result<ListenAddress> parse_listen_address(std::string_view text) {
  const auto bad = [&](std::string_view why) {
    return core::usage_error(fmt::format(
        "--listen '{}': {} (expected ADDRESS:PORT, e.g. 127.0.0.1:9835, [::1]:9835 or 0.0.0.0:9835)", text, why));
  };
  ListenAddress out;
  std::string_view port_text;
  if (!text.empty() && text.front() == '[') {
    const auto close = text.find(']');
    if (close == std::string_view::npos || close + 1 >= text.size() || text[close + 1] != ':') {
      return bad("an IPv6 address needs the form [ADDRESS]:PORT");
    }
    out.host = std::string(text.substr(1, close - 1));
    port_text = text.substr(close + 2);
  } else {
    const auto colon = text.rfind(':');
    if (colon == std::string_view::npos) return bad("no port");
    out.host = std::string(text.substr(0, colon));
    port_text = text.substr(colon + 1);
    if (out.host.find(':') != std::string::npos) return bad("write an IPv6 address in brackets");
  }
  if (out.host == "localhost") out.host = "127.0.0.1";
  unsigned char buffer[sizeof(in6_addr)];
  const int family = is_ipv6(out.host) ? AF_INET6 : AF_INET;
  if (out.host.empty() || ::inet_pton(family, out.host.c_str(), buffer) != 1) {
    return bad("not a numeric IP address (or localhost)");
  }
  const auto* end = port_text.data() + port_text.size();
  const auto [ptr, ec] = std::from_chars(port_text.data(), end, out.port);
  if (port_text.empty() || ec != std::errc() || ptr != end || out.port < 0 || out.port > 65535) {
    return bad("the port is not a number from 0 to 65535");
  }
  return out;
}

bool is_loopback(const ListenAddress& address) {
  if (address.host == "::1" || address.host == "localhost") return true;
  in_addr v4{};
  if (::inet_pton(AF_INET, address.host.c_str(), &v4) == 1) return (ntohl(v4.s_addr) >> 24) == 127;
  return false;
}

}  // namespace gpuvet::monitor
