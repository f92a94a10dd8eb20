// The monitor's HTTP server on an ephemeral loopback port: content types, 404/405/413/414,
// nothing served before the first snapshot, a taken port named in the error, many concurrent
// connections answered, a slow or endless client does not block others.
#include <gtest/gtest.h>


#include <atomic>
#include <chrono>
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
using testing::RawConnection;

class HttpServerTest : public ::testing::Test {
 protected:
  void start(HttpOptions options = {}) {
    server_ = std::make_unique<MonitorHttpServer>(ListenAddress{"127.0.0.1", 0}, board_, std::move(options));
    auto port = server_->start();
    ASSERT_TRUE(port.ok()) << port.error().message;
    port_ = *port;
  }
  httplib::Client client() const {
    httplib::Client c("127.0.0.1", port_);
    c.set_read_timeout(10, 0);
    return c;
  }

  SnapshotBoard board_;
  std::unique_ptr<MonitorHttpServer> server_;
  int port_ = 0;
};

TEST_F(HttpServerTest, ServesMetricsAlertsAndHealthz) {
  board_.publish(testing::full_snapshot());
  start();
  EXPECT_EQ(server_->describe(), "http://127.0.0.1:" + std::to_string(port_));
  auto c = client();
  auto metrics = c.Get("/metrics");
  ASSERT_TRUE(metrics);
  EXPECT_EQ(metrics->status, 200);
  EXPECT_EQ(metrics->get_header_value("Content-Type"), "text/plain; version=0.0.4; charset=utf-8");
  EXPECT_NE(metrics->body.find("gpuvet_gpu_temperature_celsius{gpu=\"0\""), std::string::npos);
  EXPECT_EQ(metrics->body.find("DCGM_FI_"), std::string::npos);
  auto alerts = c.Get("/alerts");
  ASSERT_TRUE(alerts);
  EXPECT_EQ(alerts->status, 200);
  EXPECT_EQ(alerts->get_header_value("Content-Type"), "application/json");
  EXPECT_NE(alerts->body.find("\"utilization_below_peers\""), std::string::npos);
  auto health = c.Get("/healthz");
  ASSERT_TRUE(health);
  EXPECT_EQ(health->status, 200);
  auto query = c.Get("/metrics?name[]=x");
  ASSERT_TRUE(query);
  EXPECT_EQ(query->status, 200);
}

TEST_F(HttpServerTest, DcgmNamesWhenAsked) {
  board_.publish(testing::full_snapshot());
  HttpOptions options;
  options.dcgm_names = true;
  start(options);
  auto metrics = client().Get("/metrics");
  ASSERT_TRUE(metrics);
  EXPECT_NE(metrics->body.find("DCGM_FI_DEV_GPU_TEMP{gpu=\"0\",UUID="), std::string::npos);
}

TEST_F(HttpServerTest, UnknownPathIs404OtherMethodsAre405) {
  board_.publish(testing::full_snapshot());
  start();
  auto c = client();
  auto missing = c.Get("/metricz");
  ASSERT_TRUE(missing);
  EXPECT_EQ(missing->status, 404);
  auto post = c.Post("/metrics", "x=1", "application/x-www-form-urlencoded");
  ASSERT_TRUE(post);
  EXPECT_EQ(post->status, 405);
  EXPECT_EQ(post->get_header_value("Allow"), "GET, HEAD");
  auto del = c.Delete("/alerts");
  ASSERT_TRUE(del);
  EXPECT_EQ(del->status, 405);
  auto head = c.Head("/metrics");
  ASSERT_TRUE(head);
  EXPECT_EQ(head->status, 200);
  EXPECT_TRUE(head->body.empty());
}

TEST_F(HttpServerTest, NothingToServeBeforeTheFirstSnapshot) {
  start();
  auto c = client();
  auto metrics = c.Get("/metrics");
  ASSERT_TRUE(metrics);
  EXPECT_EQ(metrics->status, 503);
  auto health = c.Get("/healthz");
  ASSERT_TRUE(health);
  EXPECT_EQ(health->status, 503);
  board_.publish(testing::full_snapshot());
  auto later = c.Get("/healthz");
  ASSERT_TRUE(later);
  EXPECT_EQ(later->status, 200);
}

TEST_F(HttpServerTest, OversizedRequestsAreRejected) {
  board_.publish(testing::full_snapshot());
  start();
  {  // a body announced larger than any GET needs: refused before it is read
    RawConnection raw(port_);
    ASSERT_TRUE(raw.connected());
    raw.send_all("GET /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: 104857600\r\n\r\n");
    EXPECT_EQ(raw.receive_all().rfind("HTTP/1.1 413", 0), 0u);
  }
  {  // a request line of 64 KiB
    RawConnection raw(port_);
    raw.send_all("GET /" + std::string(64 * 1024, 'a') + " HTTP/1.1\r\nHost: x\r\n\r\n");
    const std::string answer = raw.receive_all();
    EXPECT_TRUE(answer.rfind("HTTP/1.1 414", 0) == 0 || answer.rfind("HTTP/1.1 400", 0) == 0 || answer.empty())
        << answer.substr(0, 200);
  }
  {  // garbage instead of HTTP
    RawConnection raw(port_);
    raw.send_all(std::string("\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03\r\n\r\n", 15));
    const std::string answer = raw.receive_all();
    EXPECT_TRUE(answer.empty() || answer.rfind("HTTP/1.1 400", 0) == 0) << answer.substr(0, 200);
  }
  auto after = client().Get("/healthz");  // and the server still answers
  ASSERT_TRUE(after);
  EXPECT_EQ(after->status, 200);
}

TEST_F(HttpServerTest, EndlessHeadersAreCutOff) {
  board_.publish(testing::full_snapshot());
  start();
  RawConnection raw(port_);
  ASSERT_TRUE(raw.connected());
  raw.send_all("GET /metrics HTTP/1.1\r\nHost: x\r\n");
  // 64 MiB of headers at most: the server must stop reading (answer or close) long before.
  const std::string header = "X-Filler: " + std::string(1000, 'h') + "\r\n";
  std::size_t sent = 0;
  bool closed = false;
  while (sent < 64u * 1024 * 1024) {
    if (!raw.send_all(header)) {
      closed = true;
      break;
    }
    sent += header.size();
  }
  EXPECT_TRUE(closed) << "the server read " << sent << " bytes of headers without stopping";
}

TEST_F(HttpServerTest, RequestNeverFinishedIsDroppedAfterTheRequestTimeout) {
  board_.publish(testing::full_snapshot());
  HttpOptions options;
  options.read_timeout = 300ms;  // for the whole request, however slowly it trickles in
  start(options);
  RawConnection raw(port_);
  ASSERT_TRUE(raw.connected());
  raw.send_all("GET /metrics HTTP/1.1\r\nHost: x\r\n");  // the blank line never comes
  const auto begin = std::chrono::steady_clock::now();
  const std::string answer = raw.receive_all();  // returns when the server gives up
  EXPECT_LT(std::chrono::steady_clock::now() - begin, 5s);
  EXPECT_TRUE(answer.empty() || answer.rfind("HTTP/1.1 400", 0) == 0) << answer.substr(0, 200);
}

TEST_F(HttpServerTest, KeptAliveConnectionServesSeveralRequests) {
  board_.publish(testing::full_snapshot());
  start();
  auto c = client();
  c.set_keep_alive(true);
  for (int i = 0; i < 5; ++i) {
    auto r = c.Get("/healthz");
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 200);
  }
}

TEST_F(HttpServerTest, KeepAliveHeaderStatesTheServersOwnLimits) {
  board_.publish(testing::full_snapshot());
  HttpOptions options;
  options.keep_alive_max_requests = 7;
  options.idle_timeout = 3s;
  start(options);
  auto c = client();
  c.set_keep_alive(true);
  auto r = c.Get("/healthz");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->get_header_value("Keep-Alive"), "timeout=3, max=7");
}

TEST_F(HttpServerTest, ManyConcurrentConnectionsAreAllAnswered) {
  board_.publish(testing::full_snapshot());
  HttpOptions options;
  options.worker_threads = 4;
  options.max_connections = 64;
  start(options);
  std::atomic<int> ok{0};
  std::atomic<int> failed{0};
  std::vector<std::thread> clients;
  for (int t = 0; t < 32; ++t) {
    clients.emplace_back([&] {
      for (int i = 0; i < 10; ++i) {
        httplib::Client c("127.0.0.1", port_);
        c.set_read_timeout(20, 0);
        auto r = c.Get("/metrics");
        (r && r->status == 200 && r->body.find("gpuvet_monitor_healthy") != std::string::npos ? ok : failed)++;
      }
    });
  }
  // Meanwhile the sampler keeps publishing: it never waits on the HTTP side.
  for (int i = 0; i < 200; ++i) board_.publish(testing::full_snapshot());
  for (auto& c : clients) c.join();
  EXPECT_EQ(ok.load(), 320);
  EXPECT_EQ(failed.load(), 0);
}

TEST_F(HttpServerTest, SlowClientDoesNotBlockOthers) {
  board_.publish(testing::full_snapshot());
  HttpOptions options;
  options.worker_threads = 2;
  options.read_timeout = 10s;  // the slow client may hold its worker this long
  start(options);
  RawConnection slow(port_);
  ASSERT_TRUE(slow.connected());
  ASSERT_TRUE(slow.send_all("GET /metr"));  // and then nothing
  const auto begin = std::chrono::steady_clock::now();
  for (int i = 0; i < 20; ++i) {
    auto r = client().Get("/healthz");
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 200);
  }
  // Answered while the slow client still holds a worker (its read timeout is 10 s away).
  EXPECT_LT(std::chrono::steady_clock::now() - begin, 8s);
  server_->stop();  // stopping waits at most for the slow client's read timeout
  EXPECT_LT(std::chrono::steady_clock::now() - begin, 30s);
}

TEST(HttpServer, TakenPortIsAnEnvironmentErrorNamingTheAddress) {
  SnapshotBoard board;
  MonitorHttpServer first(ListenAddress{"127.0.0.1", 0}, board);
  auto port = first.start();
  ASSERT_TRUE(port.ok());
  MonitorHttpServer second(ListenAddress{"127.0.0.1", *port}, board);
  auto again = second.start();
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(again.error().kind, core::ErrorKind::environment);
  EXPECT_NE(again.error().message.find("127.0.0.1:" + std::to_string(*port)), std::string::npos);
  EXPECT_NE(again.error().message.find("already in use"), std::string::npos) << again.error().message;
}

TEST(HttpServer, AddressNotOnThisMachineIsAnEnvironmentError) {
  SnapshotBoard board;
  MonitorHttpServer server(ListenAddress{"192.0.2.1", 0}, board);  // TEST-NET-1, never local
  auto result = server.start();
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().kind, core::ErrorKind::environment);
  EXPECT_NE(result.error().message.find("192.0.2.1"), std::string::npos) << result.error().message;
}

TEST(ListenAddress, ParsesAndRefuses) {
  auto v4 = parse_listen_address("127.0.0.1:9835");
  ASSERT_TRUE(v4.ok());
  EXPECT_EQ(v4->host, "127.0.0.1");
  EXPECT_EQ(v4->port, 9835);
  EXPECT_TRUE(is_loopback(*v4));
  auto v6 = parse_listen_address("[::1]:9400");
  ASSERT_TRUE(v6.ok());
  EXPECT_EQ(v6->host, "::1");
  EXPECT_TRUE(is_loopback(*v6));
  auto local = parse_listen_address("localhost:1");
  ASSERT_TRUE(local.ok());
  EXPECT_EQ(local->host, "127.0.0.1");
  auto any = parse_listen_address("0.0.0.0:9835");
  ASSERT_TRUE(any.ok());
  EXPECT_FALSE(is_loopback(*any));
  for (const char* bad : {"9835", "127.0.0.1", "127.0.0.1:", "127.0.0.1:99999", "127.0.0.1:12x", "::1:9835",
                          "[::1]9835", "example.com:9835", ":9835", "300.1.1.1:80"}) {
    auto r = parse_listen_address(bad);
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_EQ(r.error().kind, core::ErrorKind::usage);
    EXPECT_NE(r.error().message.find(bad), std::string::npos) << r.error().message;
  }
}

}  // namespace
}  // namespace gpuvet::monitor
