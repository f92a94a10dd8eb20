// The HTTP connection poller on socket pairs: a request head sent in pieces is handed over once,
// whole; an oversized head is handed over at the byte cap; an
// unfinished one is closed after the request limit; a new connection is refused (with its log line)
// when every open one is being answered; a kept-alive connection handed back is served again.
#include <gtest/gtest.h>

#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "monitor/http_connection_poller.hpp"

namespace gpuvet::monitor {
namespace {

using namespace std::chrono_literals;

struct SocketPair {
  SocketPair() { EXPECT_EQ(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds), 0); }
  ~SocketPair() {
    if (fds[0] >= 0) ::close(fds[0]);  // the client end; the poller owns fds[1]
  }
  SocketPair(const SocketPair&) = delete;
  SocketPair& operator=(const SocketPair&) = delete;
  void send(const std::string& data) const { ASSERT_EQ(::send(fds[0], data.data(), data.size(), MSG_NOSIGNAL), static_cast<ssize_t>(data.size())); }
  // True when the poller closed its end within `timeout`.
  bool closed_within(std::chrono::milliseconds timeout) const {
    pollfd pfd{fds[0], POLLIN, 0};
    if (::poll(&pfd, 1, static_cast<int>(timeout.count())) <= 0) return false;
    char c = 0;
    return ::recv(fds[0], &c, 1, MSG_DONTWAIT) == 0;
  }
  int fds[2] = {-1, -1};
};

// Collects what the poller hands over, as a worker pool would receive it.
class Handed {
 public:
  void add(HttpConnection connection) {
    std::lock_guard lock(mutex_);
    connections_.push_back(std::move(connection));
    arrived_.notify_all();
  }
  bool wait_for_count(std::size_t count, std::chrono::milliseconds timeout = 5s) {
    std::unique_lock lock(mutex_);
    return arrived_.wait_for(lock, timeout, [&] { return connections_.size() >= count; });
  }
  HttpConnection at(std::size_t i) {
    std::lock_guard lock(mutex_);
    return connections_.at(i);
  }
  std::size_t size() {
    std::lock_guard lock(mutex_);
    return connections_.size();
  }

 private:
  std::mutex mutex_;
  std::condition_variable arrived_;
  std::vector<HttpConnection> connections_;
};

struct PollerFixture {
  explicit PollerFixture(PollerLimits limits)
      : poller(limits, [this](HttpConnection c) { handed.add(std::move(c)); },
               [this](std::string_view line) {
                 std::lock_guard lock(log_mutex);
                 log.emplace_back(line);
               }) {
    EXPECT_TRUE(poller.start());
  }
  std::vector<std::string> log_lines() {
    std::lock_guard lock(log_mutex);
    return log;
  }
  Handed handed;
  std::mutex log_mutex;
  std::vector<std::string> log;
  ConnectionPoller poller;  // last: stopped before what its callbacks use goes
};

TEST(RequestHead, CompleteAtTheFirstEmptyLine) {
  EXPECT_TRUE(request_head_complete("GET / HTTP/1.1\r\nHost: x\r\n\r\n"));
  EXPECT_TRUE(request_head_complete("GET / HTTP/1.1\r\n\r\nGET /"));
  EXPECT_FALSE(request_head_complete("GET / HTTP/1.1\r\nHost: x\r\n"));
  EXPECT_FALSE(request_head_complete("GET / HTTP/1.1\n\n"));  // cpp-httplib needs CRLF too
  EXPECT_FALSE(request_head_complete(""));
}

TEST(ConnectionPoller, HeadInPiecesIsHandedOverOnceWhole) {
  PollerFixture f(PollerLimits{});
  SocketPair pair;
  const auto before = std::chrono::steady_clock::now();
  f.poller.adopt(pair.fds[1]);
  pair.send("GET /metrics HTTP/1.1\r\n");
  std::this_thread::sleep_for(50ms);
  EXPECT_EQ(f.handed.size(), 0u);  // not yet: the head is not complete
  pair.send("Host: x\r\n\r\n");
  ASSERT_TRUE(f.handed.wait_for_count(1));
  const auto connection = f.handed.at(0);
  EXPECT_EQ(connection.sock, pair.fds[1]);
  EXPECT_EQ(connection.received, "GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n");
  EXPECT_GE(connection.request_started, before);
  EXPECT_LE(connection.request_started, std::chrono::steady_clock::now());
  EXPECT_EQ(f.poller.open_connections(), 1u);  // being answered
  f.poller.release();
  ::close(connection.sock);
  EXPECT_EQ(f.poller.open_connections(), 0u);
}

TEST(ConnectionPoller, OversizedHeadIsHandedOverAtTheCap) {
  PollerLimits limits;
  limits.max_request_bytes = 1000;
  PollerFixture f(limits);
  SocketPair pair;
  f.poller.adopt(pair.fds[1]);
  pair.send("GET /" + std::string(3000, 'a'));
  ASSERT_TRUE(f.handed.wait_for_count(1));
  EXPECT_EQ(f.handed.at(0).received.size(), 1000u);  // the worker answers 400/414 from these
  f.poller.release();
  ::close(f.handed.at(0).sock);
}

TEST(ConnectionPoller, UnfinishedHeadIsClosedAfterTheRequestLimit) {
  PollerLimits limits;
  limits.request_timeout = 200ms;
  limits.idle_timeout = 60s;  // the idle limit is not what closes it
  PollerFixture f(limits);
  SocketPair pair;
  f.poller.adopt(pair.fds[1]);
  pair.send("GET /metrics HTTP/1.1\r\n");
  EXPECT_TRUE(pair.closed_within(5s));
  EXPECT_EQ(f.handed.size(), 0u);
  EXPECT_EQ(f.poller.open_connections(), 0u);
}

TEST(ConnectionPoller, NewConnectionRefusedWhenAllAreBeingAnswered) {
  PollerLimits limits;
  limits.max_connections = 2;
  PollerFixture f(limits);
  SocketPair a, b, c;
  f.poller.adopt(a.fds[1]);
  f.poller.adopt(b.fds[1]);
  a.send("GET / HTTP/1.1\r\n\r\n");
  b.send("GET / HTTP/1.1\r\n\r\n");
  ASSERT_TRUE(f.handed.wait_for_count(2));  // both with a worker: none idle to close
  f.poller.adopt(c.fds[1]);
  EXPECT_TRUE(c.closed_within(5s));
  ASSERT_EQ(f.log_lines().size(), 1u);
  EXPECT_NE(f.log_lines()[0].find("refused a new one, all are being answered"), std::string::npos) << f.log_lines()[0];
  EXPECT_EQ(f.poller.open_connections(), 2u);
  // A kept-alive connection handed back waits for its next request and is handed over again.
  auto back = f.handed.at(0);
  back.received.clear();  // answered; nothing pipelined behind it
  f.poller.resume(back);
  a.send("GET /again HTTP/1.1\r\n\r\n");
  ASSERT_TRUE(f.handed.wait_for_count(3));
  EXPECT_EQ(f.handed.at(2).received, "GET /again HTTP/1.1\r\n\r\n");
  for (std::size_t i : {1u, 2u}) {
    f.poller.release();
    ::close(f.handed.at(i).sock);
  }
}

}  // namespace
}  // namespace gpuvet::monitor
