// The monitor daemon's HTTP endpoint: GET /metrics, /alerts and /healthz from the latest snapshot
// on the SnapshotBoard (the sampler publishes there from its own thread; a scrape never waits on
// the hardware). Plain HTTP on cpp-httplib (Debian libcpp-httplib-dev), loopback unless the caller
// asks for another address. Bounded: one poller thread holds the open connections (at most
// max_connections), reads each request until its head is whole, and writes each answer without
// blocking; a fixed worker pool only parses requests and renders answers in memory, so no client,
// however slow to send or to read, holds a worker (issues 14 and 20). Every request and answer is
// capped in bytes and time; Range is ignored (always the whole answer). So slow, idle, malformed,
// oversized or many clients cost bounded memory and descriptors and never hold up a scrape or the
// sampling. Owned by `gpuvet monitor` (cli). Limits and worst-case memory: docs/monitor.md.
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
  std::size_t worker_threads = 4;                  // requests parsed and answers rendered at once
  std::size_t max_connections = 128;               // open at once; past it one not with a worker is closed
  std::chrono::milliseconds read_timeout{5000};    // to receive one whole request (slow senders)
  std::chrono::milliseconds answer_timeout{5000};  // to send one whole answer (slow readers); then closed
  std::chrono::milliseconds idle_timeout{5000};    // a connection without a request closed after
  std::chrono::milliseconds linger_timeout{2000};  // closing: the client's input drained this long at most
  std::size_t keep_alive_max_requests = 100;       // then the connection is closed (gracefully)
  std::size_t max_request_bytes = 16 * 1024;       // request line + headers; past it 414/431, closed
  std::size_t max_header_count = 100;              // header lines; past it 431, closed
  std::size_t max_body_bytes = 1024;               // GET carries no body; a larger one announced is 413
  std::size_t max_answer_bytes = 2u << 20;         // one answer's body; a larger one is a 500 (logged)
  std::size_t max_answer_buffer_bytes = 32u << 20; // answers not yet taken by their clients, together
  // Wall clock for the snapshot's age in /metrics (tests inject one).
  std::function<std::int64_t()> now_unix_ms;
  // Where a warning goes (a limit reached; at most one line a minute each). None: dropped.
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
