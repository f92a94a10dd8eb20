// The front of the monitor's HTTP server: one thread that owns every open connection while it waits
// for a request, with poll(). A connection gets a worker thread only once its request head (request
// line and headers, up to the blank line) has arrived, or once it has sent the most a request may
// hold; a worker hands a kept-alive connection back after the answer. So idle connections, and
// clients that send their request slowly, cost a file descriptor and their bytes so far, never a
// worker. Bounded: at most max_connections open (a new one closes the connection idle the longest,
// or is refused when all are being answered), each closed after idle_timeout without a request and
// request_timeout after the first byte of an unfinished one. Used only by http_server.cpp.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace gpuvet::monitor {

// One open connection between requests, or on its way to a worker.
struct HttpConnection {
  int sock = -1;
  std::string received;    // bytes of the next request read so far
  std::size_t served = 0;  // requests answered on this connection
  std::chrono::steady_clock::time_point request_started;  // first byte of `received`
  std::chrono::steady_clock::time_point idle_since;       // accepted, or its last answer sent
};

struct PollerLimits {
  std::size_t max_connections = 128;                // open at once, idle and being answered
  std::size_t max_request_bytes = 64 * 1024;        // a head this long goes to a worker (400/414)
  std::chrono::milliseconds request_timeout{5000};  // first byte to the end of the request
  std::chrono::milliseconds idle_timeout{5000};     // open without a byte of a request
};

// True when `bytes` hold a whole request head (it ends at the first empty CRLF line).
bool request_head_complete(std::string_view bytes);

class ConnectionPoller {
 public:
  using Dispatch = std::function<void(HttpConnection)>;  // serve its request (on a worker)
  using Log = std::function<void(std::string_view)>;     // a warning for the daemon's log

  ConnectionPoller(PollerLimits limits, Dispatch dispatch, Log log);
  ~ConnectionPoller();  // stops
  ConnectionPoller(const ConnectionPoller&) = delete;
  ConnectionPoller& operator=(const ConnectionPoller&) = delete;

  // Starts the polling thread; false (and errno set) when no wake-up descriptor could be made.
  bool start();
  // Closes every connection it holds and joins the thread; connections handed back later are closed.
  void stop();

  // A freshly accepted socket (the poller owns it from now on).
  void adopt(int sock);
  // A connection back from its worker after an answer, kept alive for its next request.
  void resume(HttpConnection connection);
  // A connection its worker closed.
  void release();

  // Open connections: waiting here and being answered.
  [[nodiscard]] std::size_t open_connections() const;

 private:
  void run();
  void wake() const;
  // Reads what arrived; false when the connection is to be closed.
  bool receive(HttpConnection& connection, std::chrono::steady_clock::time_point now) const;
  [[nodiscard]] std::chrono::steady_clock::time_point deadline_of(const HttpConnection& connection) const;
  // Under mutex_: makes room for one more connection; the log line to write, if any.
  std::string make_room_locked(std::chrono::steady_clock::time_point now, bool& refused);

  PollerLimits limits_;
  Dispatch dispatch_;
  Log log_;
  mutable std::mutex mutex_;
  std::vector<HttpConnection> waiting_;  // owned here, polled
  std::size_t in_service_ = 0;           // handed to workers, not back yet
  bool stopping_ = false;
  std::size_t dropped_since_log_ = 0;
  std::chrono::steady_clock::time_point last_log_{};
  int wake_fd_ = -1;
  std::thread thread_;
};

}  // namespace gpuvet::monitor
