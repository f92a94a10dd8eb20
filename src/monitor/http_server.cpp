// The monitor's HTTP endpoint on cpp-httplib (see http_server.hpp). Every request goes through
// one pre-routing handler, so the body of a request is never read: GET and HEAD of the three
// paths are answered from the snapshot, anything else is 404 or 405.
#include "monitor/http_server.hpp"

#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <thread>

#include <fmt/format.h>
#include <httplib.h>

#include "monitor/http_bounded_stream.hpp"
#include "monitor/http_connection_poller.hpp"
#include "monitor/http_listen_socket.hpp"
#include "monitor/http_request_head.hpp"
#include "monitor/http_responses.hpp"
#include "monitor/http_task_queue.hpp"

namespace gpuvet::monitor {
namespace {

// The status of the last answer this worker thread wrote (cpp-httplib's logger sees every answer,
// its own 400/414 included): after an error the connection is closed, not kept alive.
thread_local int last_status = 0;

// Room for the status line and headers cpp-httplib writes before an answer's body.
constexpr std::size_t kAnswerHeadRoom = 16 * 1024;
// Socket buffers of every connection (docs/monitor.md "worst-case memory"): a /metrics answer of
// 8 GPUs (170-210 KB) leaves in one send.
constexpr int kSendBufferBytes = 256 * 1024;
constexpr int kReceiveBufferBytes = 32 * 1024;

// cpp-httplib 0.11 (Debian builds it with brotli) compresses with brotli whenever a client's
// Accept-Encoding names "br", at brotli's highest quality: 1.1 to 1.7 s of a worker for one
// 8-GPU /metrics (165 KB), so a few such clients starved every scrape. gzip (what Prometheus asks
// for) costs milliseconds: it is the only compression offered.
void offer_gzip_only(httplib::Request& request) {
  const bool gzip = request.get_header_value("Accept-Encoding").find("gzip") != std::string::npos;
  request.headers.erase("Accept-Encoding");
  if (gzip) request.headers.emplace("Accept-Encoding", "gzip");
}

// cpp-httplib's Server with its per-connection loop replaced: the accept loop gives each socket to
// a ConnectionPoller (through an InlineTaskQueue), which hands it to a worker of our own pool once
// a request head has arrived; the worker lets cpp-httplib parse the request and write its answer
// into memory (BoundedBufferStream), and hands the answer back to the poller, which sends it.
class BoundedServer final : public httplib::Server {
 public:
  explicit BoundedServer(const HttpOptions& options)
      : head_limits_{options.max_request_bytes, options.max_header_count},
        max_answer_bytes_(options.max_answer_bytes + kAnswerHeadRoom),
        keep_alive_max_requests_(std::max<std::size_t>(1, options.keep_alive_max_requests)),
        workers_count_(std::max<std::size_t>(1, options.worker_threads)),
        max_connections_(std::max<std::size_t>(1, options.max_connections)),
        poller_(PollerLimits{.max_connections = max_connections_,
                             .max_request_bytes = options.max_request_bytes,
                             .request_timeout = options.read_timeout,
                             .idle_timeout = options.idle_timeout,
                             .answer_timeout = options.answer_timeout,
                             .linger_timeout = options.linger_timeout,
                             .max_answer_buffer_bytes = std::max(options.max_answer_buffer_bytes, max_answer_bytes_)},
                [this](HttpConnection connection) { hand_to_worker(std::move(connection)); },
                options.log_warning) {
    new_task_queue = [] { return new InlineTaskQueue(); };
    // Only for the Keep-Alive header cpp-httplib writes ("timeout=T, max=N"): the limits themselves
    // are ours (serve() and the poller), and the header must tell clients what they are.
    set_keep_alive_max_count(keep_alive_max_requests_);
    set_keep_alive_timeout(std::max<time_t>(1, std::chrono::duration_cast<std::chrono::seconds>(options.idle_timeout).count()));
  }

  // Before listening: the worker pool and the poller thread.
  bool start_front() {
    // The queue never holds more than the open connections, so enqueue() from the poller never waits.
    if (!workers_) workers_ = std::make_unique<BoundedTaskQueue>(workers_count_, max_connections_);
    return poller_.start();
  }
  // After the accept loop ended: closes the waiting connections, finishes the requests handed out.
  void stop_front() {
    poller_.stop();
    if (workers_) workers_->shutdown();
  }
  [[nodiscard]] std::size_t open_connections() const { return poller_.open_connections(); }

 private:
  // Overrides cpp-httplib's private virtual (legal C++: access does not limit overriding); runs on
  // the accept thread and only hands the socket over.
  bool process_and_close_socket(socket_t sock) override {
    poller_.adopt(sock);
    return true;
  }

  void hand_to_worker(HttpConnection connection) {
    workers_->enqueue([this, connection = std::move(connection)]() mutable { serve(std::move(connection)); });
  }

  // On a worker: one request, whose head has arrived whole (or reached the byte limit). Never
  // waits on the client: the request is read from memory and the answer written to memory.
  void serve(HttpConnection connection) {
    std::string refused = refused_head_answer(connection.received, head_limits_);
    if (!refused.empty()) {
      connection.received.clear();
      connection.answer = std::move(refused);
      connection.close_after_answer = true;
      poller_.answer(std::move(connection));
      return;
    }
    // cpp-httplib 0.11 answers each range of a multi-range request with a copy of the body
    // (multipart/byteranges, no limit on their number or overlap): Range is not for /metrics.
    remove_range_headers(connection.received);
    BoundedBufferStream stream(connection.sock, std::move(connection.received), max_answer_bytes_);
    const bool last = connection.served + 1 >= keep_alive_max_requests_ || !is_running();
    bool closed = false;
    last_status = 0;
    const bool ok = process_request(stream, last, closed, [](httplib::Request& request) {
      request.ranges.clear();
      offer_gzip_only(request);
    });
    ++connection.served;
    connection.answer = stream.take_answer();
    connection.received = stream.take_unread();
    connection.close_after_answer = !ok || closed || last || last_status >= 400 || stream.answer_too_large();
    if (connection.close_after_answer) connection.received.clear();
    poller_.answer(std::move(connection));
  }

  HeadLimits head_limits_;
  std::size_t max_answer_bytes_;  // status line, headers and body
  std::size_t keep_alive_max_requests_;
  std::size_t workers_count_;
  std::size_t max_connections_;
  ConnectionPoller poller_;
  std::unique_ptr<BoundedTaskQueue> workers_;  // declared last: joined before the poller goes
};

}  // namespace


struct MonitorHttpServer::Impl {
  ListenAddress address;
  const SnapshotBoard& board;
  HttpOptions options;
  BoundedServer server;
  std::thread listener;
  std::atomic<bool> listening_done{false};
  int bound_port = 0;
  int listen_fd = -1;  // cpp-httplib's listening socket, as its socket-options hook saw it
  mutable std::atomic<long long> last_oversize_log_minute{-1};

  Impl(ListenAddress a, const SnapshotBoard& b, HttpOptions o)
      : address(std::move(a)),
        board(b),
        options(std::move(o)),
        server(options) {}

  HttpAnswer route(const httplib::Request& request) const {
    if (request.method != "GET" && request.method != "HEAD") return method_not_allowed_answer(request.method);
    if (request.get_header_value_count("Content-Length") > 0 &&
        request.get_header_value<std::uint64_t>("Content-Length") > options.max_body_bytes) {
      return {413, "text/plain; charset=utf-8", "request body too large: gpuvet monitor takes GET without a body\n"};
    }
    const auto snapshot = board.current();
    if (request.path == "/metrics") {
      MetricsOptions metrics{options.dcgm_names, options.now_unix_ms ? options.now_unix_ms() : 0};
      return bounded(request.path, metrics_answer(snapshot, metrics));
    }
    if (request.path == "/alerts") return bounded(request.path, alerts_answer(snapshot));
    if (request.path == "/healthz") return bounded(request.path, healthz_answer(snapshot));
    return not_found_answer(request.path);
  }

  // An answer over max_answer_bytes is not sent (the bound the memory budget relies on): a 500 and
  // a log line (at most one a minute) instead.
  HttpAnswer bounded(const std::string& path, HttpAnswer answer) const {
    if (answer.body.size() <= options.max_answer_bytes) return answer;
    const std::string why = fmt::format("the answer to {} is {} bytes, over the endpoint's limit of {} bytes",
                                        path, answer.body.size(), options.max_answer_bytes);
    const auto now = std::chrono::steady_clock::now().time_since_epoch();
    const auto minute = std::chrono::duration_cast<std::chrono::minutes>(now).count();
    if (options.log_warning && last_oversize_log_minute.exchange(minute) != minute) {
      options.log_warning("HTTP endpoint: " + why + "; answered 500 (please report it)");
    }
    return {500, "text/plain; charset=utf-8", why + " (gpuvet monitor; please report it)\n"};
  }

  void configure() {
    // SO_REUSEADDR only: cpp-httplib's default SO_REUSEPORT would let a second daemon bind the
    // same port silently and share its scrapes.
    server.set_socket_options([this](socket_t sock) {
      listen_fd = sock;
      int yes = 1;
      ::setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof(yes));
      // Fixed socket buffers, inherited by every accepted connection: the kernel's memory for a
      // client that does not read is charged to the daemon (and its MemoryMax) too, and with
      // autotuning a loopback send buffer grew past 1 MiB. The kernel doubles these values.
      ::setsockopt(sock, SOL_SOCKET, SO_SNDBUF, &kSendBufferBytes, sizeof(kSendBufferBytes));
      ::setsockopt(sock, SOL_SOCKET, SO_RCVBUF, &kReceiveBufferBytes, sizeof(kReceiveBufferBytes));
    });
    // TCP_NODELAY (inherited by accepted sockets): a response goes out as headers then body, and
    // with Nagle the body's last segment waited for the ACK of the headers, which the client
    // delays by 40 ms: 1 % of /metrics answers at 100 requests/s took 40-80 ms instead of < 1 ms
    // (bench/monitor_endpoint.sh, docs/measurement.md "Monitor endpoint").
    server.set_tcp_nodelay(true);
    server.set_payload_max_length(options.max_body_bytes);
    server.set_logger([](const httplib::Request&, const httplib::Response& response) { last_status = response.status; });
    // cpp-httplib offers byte ranges on every HEAD answer; Range is ignored here (serve()).
    server.set_post_routing_handler([](const httplib::Request&, httplib::Response& response) {
      response.headers.erase("Accept-Ranges");
    });
    server.set_pre_routing_handler([this](const httplib::Request& request, httplib::Response& response) {
      HttpAnswer answer = route(request);
      response.status = answer.status;
      if (answer.status == 405) response.set_header("Allow", "GET, HEAD");
      if (answer.status == 413) response.set_header("Connection", "close");
      response.set_content(std::move(answer.body), answer.content_type.c_str());
      return httplib::Server::HandlerResponse::Handled;
    });
    server.set_exception_handler([](const httplib::Request&, httplib::Response& response, std::exception_ptr) {
      response.status = 500;
      response.set_content("internal error in gpuvet monitor (please report it)\n", "text/plain; charset=utf-8");
    });
  }
};

MonitorHttpServer::MonitorHttpServer(ListenAddress address, const SnapshotBoard& board, HttpOptions options)
    : impl_(std::make_unique<Impl>(std::move(address), board, std::move(options))) {
  if (!impl_->options.now_unix_ms) {
    impl_->options.now_unix_ms = [] {
      return std::chrono::duration_cast<std::chrono::milliseconds>(
                 std::chrono::system_clock::now().time_since_epoch()).count();
    };
  }
  impl_->configure();
}

MonitorHttpServer::~MonitorHttpServer() { stop(); }

core::Result<int> MonitorHttpServer::start() {
  Impl& impl = *impl_;
  if (impl.listener.joinable()) return impl.bound_port;
  auto checked = parse_listen_address(host_port(impl.address.host, impl.address.port));
  if (!checked) return checked.error();
  if (impl.address.port == 0) {
    const int port = impl.server.bind_to_any_port(impl.address.host);
    if (port <= 0) return bind_failure(impl.address);
    impl.bound_port = port;
  } else {
    if (!impl.server.bind_to_port(impl.address.host, impl.address.port)) return bind_failure(impl.address);
    impl.bound_port = impl.address.port;
  }
  deepen_backlog(impl.listen_fd, impl.bound_port);
  if (!impl.server.start_front()) {
    return core::environment_error(fmt::format("cannot serve on {}: no descriptor for the connection poller: {}",
                                               host_port(impl.address.host, impl.bound_port), std::strerror(errno)));
  }
  impl.listener = std::thread([&impl] {
    try {
      impl.server.listen_after_bind();
    } catch (...) {  // NOLINT(bugprone-empty-catch): no exception leaves a thread; stop() still joins
    }
    impl.listening_done = true;
  });
  return impl.bound_port;
}

void MonitorHttpServer::stop() {
  if (!impl_ || !impl_->listener.joinable()) return;
  // cpp-httplib's stop() does nothing until the listener thread has entered its accept loop, so
  // repeat it until that thread is done (a stop right after start() would otherwise hang).
  while (!impl_->listening_done) {
    impl_->server.stop();
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  impl_->listener.join();
  impl_->server.stop_front();
}

std::size_t MonitorHttpServer::open_connections() const { return impl_->server.open_connections(); }

std::string MonitorHttpServer::describe() const {
  const auto& a = impl_->address;
  const int port = impl_->bound_port != 0 ? impl_->bound_port : a.port;
  return "http://" + host_port(a.host, port);
}

}  // namespace gpuvet::monitor
