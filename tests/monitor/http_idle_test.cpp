// The monitor's HTTP server under idle connections (issue 14): connections that send nothing hold
// no worker, so /metrics is answered while 64 of them are open; they are closed after the idle
// timeout; the connection limit bounds open descriptors (the one idle the longest is closed, with a
// log line); a kept-alive connection goes back to waiting between requests and pipelined requests
// are all answered.
#include <gtest/gtest.h>

#include <dirent.h>

#include <chrono>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <httplib.h>

#include "http_test_connection.hpp"
#include "metrics_test_snapshot.hpp"
#include "monitor/http_server.hpp"

namespace gpuvet::monitor {
namespace {

using namespace std::chrono_literals;
using testing::eventually;
using testing::RawConnection;

std::size_t open_descriptors() {
  std::size_t count = 0;
  if (DIR* dir = ::opendir("/proc/self/fd")) {
    while (::readdir(dir) != nullptr) ++count;
    ::closedir(dir);
  }
  return count;
}

class HttpIdleTest : public ::testing::Test {
 protected:
  void start(HttpOptions options) {
    options.log_warning = [this](std::string_view line) {
      std::lock_guard lock(log_mutex_);
      log_.emplace_back(line);
    };
    server_ = std::make_unique<MonitorHttpServer>(ListenAddress{"127.0.0.1", 0}, board_, std::move(options));
    auto port = server_->start();
    ASSERT_TRUE(port.ok()) << port.error().message;
    port_ = *port;
  }
  std::vector<std::unique_ptr<RawConnection>> open_idle(int count) const {
    std::vector<std::unique_ptr<RawConnection>> idle;
    for (int i = 0; i < count; ++i) {
      idle.push_back(std::make_unique<RawConnection>(port_));
      EXPECT_TRUE(idle.back()->connected());
    }
    return idle;
  }
  // A scrape that gives up after 3 s: before idle connections were polled, each of them held a
  // worker for the 5 s request limit, and such a scrape failed.
  bool scrape_answered() const {
    httplib::Client c("127.0.0.1", port_);
    c.set_connection_timeout(3, 0);
    c.set_read_timeout(3, 0);
    auto r = c.Get("/metrics");
    return r && r->status == 200 && r->body.find("gpuvet_monitor_healthy") != std::string::npos;
  }
  std::vector<std::string> log() {
    std::lock_guard lock(log_mutex_);
    return log_;
  }

  SnapshotBoard board_;
  std::unique_ptr<MonitorHttpServer> server_;
  int port_ = 0;
  std::mutex log_mutex_;
  std::vector<std::string> log_;
};

TEST_F(HttpIdleTest, SixtyFourIdleConnectionsDoNotHoldUpMetrics) {
  board_.publish(testing::full_snapshot());
  HttpOptions options;  // the daemon's: 4 workers, 5 s request limit, 128 connections
  // Opening 64 connections can take seconds on busy CI cores (a SYN dropped from a full listen
  // queue is resent after 1 s): the idle limit must not close them meanwhile.
  options.idle_timeout = 60s;
  start(options);
  const auto idle = open_idle(64);
  ASSERT_TRUE(eventually([&] { return server_->open_connections() >= 64; })) << server_->open_connections();
  for (int i = 0; i < 10; ++i) EXPECT_TRUE(scrape_answered()) << "scrape " << i;
  EXPECT_GE(server_->open_connections(), 64u);  // the idle ones are still open: nothing was closed to make room
  EXPECT_TRUE(log().empty());
}

TEST_F(HttpIdleTest, IdleConnectionsAreClosedAfterTheIdleTimeout) {
  board_.publish(testing::full_snapshot());
  HttpOptions options;
  options.idle_timeout = 300ms;
  start(options);
  const auto idle = open_idle(8);
  for (auto& connection : idle) EXPECT_TRUE(connection->closed_by_server_within(5s));
  EXPECT_TRUE(eventually([&] { return server_->open_connections() == 0; }));
}

TEST_F(HttpIdleTest, KeptAliveConnectionIsClosedWhenIdleAfterItsAnswer) {
  board_.publish(testing::full_snapshot());
  HttpOptions options;
  options.idle_timeout = 300ms;
  start(options);
  RawConnection raw(port_);
  ASSERT_TRUE(raw.send_all("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"));
  EXPECT_TRUE(raw.closed_by_server_within(5s));  // answered, then nothing more: closed
}

TEST_F(HttpIdleTest, PipelinedRequestsAreAllAnswered) {
  board_.publish(testing::full_snapshot());
  HttpOptions options;
  start(options);
  RawConnection raw(port_);
  const std::string one = "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n";
  ASSERT_TRUE(raw.send_all(one + one + "GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"));
  const std::string answers = raw.receive_all();
  std::size_t count = 0;
  for (auto at = answers.find("HTTP/1.1 200"); at != std::string::npos; at = answers.find("HTTP/1.1 200", at + 1)) ++count;
  EXPECT_EQ(count, 3u) << answers.substr(0, 400);
}

TEST_F(HttpIdleTest, ConnectionLimitBoundsDescriptorsAndClosesTheOldestIdle) {
  board_.publish(testing::full_snapshot());
  HttpOptions options;
  options.max_connections = 16;
  start(options);
  const std::size_t before = open_descriptors();
  auto first = std::make_unique<RawConnection>(port_);
  ASSERT_TRUE(eventually([&] { return server_->open_connections() == 1; }));
  const auto idle = open_idle(63);
  EXPECT_TRUE(first->closed_by_server_within(5s));  // idle the longest: closed first
  ASSERT_TRUE(eventually([&] { return log().size() == 1; }));  // one line a minute at most
  EXPECT_LE(server_->open_connections(), 16u);
  // Ours: 64 client ends; the server's: at most 16 (and the ones it is closing).
  EXPECT_LE(open_descriptors(), before + 64 + 16 + 4);
  EXPECT_TRUE(scrape_answered());                   // a new connection still gets through
  const auto line = log().front();
  EXPECT_NE(line.find("16 connections open"), std::string::npos) << line;
  EXPECT_NE(line.find("closed the one idle the longest"), std::string::npos) << line;
}

TEST_F(HttpIdleTest, StopClosesIdleConnectionsAtOnce) {
  board_.publish(testing::full_snapshot());
  HttpOptions options;  // idle limit 5 s
  start(options);
  const auto idle = open_idle(8);
  ASSERT_TRUE(eventually([&] { return server_->open_connections() == 8; }));
  const auto begin = std::chrono::steady_clock::now();
  server_->stop();
  EXPECT_LT(std::chrono::steady_clock::now() - begin, 4s);  // not waiting out the 5 s idle limit
  for (auto& connection : idle) EXPECT_TRUE(connection->closed_by_server_within(1s));
}

}  // namespace
}  // namespace gpuvet::monitor
