// The front of the monitor's HTTP server: one thread that owns every open connection, with poll(),
// whenever no worker is parsing its request or rendering its answer. It reads requests until a
// head is whole (then hands the connection to a worker), writes the answers workers hand back
// without blocking, and closes connections gracefully. So idle connections, clients that send
// slowly and clients that read slowly cost a file descriptor and their bytes, never a worker
// (issues 14 and 20). Bounded: at most max_connections open (a new one closes one already
// answered and closing, else the one idle the longest, else the one slowest to take its answer;
// refused when all are with a worker), each closed after idle_timeout without a request,
// request_timeout after the first byte of an unfinished one, answer_timeout after its answer was
// handed over unless the client has taken it whole; answers waiting for their clients hold at most
// max_answer_buffer_bytes together (past it, the one waiting the longest is closed). Closing after
// an answer (a keep-alive cap, an error, the client asked) shuts the write side and drains the
// client's input (up to linger_timeout and linger_max_bytes) before close(), so the answers already
// sent are not reset by a RST (lingering close, as Apache and nginx). Used only by http_server.cpp.
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

// One open connection, as a worker receives it and hands it back.
struct HttpConnection {
  int sock = -1;
  std::string received;    // bytes of the next request(s) read so far
  std::size_t served = 0;  // requests answered on this connection
  std::chrono::steady_clock::time_point request_started;  // first byte of `received`
  std::chrono::steady_clock::time_point idle_since;       // accepted, or its last answer sent
  // Set by the worker: the answer to send (may be empty), and whether the connection then closes.
  std::string answer;
  bool close_after_answer = false;
};

struct PollerLimits {
  std::size_t max_connections = 128;                // open at once, in every phase
  std::size_t max_request_bytes = 16 * 1024;        // a head this long goes to a worker (414/431)
  std::chrono::milliseconds request_timeout{5000};  // first byte to the end of the request
  std::chrono::milliseconds idle_timeout{5000};     // open without a byte of a request
  std::chrono::milliseconds answer_timeout{5000};   // an answer handed over to its last byte sent
  std::chrono::milliseconds linger_timeout{2000};   // after the last answer, input drained this long
  std::size_t linger_max_bytes = 1u << 20;          // and at most this much of it
  std::size_t max_answer_buffer_bytes = 32u << 20;  // answers not yet sent, all connections together
};

class ConnectionPoller {
 public:
  using Dispatch = std::function<void(HttpConnection)>;  // parse and answer its request (on a worker)
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
  // From a worker: a connection with its answer. Sends what the socket takes at once (on the
  // calling thread, never waiting), then the rest from the poller; after it, waits for the next
  // request or closes gracefully (close_after_answer).
  void answer(HttpConnection connection);

  // Open connections in every phase, with a worker or not.
  [[nodiscard]] std::size_t open_connections() const;
  // Bytes of answers handed over and not yet sent.
  [[nodiscard]] std::size_t answer_bytes_waiting() const;

 private:
  enum class Phase { reading, writing, lingering };
  struct Held {
    HttpConnection connection;
    Phase phase = Phase::reading;
    std::size_t sent = 0;                            // of connection.answer
    std::size_t drained = 0;                         // lingering: input read and dropped
    std::chrono::steady_clock::time_point deadline;  // writing and lingering
  };

  void run();
  void wake() const;
  // Reads what arrived; false when the connection is to be closed.
  bool receive(HttpConnection& connection, std::chrono::steady_clock::time_point now) const;
  [[nodiscard]] std::chrono::steady_clock::time_point deadline_of(const Held& held) const;
  // Under mutex_: the answer sent whole; on to the next request, or to lingering.
  void finish_answer_locked(Held& held, std::chrono::steady_clock::time_point now);
  // Under mutex_: closes the connection now, releasing its answer's bytes; the caller erases it.
  void close_locked(Held& held);
  // Under mutex_: makes room for one more connection; the log line to write, if any.
  std::string make_room_locked(std::chrono::steady_clock::time_point now, bool& refused);
  // Under mutex_: closes the connections waiting longest for their answer to be taken while the
  // answers held are over their budget; `keep` is the connection just handed over.
  std::string shed_answers_locked(std::chrono::steady_clock::time_point now, int keep);
  std::string log_line_locked(std::chrono::steady_clock::time_point now, std::string_view what);

  PollerLimits limits_;
  Dispatch dispatch_;
  Log log_;
  mutable std::mutex mutex_;
  std::vector<Held> held_;       // owned here, polled
  std::size_t in_service_ = 0;   // handed to workers, not back yet
  std::size_t answer_bytes_ = 0; // of the answers in held_ not yet sent whole
  bool stopping_ = false;
  std::size_t dropped_since_log_ = 0;
  std::chrono::steady_clock::time_point last_log_{};
  int wake_fd_ = -1;
  std::thread thread_;
};

}  // namespace gpuvet::monitor
