// gpuvet report --db FILE: rebuilds a burn-in report from its database alone (a finished run, an
// interrupted one, or one killed mid-run), and the shared burn-in output tail.
#include <cmath>
#include <memory>
#include <ostream>

#include <fmt/format.h>

#include "accept/burnin_pipeline.hpp"
#include "cli/burnin_output.hpp"
#include "analysis/trend_judge.hpp"
#include "cli/commands.hpp"
#include "cli/history_judgement.hpp"
#include "core/duration.hpp"
#include "report/burnin_report.hpp"
#include "telemetry/telemetry_store.hpp"

namespace gpuvet::cli {

namespace {

// A monitor's history is judged as `gpuvet trend` judges it, over the whole history: the health
// judge over its raw samples and its rollup-only hours, and the trend judge's peer rules
// (hotter/slower_than_peers, utilization_below_peers) in place of the burn-in's load rules, so
// the daemon, `trend` and `report --db` name the same cards with the same codes.
core::Result<std::pair<core::BurninRecord, core::BurninAssessment>> judge_monitor_history(const std::string& database) {
  auto judged = judge_history(database, kMaxHistoryPeriodS);
  if (!judged) return judged.error();
  core::BurninAssessment assessment = std::move(judged->assessment);
  auto peers = analysis::judge_trend(judged->history, std::nullopt);
  for (auto& f : peers.findings) assessment.findings.push_back(std::move(f));
  // What the peer rules could not compare leaves the verdict incomplete here as in trend.
  for (auto& u : peers.unverified) assessment.unverified.push_back(std::move(u));
  return std::make_pair(std::move(judged->record), std::move(assessment));
}

}  // namespace

core::Result<core::ExitCode> render_burnin(const std::string& database, const std::string& command, const BurninRead& read,
                                           const analysis::BurninThresholds& thresholds, bool json, Streams& streams) {
  // The same streaming pass as accept's burn-in stage (accept/burnin_pipeline.hpp).
  auto judged = accept::judge_stored(read, thresholds);
  if (!judged) return judged.error();
  core::BurninRecord record = judged->record;
  core::BurninAssessment assessment = judged->assessment;
  if (analysis::is_monitor_history(record.run) && !database.empty() && database != ":memory:") {
    auto monitor = judge_monitor_history(database);
    if (!monitor) return monitor.error();
    assessment.findings = std::move(monitor->second.findings);
    assessment.unverified = std::move(monitor->second.unverified);
  }
  const auto verdict = core::verdict_of(assessment.findings, assessment.unverified);
  const report::BurninReport report{command, database, record, assessment, verdict};
  streams.out << (json ? report::render_burnin_json(report) : report::render_burnin_text(report, streams.color));
  return core::exit_code_for(verdict);
}

core::Result<double> parse_duration(const std::string& text, const std::string& option) {
  const auto seconds = core::parse_duration(text);
  if (!seconds || !(*seconds > 0) || *seconds > core::kMaxDurationS) {
    return core::usage_error(fmt::format("{} '{}': expected a duration such as 100ms, 90s, 15m, 4h or 1h30m (at most 30 days)",
                                         option, text));
  }
  return *seconds;
}

namespace {

struct ReportOptions {
  std::string db;
  bool json = false;
  double straggler_tolerance = 10;
};

core::Result<core::ExitCode> run_report(const ReportOptions& options, Streams& streams) {
  analysis::BurninThresholds thresholds;
  thresholds.straggler_tolerance = options.straggler_tolerance / 100.0;
  const auto read = [&](const telemetry::HeaderSink& on_header, const telemetry::SampleSink& on_sample) {
    return telemetry::read_burnin(options.db, on_header, on_sample);
  };
  return render_burnin(options.db, "report", read, thresholds, options.json, streams);
}

}  // namespace

void add_report_command(CLI::App& app, Action& action) {
  auto options = std::make_shared<ReportOptions>();
  auto* cmd = app.add_subcommand("report", "Rebuild a burn-in report from its database (also after a crash)");
  cmd->add_option("--db", options->db, "Burn-in database written by gpuvet burnin")->required();
  cmd->add_option("--straggler-tolerance", options->straggler_tolerance,
                  "Percent below the peers' median TFLOP/s that makes a straggler (default 10)");
  cmd->add_flag("--json", options->json, "Print one JSON object (schema gpuvet.burnin/1) instead of text");
  cmd->callback([options, &action] {
    action = [options](Streams& streams) { return run_report(*options, streams); };
  });
}

}  // namespace gpuvet::cli
