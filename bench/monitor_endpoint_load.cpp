// A bounded local load generator for `gpuvet monitor`'s HTTP endpoint (issue 14, "endpoint under
// load"): GET PATH on 127.0.0.1:PORT at a fixed rate (open loop: latency counted from when each
// request was due, so a stall is not hidden) or as fast as C keep-alive connections go (closed
// loop), optionally while N idle connections, S slow clients (one header byte every 500 ms), R slow
// readers (20 scrapes pipelined, then one byte of the answers read a second) or A Range abusers
// (GET /metrics with 2000 ranges "0-", the whole answer read, again and again; issue 20) hold the
// server. Prints one line of key=value results. Loopback only; stops after --duration.
// Driven by bench/monitor_endpoint.sh; method in docs/measurement.md "Monitor endpoint".
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

struct Options {
  int port = 0;
  std::string path = "/metrics";
  double rate = 100;        // requests per second; 0 = closed loop, as fast as possible
  int connections = 4;      // worker threads, one keep-alive connection each
  double duration_s = 10;
  int idle = 0;             // connections that connect and never send
  int slow = 0;             // clients that send one header byte every 500 ms
  int slow_readers = 0;     // clients that pipeline 20 scrapes and read one byte a second
  int ranges = 0;           // clients that ask for 2000 ranges of /metrics over and over
  int timeout_s = 2;        // a request not answered within this counts as an error
};

// Connect, send and receive each give up after `timeout_s` (SO_SNDTIMEO also bounds connect() on
// Linux), so a server whose backlog is full cannot hold the generator past its deadline.
int connect_loopback(int port, int timeout_s = 2) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return -1;
  const timeval timeout{timeout_s, 0};
  ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof timeout);
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<std::uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    ::close(fd);
    return -1;
  }
  const int one = 1;
  ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  return fd;
}

bool send_all(int fd, const std::string& data) {
  std::size_t sent = 0;
  while (sent < data.size()) {
    const ssize_t n = ::send(fd, data.data() + sent, data.size() - sent, MSG_NOSIGNAL);
    if (n <= 0) return false;
    sent += static_cast<std::size_t>(n);
  }
  return true;
}

// Reads one response; true when it is a 200 with its whole body. `keep` says whether the server
// keeps the connection open.
bool read_response(int fd, bool& keep, std::size_t& body_bytes) {
  std::string head;
  char buf[65536];
  std::size_t header_end = std::string::npos;
  while (header_end == std::string::npos) {
    const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
    if (n <= 0) return false;
    head.append(buf, static_cast<std::size_t>(n));
    header_end = head.find("\r\n\r\n");
  }
  std::string lower = head.substr(0, header_end);
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  const bool ok = lower.rfind("http/1.1 200", 0) == 0;
  keep = lower.find("connection: close") == std::string::npos;
  const auto cl = lower.find("content-length:");
  if (cl == std::string::npos) return false;
  const std::size_t length = std::strtoull(lower.c_str() + cl + 15, nullptr, 10);
  std::size_t have = head.size() - header_end - 4;
  while (have < length) {
    const ssize_t n = ::recv(fd, buf, std::min(sizeof buf, length - have), 0);
    if (n <= 0) return false;
    have += static_cast<std::size_t>(n);
  }
  body_bytes = length;
  return ok;
}

struct Results {
  std::mutex mutex;
  std::vector<double> latency_ms;
  std::size_t errors = 0;
  std::size_t bytes = 0;
};

void worker(const Options& o, int id, Clock::time_point start, Results& results) {
  const std::string request = "GET " + o.path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
  const auto end = start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(o.duration_s));
  std::vector<double> latencies;
  std::size_t errors = 0;
  std::size_t bytes = 0;
  int fd = -1;
  for (long i = id;; i += o.connections) {
    Clock::time_point due = Clock::now();
    if (due >= end) break;  // requests still due when the time is up are not sent (counted as unsent)
    if (o.rate > 0) {
      due = start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(static_cast<double>(i) / o.rate));
      if (due >= end) break;
      std::this_thread::sleep_until(due);
    } else if (due >= end) {
      break;
    }
    if (fd < 0) fd = connect_loopback(o.port, o.timeout_s);
    bool keep = false;
    std::size_t body = 0;
    const bool ok = fd >= 0 && send_all(fd, request) && read_response(fd, keep, body);
    const auto done = Clock::now();
    if (ok) {
      latencies.push_back(std::chrono::duration<double, std::milli>(done - due).count());
      bytes += body;
    } else {
      ++errors;
    }
    if (!ok || !keep) {
      if (fd >= 0) ::close(fd);
      fd = -1;
    }
  }
  if (fd >= 0) ::close(fd);
  const std::lock_guard lock(results.mutex);
  results.latency_ms.insert(results.latency_ms.end(), latencies.begin(), latencies.end());
  results.errors += errors;
  results.bytes += bytes;
}

// Idle connections: connect, send nothing; reconnect when the server drops one.
void idle_holder(const Options& o, const std::atomic<bool>& stop, std::atomic<long>& reconnects) {
  std::vector<int> fds(static_cast<std::size_t>(o.idle), -1);
  while (!stop.load()) {
    for (int& fd : fds) {
      if (stop.load()) break;
      char c;
      if (fd >= 0 && ::recv(fd, &c, 1, MSG_DONTWAIT) == 0) {
        ::close(fd);
        fd = -1;
        ++reconnects;
      }
      if (fd < 0) fd = connect_loopback(o.port, 1);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  for (int fd : fds) if (fd >= 0) ::close(fd);
}

// Slow clients: a request that never ends, one byte every 500 ms; reconnect when dropped.
void slow_client(const Options& o, const std::atomic<bool>& stop, std::atomic<long>& dropped) {
  const std::string trickle = "GET /metrics HTTP/1.1\r\nX-Slow: " + std::string(4096, 'a');
  int fd = -1;
  std::size_t pos = 0;
  while (!stop.load()) {
    if (fd < 0) {
      fd = connect_loopback(o.port, 1);
      pos = 0;
    }
    if (fd >= 0 && !send_all(fd, trickle.substr(pos % trickle.size(), 1))) {
      ::close(fd);
      fd = -1;
      ++dropped;
    }
    ++pos;
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
  }
  if (fd >= 0) ::close(fd);
}

// Slow readers: 20 scrapes pipelined on a connection with a 4 KiB receive buffer, then one byte
// read a second; reconnect when the server has cut or closed the connection (counted).
void slow_reader(const Options& o, const std::atomic<bool>& stop, std::atomic<long>& cut) {
  std::string requests;
  for (int i = 0; i < 20; ++i) requests += "GET " + o.path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
  int fd = -1;
  while (!stop.load()) {
    if (fd < 0) {
      fd = ::socket(AF_INET, SOCK_STREAM, 0);
      const int small = 4096;
      ::setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &small, sizeof small);
      sockaddr_in addr{};
      addr.sin_family = AF_INET;
      addr.sin_port = htons(static_cast<std::uint16_t>(o.port));
      addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
      if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 || !send_all(fd, requests)) {
        ::close(fd);
        fd = -1;
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        continue;
      }
    }
    for (int tick = 0; tick < 10 && !stop.load(); ++tick) std::this_thread::sleep_for(std::chrono::milliseconds(100));
    char c;
    const ssize_t n = ::recv(fd, &c, 1, MSG_DONTWAIT);
    // The answers already received stay readable after the server cut the connection: ask TCP.
    tcp_info info{};
    socklen_t length = sizeof info;
    const bool ended = ::getsockopt(fd, IPPROTO_TCP, TCP_INFO, &info, &length) == 0 &&
                       (info.tcpi_state == TCP_CLOSE || info.tcpi_state == TCP_CLOSE_WAIT);
    if (ended || n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK)) {
      ::close(fd);
      fd = -1;
      ++cut;
    }
  }
  if (fd >= 0) ::close(fd);
}

// Range abusers: GET /metrics with 2000 ranges "0-" (6 KB), the whole answer read to the end; the
// largest answer is reported (cpp-httplib 0.11 alone sent 2000 copies of the body: 410 MB).
void range_abuser(const Options& o, const std::atomic<bool>& stop, std::atomic<std::size_t>& largest) {
  std::string ranges = "0-";
  for (int i = 1; i < 2000; ++i) ranges += ",0-";
  const std::string request =
      "GET " + o.path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nRange: bytes=" + ranges + "\r\nConnection: close\r\n\r\n";
  std::vector<char> buffer(1 << 16);
  while (!stop.load()) {
    const int fd = connect_loopback(o.port, 5);
    if (fd < 0 || !send_all(fd, request)) {
      if (fd >= 0) ::close(fd);
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      continue;
    }
    std::size_t bytes = 0;
    for (;;) {
      const ssize_t n = ::recv(fd, buffer.data(), buffer.size(), 0);
      if (n <= 0 || stop.load()) break;
      bytes += static_cast<std::size_t>(n);
    }
    ::close(fd);
    std::size_t seen = largest.load();
    while (bytes > seen && !largest.compare_exchange_weak(seen, bytes)) {
    }
  }
}

double percentile(const std::vector<double>& sorted, double p) {
  if (sorted.empty()) return 0;
  const auto index = static_cast<std::size_t>(p * static_cast<double>(sorted.size() - 1) + 0.5);
  return sorted[std::min(index, sorted.size() - 1)];
}

bool parse(int argc, char** argv, Options& o) {
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string key = argv[i];
    const char* value = argv[i + 1];
    if (key == "--port") o.port = std::atoi(value);
    else if (key == "--path") o.path = value;
    else if (key == "--rate") o.rate = std::atof(value);
    else if (key == "--connections") o.connections = std::atoi(value);
    else if (key == "--duration") o.duration_s = std::atof(value);
    else if (key == "--idle") o.idle = std::atoi(value);
    else if (key == "--slow") o.slow = std::atoi(value);
    else if (key == "--slow-readers") o.slow_readers = std::atoi(value);
    else if (key == "--ranges") o.ranges = std::atoi(value);
    else if (key == "--timeout") o.timeout_s = std::atoi(value);
    else return false;
  }
  return (argc % 2) == 1 && o.port > 0 && o.port < 65536 && o.connections > 0 && o.duration_s > 0 &&
         o.duration_s <= 600 && o.idle >= 0 && o.idle <= 1000 && o.slow >= 0 && o.slow <= 100 &&
         o.slow_readers >= 0 && o.slow_readers <= 100 && o.ranges >= 0 && o.ranges <= 100 &&
         o.timeout_s > 0 && o.timeout_s <= 30;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  if (!parse(argc, argv, o)) {
    std::fprintf(stderr,
                 "usage: monitor_endpoint_load --port P [--path /metrics] [--rate R|0] [--connections C] "
                 "[--duration S<=600] [--idle N<=1000] [--slow N<=100] [--slow-readers N<=100] [--ranges N<=100] "
                 "[--timeout S<=30]\n");
    return 2;
  }
  std::atomic<bool> stop{false};
  std::atomic<long> idle_reconnects{0};
  std::atomic<long> slow_dropped{0};
  std::atomic<long> readers_cut{0};
  std::atomic<std::size_t> range_largest{0};
  std::vector<std::thread> background;
  if (o.idle > 0) background.emplace_back(idle_holder, std::cref(o), std::cref(stop), std::ref(idle_reconnects));
  for (int i = 0; i < o.slow; ++i) background.emplace_back(slow_client, std::cref(o), std::cref(stop), std::ref(slow_dropped));
  for (int i = 0; i < o.slow_readers; ++i) {
    background.emplace_back(slow_reader, std::cref(o), std::cref(stop), std::ref(readers_cut));
  }
  for (int i = 0; i < o.ranges; ++i) background.emplace_back(range_abuser, std::cref(o), std::cref(stop), std::ref(range_largest));
  if (!background.empty()) std::this_thread::sleep_for(std::chrono::milliseconds(500));  // let them connect

  Results results;
  const auto start = Clock::now() + std::chrono::milliseconds(50);
  std::vector<std::thread> workers;
  for (int id = 0; id < o.connections; ++id) workers.emplace_back(worker, std::cref(o), id, start, std::ref(results));
  for (auto& t : workers) t.join();
  const double elapsed_s = std::chrono::duration<double>(Clock::now() - start).count();
  stop.store(true);
  for (auto& t : background) t.join();

  // Percentiles over every request that was due: a failed or unsent one counts as slower than any
  // answer (+inf), so a server that drops requests cannot look fast.
  const std::size_t answered = results.latency_ms.size();
  const std::size_t due = o.rate > 0 ? static_cast<std::size_t>(o.duration_s * o.rate) : answered + results.errors;
  const std::size_t unsent = due > answered + results.errors ? due - answered - results.errors : 0;
  std::vector<double> all = results.latency_ms;
  all.resize(std::max(all.size(), due), std::numeric_limits<double>::infinity());
  std::sort(all.begin(), all.end());
  std::printf("requests=%zu errors=%zu unsent=%zu rps=%.1f p50_ms=%.3f p99_ms=%.3f max_ms=%.3f body_bytes=%zu "
              "idle_reconnects=%ld slow_dropped=%ld slow_readers_cut=%ld range_answer_max_bytes=%zu\n",
              answered, results.errors, unsent, static_cast<double>(answered) / elapsed_s, percentile(all, 0.50),
              percentile(all, 0.99), all.empty() ? 0.0 : all.back(), answered == 0 ? 0 : results.bytes / answered,
              idle_reconnects.load(), slow_dropped.load(), readers_cut.load(), range_largest.load());
  return results.errors + unsent == 0 ? 0 : 1;
}
