// The monitor endpoint's answers, built from one snapshot (see http_responses.hpp).
#include "monitor/http_responses.hpp"

#include <chrono>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace gpuvet::monitor {
namespace {

constexpr std::string_view kText = "text/plain; charset=utf-8";
constexpr std::string_view kJson = "application/json";

HttpAnswer no_snapshot_yet() {
  return {503, std::string(kText), "no sample yet: the monitor has not finished its first tick\n"};
}

}  // namespace

std::string rfc3339_utc(std::int64_t unix_ms) {
  using namespace std::chrono;
  const sys_time<milliseconds> t{milliseconds{unix_ms}};
  const auto day = floor<days>(t);
  const year_month_day ymd{day};
  const hh_mm_ss<milliseconds> time{t - day};
  return fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}Z", static_cast<int>(ymd.year()),
                     static_cast<unsigned>(ymd.month()), static_cast<unsigned>(ymd.day()), time.hours().count(),
                     time.minutes().count(), time.seconds().count(), time.subseconds().count());
}

HttpAnswer metrics_answer(const std::shared_ptr<const MonitorSnapshot>& snapshot, const MetricsOptions& options) {
  if (!snapshot) return no_snapshot_yet();
  return {200, std::string(kPrometheusContentType), render_metrics(*snapshot, options)};
}

HttpAnswer alerts_answer(const std::shared_ptr<const MonitorSnapshot>& snapshot) {
  if (!snapshot) return no_snapshot_yet();
  nlohmann::json alerts = nlohmann::json::array();
  for (const auto& a : snapshot->alerts) {
    nlohmann::json evidence = nlohmann::json::object();
    for (const auto& [key, value] : a.evidence) evidence[key] = value;
    alerts.push_back({{"code", a.code},
                      {"severity", std::string(core::to_string(a.severity))},
                      {"gpus", a.gpus},
                      {"since", rfc3339_utc(a.since_unix_ms)},
                      {"message", a.message},
                      {"next_step", a.next_step},
                      {"evidence", std::move(evidence)}});
  }
  nlohmann::json body = {{"alerts", std::move(alerts)},
                         {"hostname", snapshot->hostname},
                         {"taken", rfc3339_utc(snapshot->taken_unix_ms)},
                         {"simulated", snapshot->simulated},
                         {"healthy", snapshot->healthy}};
  // Replacement, not an exception, for invalid UTF-8 in a message from a driver string.
  return {200, std::string(kJson), body.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n"};
}

HttpAnswer healthz_answer(const std::shared_ptr<const MonitorSnapshot>& snapshot) {
  if (!snapshot) return no_snapshot_yet();
  if (snapshot->healthy) return {200, std::string(kText), "ok\n"};
  const std::string reason = snapshot->health_reason.empty() ? "unhealthy (no reason given)" : snapshot->health_reason;
  return {503, std::string(kText), reason + "\n"};
}

HttpAnswer not_found_answer(std::string_view path) {
  return {404, std::string(kText),
          fmt::format("not found: {} (gpuvet monitor serves /metrics, /alerts and /healthz)\n", path)};
}

HttpAnswer method_not_allowed_answer(std::string_view method) {
  return {405, std::string(kText), fmt::format("method {} not allowed: gpuvet monitor is read-only, use GET\n", method)};
}

}  // namespace gpuvet::monitor
