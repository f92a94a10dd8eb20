// The endpoint's answers without a socket: /alerts JSON, /healthz, before the first snapshot,
// unknown paths and methods.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "metrics_test_snapshot.hpp"
#include "monitor/http_responses.hpp"

namespace gpuvet::monitor {
namespace {

std::shared_ptr<const MonitorSnapshot> shared(MonitorSnapshot s) {
  return std::make_shared<const MonitorSnapshot>(std::move(s));
}

TEST(HttpResponses, Rfc3339Utc) {
  EXPECT_EQ(rfc3339_utc(0), "1970-01-01T00:00:00.000Z");
  EXPECT_EQ(rfc3339_utc(1'764'606'780'250), "2025-12-01T16:33:00.250Z");
  EXPECT_EQ(rfc3339_utc(951'782'400'999), "2000-02-29T00:00:00.999Z");
}

TEST(HttpResponses, MetricsWithPrometheusContentType) {
  const HttpAnswer answer = metrics_answer(shared(testing::full_snapshot()), {});
  EXPECT_EQ(answer.status, 200);
  EXPECT_EQ(answer.content_type, "text/plain; version=0.0.4; charset=utf-8");
  EXPECT_NE(answer.body.find("gpuvet_gpu_temperature_celsius"), std::string::npos);
}

TEST(HttpResponses, AlertsJsonListsWhatFiresNow) {
  const HttpAnswer answer = alerts_answer(shared(testing::full_snapshot()));
  EXPECT_EQ(answer.status, 200);
  EXPECT_EQ(answer.content_type, "application/json");
  const auto json = nlohmann::json::parse(answer.body);
  ASSERT_EQ(json.at("alerts").size(), 2u);
  const auto& lag = json["alerts"][0];
  EXPECT_EQ(lag.at("code"), "utilization_below_peers");
  EXPECT_EQ(lag.at("severity"), "warn");
  EXPECT_EQ(lag.at("gpus"), nlohmann::json::array({3}));
  EXPECT_EQ(lag.at("since"), "2025-12-01T16:33:00.250Z");
  EXPECT_EQ(lag.at("message"), "GPU 3 busy 35 % vs the group's 89 %");
  EXPECT_EQ(lag.at("next_step"), "Check its links");
  EXPECT_EQ(lag.at("evidence").at("window"), "30m");
  EXPECT_EQ(json["alerts"][1].at("gpus"), nlohmann::json::array({1, 2}));
  EXPECT_EQ(json["alerts"][1].at("message"), "NVLink \"CRC\" errors growing");
  EXPECT_EQ(json.at("hostname"), "node-a");
  EXPECT_EQ(json.at("taken"), "2025-12-01T17:33:00.000Z");

  MonitorSnapshot quiet = testing::full_snapshot();
  quiet.alerts.clear();
  EXPECT_EQ(nlohmann::json::parse(alerts_answer(shared(quiet)).body).at("alerts"), nlohmann::json::array());
}

TEST(HttpResponses, HealthzOkOr503WithTheReason) {
  MonitorSnapshot s = testing::full_snapshot();
  HttpAnswer ok = healthz_answer(shared(s));
  EXPECT_EQ(ok.status, 200);
  EXPECT_EQ(ok.body, "ok\n");
  s.healthy = false;
  s.health_reason = "last tick 12 s late: NVML call on GPU 3 timed out";
  HttpAnswer bad = healthz_answer(shared(s));
  EXPECT_EQ(bad.status, 503);
  EXPECT_EQ(bad.body, "last tick 12 s late: NVML call on GPU 3 timed out\n");
}

TEST(HttpResponses, BeforeTheFirstSnapshotEveryEndpointSays503) {
  const std::shared_ptr<const MonitorSnapshot> none;
  EXPECT_EQ(metrics_answer(none, {}).status, 503);
  EXPECT_EQ(alerts_answer(none).status, 503);
  EXPECT_EQ(healthz_answer(none).status, 503);
  EXPECT_NE(healthz_answer(none).body.find("no sample yet"), std::string::npos);
}

TEST(HttpResponses, UnknownPathAndMethod) {
  EXPECT_EQ(not_found_answer("/metric").status, 404);
  EXPECT_NE(not_found_answer("/metric").body.find("/metrics, /alerts and /healthz"), std::string::npos);
  EXPECT_EQ(method_not_allowed_answer("POST").status, 405);
  EXPECT_NE(method_not_allowed_answer("POST").body.find("POST"), std::string::npos);
}

}  // namespace
}  // namespace gpuvet::monitor
