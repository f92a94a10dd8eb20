// The HTTP connection poller on socket pairs: a request head sent in pieces is handed over once,
// whole; an oversized head is handed over at the byte cap; an unfinished one is closed after the
// request limit; a new connection is refused (with its log line) when every open one is being
// answered; a kept-alive connection handed back is served again. Answers (issue 20): sent whole
// without a worker, closed when not taken by their deadline, the oldest closed past the answer
// budget, the slowest reader closed at the connection limit; closing after an answer shuts the
// write side and lingers, bounded.
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

#include "http_test_connection.hpp"
#include "monitor/http_connection_poller.hpp"

namespace gpuvet::monitor {
namespace {

using namespace std::chrono_literals;
using testing::eventually;

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
  // `count` bytes the poller sent (fewer if `timeout` passes first).
  std::string receive_exactly(std::size_t count, std::chrono::milliseconds timeout) const {
    std::string out;
    char buffer[65536];
    const auto until = std::chrono::steady_clock::now() + timeout;
    while (out.size() < count && std::chrono::steady_clock::now() < until) {
      pollfd pfd{fds[0], POLLIN, 0};
      if (::poll(&pfd, 1, 50) <= 0) continue;
      const auto n = ::recv(fds[0], buffer, std::min(sizeof(buffer), count - out.size()), MSG_DONTWAIT);
      if (n <= 0) break;
      out.append(buffer, static_cast<std::size_t>(n));
    }
    return out;
  }
  // What the poller sent until it shut its write side (or `timeout`).
  std::string receive_until_closed(std::chrono::milliseconds timeout) const {
    std::string out;
    char buffer[65536];
    const auto until = std::chrono::steady_clock::now() + timeout;
    while (std::chrono::steady_clock::now() < until) {
      pollfd pfd{fds[0], POLLIN, 0};
      if (::poll(&pfd, 1, 50) <= 0) continue;
      const auto n = ::recv(fds[0], buffer, sizeof(buffer), MSG_DONTWAIT);
      if (n <= 0) break;
      out.append(buffer, static_cast<std::size_t>(n));
    }
    return out;
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

// A connection as a worker hands it back: its answer, and whether the connection then closes.
HttpConnection answered(HttpConnection connection, std::string answer, bool close) {
  connection.answer = std::move(answer);
  connection.close_after_answer = close;
  if (close) connection.received.clear();
  return connection;
}

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
  auto done = connection;
  done.answer = "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n";
  done.close_after_answer = true;
  f.poller.answer(std::move(done));
  EXPECT_EQ(pair.receive_until_closed(5s), "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n");
  ::close(pair.fds[0]);  // the client closes: the lingering server end goes too, before its 2 s
  pair.fds[0] = -1;
  EXPECT_TRUE(eventually([&] { return f.poller.open_connections() == 0; }, 1500ms));
}

TEST(ConnectionPoller, OversizedHeadIsHandedOverAtTheCap) {
  PollerLimits limits;
  limits.max_request_bytes = 1000;
  PollerFixture f(limits);
  SocketPair pair;
  f.poller.adopt(pair.fds[1]);
  pair.send("GET /" + std::string(3000, 'a'));
  ASSERT_TRUE(f.handed.wait_for_count(1));
  EXPECT_EQ(f.handed.at(0).received.size(), 1000u);  // the worker answers 414/431 from these
  f.poller.answer(answered(f.handed.at(0), "", true));
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
  f.poller.answer(back);
  a.send("GET /again HTTP/1.1\r\n\r\n");
  ASSERT_TRUE(f.handed.wait_for_count(3));
  EXPECT_EQ(f.handed.at(2).received, "GET /again HTTP/1.1\r\n\r\n");
  for (std::size_t i : {1u, 2u}) f.poller.answer(answered(f.handed.at(i), "", true));
}

TEST(ConnectionPoller, AnswerIsSentWholeThenThePipelinedRequestIsHandedOver) {
  PollerFixture f(PollerLimits{});
  SocketPair pair;
  f.poller.adopt(pair.fds[1]);
  pair.send("GET /a HTTP/1.1\r\n\r\nGET /b HTTP/1.1\r\n\r\n");
  ASSERT_TRUE(f.handed.wait_for_count(1));
  auto first = f.handed.at(0);
  first.received = "GET /b HTTP/1.1\r\n\r\n";  // the worker read /a; /b waits behind it
  const std::string big(1u << 20, 'x');            // more than the socket takes at once
  f.poller.answer(answered(first, big, false));
  EXPECT_EQ(f.handed.size(), 1u);  // one request at a time: /b waits until /a's answer is sent
  EXPECT_GT(f.poller.answer_bytes_waiting(), 0u);
  EXPECT_EQ(pair.receive_exactly(big.size(), 5s), big);
  ASSERT_TRUE(f.handed.wait_for_count(2));
  EXPECT_EQ(f.handed.at(1).received, "GET /b HTTP/1.1\r\n\r\n");
  EXPECT_EQ(f.poller.answer_bytes_waiting(), 0u);
  f.poller.answer(answered(f.handed.at(1), "", true));
}

TEST(ConnectionPoller, AnswerNotTakenByItsDeadlineIsClosed) {
  PollerLimits limits;
  limits.answer_timeout = 200ms;
  PollerFixture f(limits);
  SocketPair pair;
  f.poller.adopt(pair.fds[1]);
  pair.send("GET / HTTP/1.1\r\n\r\n");
  ASSERT_TRUE(f.handed.wait_for_count(1));
  const auto begin = std::chrono::steady_clock::now();
  f.poller.answer(answered(f.handed.at(0), std::string(4u << 20, 'x'), false));  // never read
  EXPECT_GT(f.poller.answer_bytes_waiting(), 0u);
  EXPECT_TRUE(eventually([&] { return f.poller.open_connections() == 0; }, 5s));
  EXPECT_GE(std::chrono::steady_clock::now() - begin, 150ms);
  EXPECT_EQ(f.poller.answer_bytes_waiting(), 0u);
  EXPECT_LT(pair.receive_until_closed(5s).size(), 4u << 20);  // what it took, then the end
  EXPECT_TRUE(pair.closed_within(1s));
}

TEST(ConnectionPoller, AnswersOverTheirBudgetCloseTheOneWaitingLongest) {
  PollerLimits limits;
  limits.max_answer_buffer_bytes = 3u << 20;
  PollerFixture f(limits);
  SocketPair a, b;
  f.poller.adopt(a.fds[1]);
  f.poller.adopt(b.fds[1]);
  a.send("GET / HTTP/1.1\r\n\r\n");
  b.send("GET / HTTP/1.1\r\n\r\n");
  ASSERT_TRUE(f.handed.wait_for_count(2));
  const bool a_first = f.handed.at(0).sock == a.fds[1];
  f.poller.answer(answered(f.handed.at(a_first ? 0 : 1), std::string(2u << 20, 'a'), false));
  f.poller.answer(answered(f.handed.at(a_first ? 1 : 0), std::string(2u << 20, 'b'), false));
  EXPECT_LT(a.receive_until_closed(5s).size(), 2u << 20);  // waiting the longest: closed to make room
  EXPECT_TRUE(a.closed_within(1s));
  EXPECT_LE(f.poller.answer_bytes_waiting(), 3u << 20);
  EXPECT_EQ(f.poller.open_connections(), 1u);
  ASSERT_EQ(f.log_lines().size(), 1u);
  EXPECT_NE(f.log_lines()[0].find("closed the one waiting the longest"), std::string::npos) << f.log_lines()[0];
}

TEST(ConnectionPoller, AtTheConnectionLimitTheSlowestReaderMakesRoom) {
  PollerLimits limits;
  limits.max_connections = 2;
  PollerFixture f(limits);
  SocketPair a, b, c;
  f.poller.adopt(a.fds[1]);
  f.poller.adopt(b.fds[1]);
  a.send("GET / HTTP/1.1\r\n\r\n");
  b.send("GET / HTTP/1.1\r\n\r\n");
  ASSERT_TRUE(f.handed.wait_for_count(2));
  const bool a_first = f.handed.at(0).sock == a.fds[1];
  // Both answers wait for clients that do not read; a's was handed over first.
  f.poller.answer(answered(f.handed.at(a_first ? 0 : 1), std::string(1u << 20, 'a'), false));
  f.poller.answer(answered(f.handed.at(a_first ? 1 : 0), std::string(1u << 20, 'b'), false));
  f.poller.adopt(c.fds[1]);  // a fresh scrape is not refused: a gives way
  EXPECT_LT(a.receive_until_closed(5s).size(), 1u << 20);
  c.send("GET /metrics HTTP/1.1\r\n\r\n");
  ASSERT_TRUE(f.handed.wait_for_count(3));
  EXPECT_EQ(f.handed.at(2).sock, c.fds[1]);
  ASSERT_EQ(f.log_lines().size(), 1u);
  EXPECT_NE(f.log_lines()[0].find("closed the one slowest to take its answer"), std::string::npos) << f.log_lines()[0];
  f.poller.answer(answered(f.handed.at(2), "", true));
}

TEST(ConnectionPoller, ClosingShutsTheWriteSideThenLingersBounded) {
  PollerLimits limits;
  limits.linger_timeout = 1000ms;
  PollerFixture f(limits);
  SocketPair pair;
  f.poller.adopt(pair.fds[1]);
  pair.send("GET / HTTP/1.1\r\n\r\n");
  ASSERT_TRUE(f.handed.wait_for_count(1));
  const auto begin = std::chrono::steady_clock::now();
  f.poller.answer(answered(f.handed.at(0), "bye", true));
  EXPECT_EQ(pair.receive_until_closed(5s), "bye");  // the answer, then end of stream
  pair.send("more requests the server will not answer\r\n");
  EXPECT_EQ(f.poller.open_connections(), 1u);  // still reading (and dropping) what the client sends
  EXPECT_TRUE(eventually([&] { return f.poller.open_connections() == 0; }, 5s));  // but not for ever
  EXPECT_GE(std::chrono::steady_clock::now() - begin, 800ms);
}

}  // namespace
}  // namespace gpuvet::monitor
