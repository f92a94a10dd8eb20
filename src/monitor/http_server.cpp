// The monitor's HTTP endpoint on cpp-httplib (see http_server.hpp). Every request goes through
// one pre-routing handler, so the body of a request is never read: GET and HEAD of the three
// paths are answered from the snapshot, anything else is 404 or 405.
#include "monitor/http_server.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <thread>

#include <fmt/format.h>
#include <httplib.h>

#include "monitor/http_bounded_stream.hpp"
#include "monitor/http_connection_poller.hpp"
#include "monitor/http_responses.hpp"
#include "monitor/http_task_queue.hpp"

namespace gpuvet::monitor {
namespace {

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

// The status of the last answer this worker thread wrote (cpp-httplib's logger sees every answer,
// its own 400/414 included): after an error the connection is closed, not kept alive.
thread_local int last_status = 0;

// cpp-httplib's Server with its per-connection loop replaced: the accept loop gives each socket to
// a ConnectionPoller (through an InlineTaskQueue), which hands it to a worker of our own pool once
// a request head has arrived; the worker reads the request through a BoundedSocketStream (bytes and
// time per request capped), answers, and gives a kept-alive connection back to the poller.
class BoundedServer final : public httplib::Server {
 public:
  explicit BoundedServer(const HttpOptions& options)
      : limits_{options.max_request_bytes, options.read_timeout, options.write_timeout},
        keep_alive_max_requests_(std::max<std::size_t>(1, options.keep_alive_max_requests)),
        workers_count_(std::max<std::size_t>(1, options.worker_threads)),
        max_connections_(std::max<std::size_t>(1, options.max_connections)),
        poller_(PollerLimits{max_connections_, options.max_request_bytes, options.read_timeout, options.idle_timeout},
                [this](HttpConnection connection) { hand_to_worker(std::move(connection)); },
                options.log_warning) {
    new_task_queue = [] { return new InlineTaskQueue(); };
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

  // On a worker: the request whose head has arrived, and any pipelined after it.
  void serve(HttpConnection connection) {
    BoundedSocketStream stream(connection.sock, limits_, std::move(connection.received), connection.request_started);
    for (;;) {
      const bool last = connection.served + 1 >= keep_alive_max_requests_ || !is_running();
      bool closed = false;
      last_status = 0;
      const bool ok = process_request(stream, last, closed, [](httplib::Request&) {});
      ++connection.served;
      if (!ok || closed || last || last_status >= 400) {
        ::shutdown(connection.sock, SHUT_RDWR);
        ::close(connection.sock);
        poller_.release();
        return;
      }
      if (!request_head_complete(stream.buffered())) break;
      stream.start_request();  // a pipelined request, already here
    }
    connection.received = stream.take_buffered();
    poller_.resume(std::move(connection));
  }

  StreamLimits limits_;
  std::size_t keep_alive_max_requests_;
  std::size_t workers_count_;
  std::size_t max_connections_;
  ConnectionPoller poller_;
  std::unique_ptr<BoundedTaskQueue> workers_;  // declared last: joined before the poller goes
};

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

}  // namespace

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

struct MonitorHttpServer::Impl {
  ListenAddress address;
  const SnapshotBoard& board;
  HttpOptions options;
  BoundedServer server;
  std::thread listener;
  std::atomic<bool> listening_done{false};
  int bound_port = 0;
  int listen_fd = -1;  // cpp-httplib's listening socket, as its socket-options hook saw it

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
      return metrics_answer(snapshot, metrics);
    }
    if (request.path == "/alerts") return alerts_answer(snapshot);
    if (request.path == "/healthz") return healthz_answer(snapshot);
    return not_found_answer(request.path);
  }

  void configure() {
    // SO_REUSEADDR only: cpp-httplib's default SO_REUSEPORT would let a second daemon bind the
    // same port silently and share its scrapes.
    server.set_socket_options([this](socket_t sock) {
      listen_fd = sock;
      int yes = 1;
      ::setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof(yes));
    });
    // TCP_NODELAY (inherited by accepted sockets): a response goes out as headers then body, and
    // with Nagle the body's last segment waited for the ACK of the headers, which the client
    // delays by 40 ms: 1 % of /metrics answers at 100 requests/s took 40-80 ms instead of < 1 ms
    // (bench/monitor_endpoint.sh, docs/measurement.md "Monitor endpoint").
    server.set_tcp_nodelay(true);
    server.set_payload_max_length(options.max_body_bytes);
    server.set_logger([](const httplib::Request&, const httplib::Response& response) { last_status = response.status; });
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
