// The listening side of the monitor's HTTP endpoint: the "HOST:PORT" form of an address, why a bind
// failed (asked of the kernel, cpp-httplib only says "no"), and a deeper listen backlog than
// cpp-httplib 0.11's. parse_listen_address and is_loopback are declared in http_server.hpp. Used
// only by http_server.cpp.
#pragma once

#include <string>

#include "core/error.hpp"
#include "monitor/http_server.hpp"

namespace gpuvet::monitor {

bool is_ipv6(const std::string& host);
// "127.0.0.1:9835" or "[::1]:9835".
std::string host_port(const std::string& host, int port);
// Why binding `address` failed: an environment error naming it (port in use, address not local, ...).
core::Error bind_failure(const ListenAddress& address);
// Raises the backlog of cpp-httplib's listening socket `sock` (checked to be bound to `port`).
void deepen_backlog(int sock, int port);

}  // namespace gpuvet::monitor
