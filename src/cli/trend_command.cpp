// gpuvet trend --db FILE [--since 7d] [--baseline BUNDLE_DIR [--key PUB]] [--html OUT | --markdown | --json]:
// the weekly trend report over a history database (the monitor daemon's or a burn-in's): per-GPU
// trend lines, the cards that stand out from their peers and from the acceptance bundle, the
// period's alerts and events, and what to do. Exit 0 pass, 1 when a card stands out at fail
// severity or an alert of the period fails, 3 when a comparison could not be made, 2 bad input.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <ostream>

#include <fmt/format.h>

#include "analysis/burnin_judge.hpp"
#include "analysis/trend_history.hpp"
#include "analysis/trend_judge.hpp"
#include "analysis/trend_rollup_gap.hpp"
#include "analysis/trend_rollup_health.hpp"
#include "cli/commands.hpp"
#include "cli/option_checks.hpp"
#include "cli/trend_baseline.hpp"
#include "cli/trend_rollups.hpp"
#include "core/duration.hpp"
#include "report/trend_report.hpp"
#include "telemetry/history_reader.hpp"

namespace gpuvet::cli {

namespace {

// The longest period a report covers: the monitor keeps hourly rollups about a year.
constexpr double kMaxTrendPeriodS = 400.0 * 24 * 3600;

struct TrendOptions {
  std::string db;
  std::string since = "7d";
  std::string baseline;
  std::string key;  // --key PUBKEY: the baseline bundle's MANIFEST must be signed by its private key
  std::string html;
  bool markdown = false;
  bool json = false;
};

// What one pass over the database gives.
struct TrendRead {
  core::BurninRecord record;
  core::TrendHistory history;
  std::vector<core::Finding> health;
  std::vector<std::string> notes;
  // What the health alerts were judged from: raw samples, hourly rollups (start, end).
  std::optional<std::pair<std::int64_t, std::int64_t>> raw_span, rollup_span;
};

// "6.0 h", "7.0 d".
std::string span_text(double seconds) {
  return seconds < 48 * 3600 ? fmt::format("{:.1f} h", seconds / 3600) : fmt::format("{:.1f} d", seconds / 86400);
}

core::Result<TrendRead> read_trend(const std::string& db, double period_s) {
  std::optional<telemetry::HistorySpan> span;
  std::int64_t from = 0;
  std::int64_t to = 0;
  std::unique_ptr<analysis::TrendAccumulator> trend;
  std::unique_ptr<analysis::BurninJudge> judge;
  TrendRead out;
  telemetry::HistorySinks sinks;
  sinks.on_span = [&](const telemetry::HistorySpan& s) {
    span = s;
    if (!s.last_unix_ms) return;
    to = *s.last_unix_ms;
    from = std::max(*s.first_unix_ms, to - static_cast<std::int64_t>(period_s * 1000));
  };
  double interval_s = 1;
  sinks.on_header = [&](const core::BurninRecord& header) {
    interval_s = header.run.interval_s;
    const double bucket = analysis::trend_bucket_s(static_cast<double>(to - from) / 1000);
    trend = std::make_unique<analysis::TrendAccumulator>(from, to, bucket, header.run.interval_s, header.gpus);
    judge = std::make_unique<analysis::BurninJudge>(header.run, header.gpus);
    judge->use_wall_clock();  // a history's moments are dates, not offsets into a run
    for (const auto& e : header.events) {
      const auto unix_ms = header.run.started_unix_ms + static_cast<std::int64_t>(e.t_s * 1000);
      if (unix_ms < from || unix_ms > to) continue;
      trend->add_event(unix_ms, e);
      judge->on_event(e);
    }
  };
  analysis::RawHourTally raw_hours;  // to recover the part of an hour rollup no raw sample covers
  std::optional<std::int64_t> raw_from;
  sinks.on_sample = [&](const core::TelemetrySample& s) {
    raw_hours.add(s);
    if (s.unix_ms < from) return;
    raw_from = std::min(raw_from.value_or(s.unix_ms), s.unix_ms);
    trend->add_sample(s);
    judge->on_sample(s);
  };
  double rollup_gpu_s = 0;
  std::optional<analysis::RollupHealth> rollup_health;
  sinks.on_hour_rollup = [&](const telemetry::HourRollup& r, std::int64_t hour_unix_ms) {
    if (!rollup_health) rollup_health.emplace(interval_s);
    if (hour_unix_ms + 3600000 <= from) {
      // The hour just before the period: what an episode's tail in its first hour is measured against.
      if (hour_unix_ms + 3600000 > from - 3600000) rollup_health->add_before(rollup_input(r, hour_unix_ms));
      return;
    }
    const analysis::RollupInput in = rollup_input(r, hour_unix_ms);
    // Only what no raw sample holds: the whole hour, or its part before the first raw sample.
    const auto part = raw_hours.remainder(in, r.hour);
    if (!part || part->samples == 0) return;
    trend->add_rollup(*part);
    rollup_health->add(*part);
    rollup_gpu_s += static_cast<double>(part->samples) * interval_s;
  };
  auto record = telemetry::read_history(db, sinks);
  if (!record) return record.error();
  if (!span || !span->last_unix_ms) {
    return core::input_error(fmt::format("{}: holds no samples and no rollups yet: nothing to report on", db));
  }
  out.record = std::move(record).value();
  out.history = trend->finish();
  out.health = analysis::period_health_findings(judge->finish(out.record.run.status));
  if (rollup_health) {
    out.health = analysis::merge_period_findings(std::move(out.health), rollup_health->findings());
    out.rollup_span = rollup_health->span();
  }
  if (raw_from) out.raw_span = std::make_pair(*raw_from, to);
  const double covered_s = static_cast<double>(to - from) / 1000;
  if (covered_s + 60 < period_s) {
    out.notes.push_back(fmt::format("The history covers {} of the {} asked (from its first record).", span_text(covered_s), span_text(period_s)));
  }
  if (rollup_gpu_s > 0) {
    out.notes.push_back(fmt::format("{:.0f} GPU-hours come from the hourly rollups (raw samples pruned by the retention): means per "
                                    "hour (an hour the raw samples cover in part: the rollup less those samples), error counters "
                                    "as their growth in the hour; Xid and other events are kept as long.",
                                    rollup_gpu_s / 3600));
  }
  return out;
}

// Writes `text` to `path` through a temporary file renamed over it, so a reader (a web server
// publishing the weekly report) never sees half a page.
std::optional<core::Error> write_output(const std::string& path, const std::string& text) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::is_directory(path, ec)) return core::usage_error(fmt::format("--html {}: is a directory; expected a file name", path));
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << text;
    out.flush();
    if (!out) return core::environment_error(fmt::format("--html {}: cannot write {}", path, tmp));
  }
  fs::rename(tmp, path, ec);
  if (ec) return core::environment_error(fmt::format("--html {}: cannot rename {} over it: {}", path, tmp, ec.message()));
  return std::nullopt;
}

core::Result<core::ExitCode> run_trend(const TrendOptions& o, Streams& streams) {
  if (static_cast<int>(!o.html.empty()) + static_cast<int>(o.markdown) + static_cast<int>(o.json) > 1) {
    return core::usage_error("--html, --markdown and --json: choose one");
  }
  if (!o.key.empty() && o.baseline.empty()) return core::usage_error("--key checks the --baseline bundle's signature: give --baseline");
  const auto period_s = core::parse_duration(o.since);
  if (!period_s || !(*period_s >= 60) || *period_s > kMaxTrendPeriodS) {
    return core::usage_error(fmt::format("--since '{}': expected a duration from 1m to 400d such as 7d, 24h or 30d", o.since));
  }
  auto read_result = read_trend(o.db, *period_s);
  if (!read_result) return read_result.error();
  TrendRead* read = &read_result.value();
  std::optional<core::TrendBaseline> baseline;
  if (!o.baseline.empty()) {
    std::string unchecked;
    auto loaded = load_trend_baseline(o.baseline, read->history.gpus, o.key, &unchecked);
    if (!loaded) return loaded.error();
    if (!unchecked.empty()) read->notes.push_back(fmt::format("The baseline {} {}.", o.baseline, unchecked));
    baseline = std::move(loaded).value();
  }
  const auto assessment = analysis::judge_trend(read->history, baseline);
  if (baseline && !read->record.run.simulated && !baseline->hostname.empty() && baseline->hostname != "n/a" && !read->record.run.hostname.empty() &&
      baseline->hostname != read->record.run.hostname) {
    read->notes.push_back(fmt::format("The baseline was accepted on host {}, the history is from host {}: check that it is the same machine.",
                                      baseline->hostname, read->record.run.hostname));
  }
  std::vector<core::Finding> all = assessment.findings;
  all.insert(all.end(), read->health.begin(), read->health.end());
  report::TrendReport report{o.db,           o.since, read->record.run, read->history, assessment, read->health, baseline,
                             core::verdict_of(all, assessment.unverified), read->notes, read->raw_span, read->rollup_span};
  if (o.json) {
    streams.out << report::render_trend_json(report);
  } else if (o.markdown) {
    streams.out << report::render_trend_markdown(report);
  } else if (o.html == "-") {
    streams.out << report::render_trend_html(report);
  } else {
    if (!o.html.empty()) {
      if (auto e = write_output(o.html, report::render_trend_html(report))) return *e;
    }
    streams.out << report::render_trend_text(report);
    if (!o.html.empty()) streams.out << fmt::format("HTML report: {}\n", o.html);
  }
  return core::exit_code_for(report.verdict);
}

}  // namespace

void add_trend_command(CLI::App& app, Action& action) {
  auto o = std::make_shared<TrendOptions>();
  auto* cmd = app.add_subcommand(
      "trend", "Trend report over a history database (gpuvet monitor's or a burn-in's): per-GPU trend lines, the cards that run "
               "hotter or slower than their peers or than at acceptance, the period's alerts, and what to do");
  cmd->add_option("--db", o->db, "History database written by gpuvet monitor or gpuvet burnin")->required();
  cmd->add_option("--since", o->since, "The period: the last D of the history, up to its newest record (default 7d)");
  cmd->add_option("--baseline", o->baseline, "Acceptance evidence bundle (gpuvet accept --out) to compare each GPU with");
  cmd->add_option("--key", o->key,
                  "Public key (KEY.pub from `gpuvet keygen`): read --baseline only when its MANIFEST is signed by its private key")
      ->check(non_empty_path());
  cmd->add_option("--html", o->html, "Write a self-contained HTML page with the trend lines to FILE ('-': standard output)")
      ->check(non_empty_path());
  cmd->add_flag("--markdown", o->markdown, "Print Markdown instead of text");
  cmd->add_flag("--json", o->json, "Print one JSON object (schema gpuvet.trend/1)");
  cmd->callback([o, &action] { action = [o](Streams& s) { return run_trend(*o, s); }; });
}

}  // namespace gpuvet::cli
