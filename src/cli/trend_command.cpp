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

#include "analysis/trend_judge.hpp"
#include "cli/commands.hpp"
#include "cli/history_judgement.hpp"
#include "cli/option_checks.hpp"
#include "cli/trend_baseline.hpp"
#include "core/duration.hpp"
#include "report/trend_report.hpp"

namespace gpuvet::cli {

namespace {

struct TrendOptions {
  std::string db;
  std::string since = "7d";
  std::string baseline;
  std::string key;  // --key PUBKEY: the baseline bundle's MANIFEST must be signed by its private key
  std::string html;
  bool markdown = false;
  bool json = false;
};

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
  if (!period_s || !(*period_s >= 60) || *period_s > kMaxHistoryPeriodS) {
    return core::usage_error(fmt::format("--since '{}': expected a duration from 1m to 400d such as 7d, 24h or 30d", o.since));
  }
  auto read_result = judge_history(o.db, *period_s);
  if (!read_result) return read_result.error();
  HistoryJudgement* read = &read_result.value();
  const std::vector<core::Finding> health = analysis::period_health_findings(read->assessment);
  std::optional<core::TrendBaseline> baseline;
  if (!o.baseline.empty()) {
    std::string unchecked;
    auto loaded = load_trend_baseline(o.baseline, read->history.gpus, o.key, &unchecked);
    if (!loaded) return loaded.error();
    if (!unchecked.empty()) read->notes.push_back(fmt::format("The baseline {} {}.", o.baseline, unchecked));
    baseline = std::move(loaded).value();
  }
  auto assessment = analysis::judge_trend(read->history, baseline);
  // What the health judge could not check leaves the verdict incomplete here as in report --db.
  for (const auto& u : read->assessment.unverified) assessment.unverified.push_back(u);
  if (baseline && !read->record.run.simulated && !baseline->hostname.empty() && baseline->hostname != "n/a" && !read->record.run.hostname.empty() &&
      baseline->hostname != read->record.run.hostname) {
    read->notes.push_back(fmt::format("The baseline was accepted on host {}, the history is from host {}: check that it is the same machine.",
                                      baseline->hostname, read->record.run.hostname));
  }
  std::vector<core::Finding> all = assessment.findings;
  all.insert(all.end(), health.begin(), health.end());
  report::TrendReport report{o.db,           o.since, read->record.run, read->history, assessment, health, baseline,
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
