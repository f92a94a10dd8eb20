// The trend report's charts and the helpers every trend renderer shares.
#include <ctime>

#include <fmt/format.h>

#include "report/trend_report.hpp"

namespace gpuvet::report {

namespace {

struct Measure {
  const char* title;
  const char* unit;
  std::optional<double> core::TrendPoint::*real = nullptr;
  std::optional<std::uint64_t> core::TrendPoint::*count = nullptr;
  std::optional<std::uint64_t> core::TrendPoint::*count2 = nullptr;  // added to count when known
};

}  // namespace

std::vector<accept::SeriesData> trend_series(const TrendReport& r) {
  const Measure measures[] = {
      {"Board power", "W", &core::TrendPoint::power_w},
      {"GPU temperature", "°C", &core::TrendPoint::temp_c},
      {"SM clock", "MHz", &core::TrendPoint::sm_clock_mhz},
      {"GPU utilization", "%", &core::TrendPoint::util_pct},
      {"NVLink errors (CRC, replay, recovery)", "per bucket", nullptr, &core::TrendPoint::nvlink_errors},
      {"ECC errors (corrected + uncorrected)", "per bucket", nullptr, &core::TrendPoint::ecc_corrected,
       &core::TrendPoint::ecc_uncorrected},
  };
  const auto& h = r.history;
  std::vector<accept::SeriesData> out;
  for (const auto& m : measures) {
    accept::SeriesData s;
    s.title = m.title;
    s.unit = m.unit;
    for (const auto& g : h.gpus) {
      s.names.push_back(fmt::format("GPU {}", g.gpu));
      auto& line = s.points.emplace_back();
      for (const auto& p : g.points) {
        // At its bucket's start: a bucket's centre would put the period's last, partial bucket past
        // its end, and the time axis past the history (144 h for 120 h).
        const double t = static_cast<double>(p.start_unix_ms - h.from_unix_ms) / 1000;
        if (m.real != nullptr) {
          if (const auto& v = p.*(m.real)) line.emplace_back(t, *v);
          continue;
        }
        std::optional<std::uint64_t> v = p.*(m.count);
        if (m.count2 != nullptr && p.*(m.count2)) v = v.value_or(0) + *(p.*(m.count2));
        if (v) line.emplace_back(t, static_cast<double>(*v));
      }
    }
    for (const auto& e : h.events) {
      s.events.emplace_back(static_cast<double>(e.unix_ms - h.from_unix_ms) / 1000, trend_event_label(e));
    }
    out.push_back(std::move(s));
  }
  return out;
}

std::string trend_event_label(const core::TrendEvent& e) {
  if (e.event.kind == core::TelemetryEventKind::xid) return fmt::format("Xid {} GPU {}", e.event.code, e.event.gpu);
  return fmt::format("{} GPU {}", core::to_string(e.event.kind), e.event.gpu);
}

std::optional<std::uint64_t> period_total(const core::GpuTrend& gpu, std::optional<std::uint64_t> core::TrendPoint::*member) {
  std::optional<std::uint64_t> total;
  for (const auto& p : gpu.points) {
    if (const auto& v = p.*member) total = total.value_or(0) + *v;
  }
  return total;
}

std::string trend_utc(std::int64_t unix_ms) {
  const auto seconds = static_cast<std::time_t>(unix_ms / 1000);
  std::tm tm{};
  ::gmtime_r(&seconds, &tm);
  return fmt::format("{:04}-{:02}-{:02} {:02}:{:02} UTC", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min);
}

std::string_view trend_verdict_word(core::Verdict verdict) {
  return verdict == core::Verdict::pass ? "PASS" : verdict == core::Verdict::fail ? "FAIL" : "INCOMPLETE";
}

std::string_view trend_verdict_meaning(core::Verdict verdict) {
  switch (verdict) {
    case core::Verdict::pass: return "no card stands out at fail severity and no failing alert in the period";
    case core::Verdict::fail: return "a card stands out at fail severity, or an alert of the period fails the machine";
    case core::Verdict::incomplete: return "nothing failed, but some comparisons could not be made (see Not verified)";
  }
  return "";
}

std::string trend_judged_text(const TrendReport& r) {
  std::string out;
  if (r.rollup_span) {
    out = fmt::format("hourly rollups from {} to {} (counter growth and throttled time per hour)", trend_utc(r.rollup_span->first),
                      trend_utc(r.rollup_span->second));
  }
  if (r.raw_span) {
    out += fmt::format("{}raw samples from {} to {} (every sample)", out.empty() ? "" : " and ", trend_utc(r.raw_span->first),
                       trend_utc(r.raw_span->second));
  }
  return out.empty() ? "nothing: no sample or rollup in the period" : out;
}

std::string trend_no_alert_text(const TrendReport& r) {
  if (!r.raw_span && !r.rollup_span) return "No alert could be judged: no sample or rollup in the period.";
  return "No Xid, ECC, NVLink, PCIe, row-remap, retired-page, lost-GPU or throttling alert in what was judged: " + trend_judged_text(r) +
         ".";
}

std::vector<core::Finding> trend_findings(const TrendReport& r) {
  std::vector<core::Finding> out = r.assessment.findings;
  out.insert(out.end(), r.health.begin(), r.health.end());
  return out;
}

}  // namespace gpuvet::report
