// The monitor daemon's HTTP endpoint: GET /metrics, /alerts and /healthz from the latest snapshot
// on the SnapshotBoard (the sampler publishes there from its own thread; a scrape never waits on
// the hardware). Plain HTTP on cpp-httplib (Debian libcpp-httplib-dev), loopback unless the caller
// asks for another address. Bounded: one poller thread holds the open connections (at most
// max_connections, idle ones closed after idle_timeout) and hands a request to a fixed worker pool
// only once its head has arrived; read and write timeouts, capped request line, headers and body. So
// slow, idle, malformed, oversized or many clients cost bounded memory and descriptors, never hold a
// worker while they send nothing, and never hold up sampling. Owned by `gpuvet monitor` (cli).
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "core/error.hpp"
#include "monitor/monitor_snapshot.hpp"

namespace gpuvet::monitor {

struct HttpOptions {
  bool dcgm_names = false;                         // /metrics also in dcgm-exporter's names
  std::size_t worker_threads = 4;                  // requests answered at once
  std::size_t max_connections = 128;               // open at once; past it the one idle longest is closed
  std::chrono::milliseconds read_timeout{5000};    // to receive one whole request (slow clients)
  std::chrono::milliseconds write_timeout{5000};   // per write of an answer
  std::chrono::milliseconds idle_timeout{5000};    // a connection without a request closed after
  std::size_t keep_alive_max_requests = 100;       // then the connection is closed
  std::size_t max_request_bytes = 64 * 1024;       // request line + headers + body; past it 400/closed
  std::size_t max_body_bytes = 1024;               // GET carries no body; a larger one announced is 413
  // Wall clock for the snapshot's age in /metrics (tests inject one).
  std::function<std::int64_t()> now_unix_ms;
  // Where a warning goes (the connection limit reached; at most one line a minute). None: dropped.
  std::function<void(std::string_view)> log_warning;
};

struct ListenAddress {
  std::string host;  // numeric IPv4 or IPv6 (no brackets), or "localhost"
  int port = 0;      // 0: any free port (tests)
};

// "127.0.0.1:9835", "[::1]:9835", "localhost:9835", "0.0.0.0:9835". A usage error naming the
// text and what was expected otherwise.
core::Result<ListenAddress> parse_listen_address(std::string_view text);
// True for 127.0.0.0/8, ::1 and "localhost".
bool is_loopback(const ListenAddress& address);

class MonitorHttpServer {
 public:
  MonitorHttpServer(ListenAddress address, const SnapshotBoard& board, HttpOptions options = {});
  ~MonitorHttpServer();  // stops
  MonitorHttpServer(const MonitorHttpServer&) = delete;
  MonitorHttpServer& operator=(const MonitorHttpServer&) = delete;

  // Binds and starts serving on a thread of its own; returns the bound port (useful with port 0).
  // Errors: usage for an address that is not an IP address of this form, environment when the
  // port is taken, the address is not on this machine or binding is not permitted.
  core::Result<int> start();
  // Stops accepting, finishes the requests in flight (bounded by the timeouts), joins the threads.
  void stop();
  // Connections open now (waiting for a request or being answered); 0 before start().
  [[nodiscard]] std::size_t open_connections() const;
  [[nodiscard]] std::string describe() const;  // "http://127.0.0.1:9835"

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace gpuvet::monitor
