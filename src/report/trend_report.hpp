// What `gpuvet trend` renders: a period of a history database per GPU (trend lines of power,
// temperature, SM clock, utilization, NVLink and ECC errors), the cards that stand out from their
// peers and from the acceptance baseline, the period's alerts and events, and what to do. As a
// self-contained HTML page (inline SVG, no script, no external resource), Markdown, JSON
// (schema gpuvet.trend/1, docs/json.md) or terminal text. Pure: report model -> bytes.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "accept/accept_model.hpp"
#include "core/telemetry.hpp"
#include "core/trend.hpp"
#include "core/verdict.hpp"

namespace gpuvet::report {

inline constexpr std::string_view kTrendReportSchema = "gpuvet.trend/1";

struct TrendReport {
  std::string database;                    // the path as given
  std::string since;                       // the period as asked ("7d")
  core::BurninRunInfo run;                 // host, source, simulated, interval
  const core::TrendHistory& history;
  const core::TrendAssessment& assessment; // peer and baseline findings, unverified lines, standings
  std::vector<core::Finding> health;       // the period's alerts from the burn-in judge's health rules
  std::optional<core::TrendBaseline> baseline;
  core::Verdict verdict = core::Verdict::pass;
  std::vector<std::string> notes;          // about the input (period shorter than asked, rollups only, ...)
  // What the period's alerts were judged from (start, end): raw samples (every rule of the burn-in
  // judge's health list), hourly rollups (counter growth and throttled time per hour); absent: none.
  std::optional<std::pair<std::int64_t, std::int64_t>> raw_span, rollup_span;
};

std::string render_trend_html(const TrendReport& report);
std::string render_trend_markdown(const TrendReport& report);
std::string render_trend_json(const TrendReport& report);
std::string render_trend_text(const TrendReport& report);

// The charts of the report, one per measure, x in seconds since the period's start to each
// bucket's start (shared by
// the HTML and tests): power, temperature, SM clock, utilization, NVLink errors, ECC errors.
std::vector<accept::SeriesData> trend_series(const TrendReport& report);

// Per GPU: the sum over the period of a counter's growth; absent when never known.
std::optional<std::uint64_t> period_total(const core::GpuTrend& gpu, std::optional<std::uint64_t> core::TrendPoint::*member);

// "Xid 79 GPU 3", "gpu_lost GPU 2".
std::string trend_event_label(const core::TrendEvent& event);

// "2026-12-01 17:05 UTC".
std::string trend_utc(std::int64_t unix_ms);

// "PASS", "FAIL", "INCOMPLETE" and what it means for a trend report.
std::string_view trend_verdict_word(core::Verdict verdict);
std::string_view trend_verdict_meaning(core::Verdict verdict);
// What the period's alerts were judged from: "hourly rollups from A to B (...) and raw samples
// from C to D (every sample)".
std::string trend_judged_text(const TrendReport& report);
// When the period has no alert: the sentence, limited to what was judged.
std::string trend_no_alert_text(const TrendReport& report);

// The peer and baseline findings first, then the period's alerts (health), each once.
std::vector<core::Finding> trend_findings(const TrendReport& report);

}  // namespace gpuvet::report
