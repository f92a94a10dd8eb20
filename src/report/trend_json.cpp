// The trend report as one JSON object, schema gpuvet.trend/1 (docs/json.md): unknown values are
// null, never 0; times are Unix milliseconds and UTC text.
#include <nlohmann/json.hpp>

#include "report/finding_json.hpp"
#include "report/trend_report.hpp"

namespace gpuvet::report {

namespace {

using nlohmann::ordered_json;

template <class T>
ordered_json opt(const std::optional<T>& v) {
  return v ? ordered_json(*v) : ordered_json(nullptr);
}

ordered_json point_json(const core::TrendPoint& p) {
  return {{"start_unix_ms", p.start_unix_ms}, {"samples", p.samples},      {"power_w", opt(p.power_w)},
          {"temp_c", opt(p.temp_c)},          {"max_temp_c", opt(p.max_temp_c)}, {"sm_clock_mhz", opt(p.sm_clock_mhz)},
          {"util_pct", opt(p.util_pct)},      {"loaded_samples", p.loaded}, {"nvlink_errors", opt(p.nvlink_errors)},
          {"ecc_corrected", opt(p.ecc_corrected)}, {"ecc_uncorrected", opt(p.ecc_uncorrected)},
          {"from_rollups", p.from_rollups}};
}

ordered_json gpu_json(const TrendReport& r, const core::GpuTrend& g) {
  ordered_json j = {{"gpu", g.gpu},
                    {"name", g.name.empty() ? ordered_json(nullptr) : ordered_json(g.name)},
                    {"uuid", g.uuid.empty() ? ordered_json(nullptr) : ordered_json(g.uuid)}};
  for (const auto& s : r.assessment.gpus) {
    if (s.gpu != g.gpu) continue;
    j["comparable_s"] = s.comparable_s;
    j["temp_above_peers_c"] = opt(s.temp_above_peers_c);
    j["clock_below_peers_share"] = opt(s.clock_below_peers_share);
    j["busy_s"] = s.busy_s;
    j["busy_temp_c"] = opt(s.busy_temp_c);
    j["busy_sm_clock_mhz"] = opt(s.busy_sm_clock_mhz);
    j["baseline"] = s.baseline ? ordered_json{{"temp_c", opt(s.baseline->temp_c)},
                                              {"sm_clock_mhz", opt(s.baseline->sm_clock_mhz)},
                                              {"power_w", opt(s.baseline->power_w)}}
                               : ordered_json(nullptr);
  }
  j["nvlink_errors"] = opt(period_total(g, &core::TrendPoint::nvlink_errors));
  j["ecc_corrected"] = opt(period_total(g, &core::TrendPoint::ecc_corrected));
  j["ecc_uncorrected"] = opt(period_total(g, &core::TrendPoint::ecc_uncorrected));
  ordered_json points = ordered_json::array();
  for (const auto& p : g.points) points.push_back(point_json(p));
  j["points"] = std::move(points);
  return j;
}

}  // namespace

std::string render_trend_json(const TrendReport& r) {
  const auto& h = r.history;
  ordered_json j;
  j["schema"] = kTrendReportSchema;
  j["database"] = r.database;
  j["host"] = r.run.hostname.empty() ? ordered_json(nullptr) : ordered_json(r.run.hostname);
  j["source"] = r.run.source;
  j["simulated"] = r.run.simulated;
  j["period"] = {{"since", r.since},
                 {"from_unix_ms", h.from_unix_ms},
                 {"to_unix_ms", h.to_unix_ms},
                 {"from_utc", trend_utc(h.from_unix_ms)},
                 {"to_utc", trend_utc(h.to_unix_ms)},
                 {"bucket_s", h.bucket_s},
                 {"interval_s", h.interval_s}};
  const auto span = [](const std::optional<std::pair<std::int64_t, std::int64_t>>& s) {
    return s ? ordered_json{{"from_unix_ms", s->first}, {"to_unix_ms", s->second}, {"from_utc", trend_utc(s->first)},
                            {"to_utc", trend_utc(s->second)}}
             : ordered_json(nullptr);
  };
  j["judged"] = {{"raw_samples", span(r.raw_span)}, {"hourly_rollups", span(r.rollup_span)}};
  j["verdict"] = core::to_string(r.verdict);
  ordered_json findings = ordered_json::array();
  for (const auto& f : r.assessment.findings) findings.push_back(finding_json(f));
  j["findings"] = std::move(findings);
  ordered_json alerts = ordered_json::array();
  for (const auto& f : r.health) alerts.push_back(finding_json(f));
  j["alerts"] = std::move(alerts);
  j["unverified"] = r.assessment.unverified;
  j["notes"] = r.notes;
  j["baseline"] = r.baseline ? ordered_json{{"bundle", r.baseline->label},
                                            {"finished_utc", r.baseline->finished_utc},
                                            {"host", r.baseline->hostname}}
                             : ordered_json(nullptr);
  ordered_json gpus = ordered_json::array();
  for (const auto& g : h.gpus) gpus.push_back(gpu_json(r, g));
  j["gpus"] = std::move(gpus);
  ordered_json events = ordered_json::array();
  for (const auto& e : h.events) {
    events.push_back({{"unix_ms", e.unix_ms}, {"utc", trend_utc(e.unix_ms)}, {"gpu", e.event.gpu},
                      {"kind", core::to_string(e.event.kind)}, {"code", e.event.code}, {"message", e.event.message}});
  }
  j["events"] = std::move(events);
  return j.dump(2) + "\n";
}

}  // namespace gpuvet::report
