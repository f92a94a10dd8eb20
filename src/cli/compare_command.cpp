// gpuvet compare DIR|report.json ...: accept reports side by side (text, --markdown, --html): each
// clause's result and number as % of the spec, verdicts, and the rows where machines differ. A
// bundle is verified against its MANIFEST (with --key, its signature too) and report.json against
// its schema and plausible numbers before it is read (bundle/bundle_report.hpp).
#include <algorithm>
#include <filesystem>
#include <optional>
#include <ostream>

#include <fmt/format.h>

#include "accept/compare.hpp"
#include "bundle/bundle_report.hpp"
#include "bundle/manifest.hpp"
#include "cli/commands.hpp"
#include "cli/option_checks.hpp"
#include "cli/plan_bundles.hpp"
#include "platform/user_file.hpp"
#include "report/compare_json.hpp"
#include "report/html_compare.hpp"
#include "report/markdown_compare.hpp"
#include "report/text_table.hpp"
#include "report/text_wrap.hpp"

namespace gpuvet::cli {

namespace {

struct CompareOptions {
  std::vector<std::string> inputs;
  bool markdown = false;
  bool html = false;
  bool json = false;
  std::string plan_model;  // --plan MODEL: rank the bundles as offers for this model
  std::string key;         // --key PUBKEY: every bundle's MANIFEST must be signed by its private key
};

// The measured numbers side by side: value (spec %, % of best) per bundle, the winner and why.
std::string metrics_text(const accept::CompareTable& table) {
  std::vector<std::string> header = {"Measure"};
  header.insert(header.end(), table.labels.begin(), table.labels.end());
  header.emplace_back("Wins");
  report::TextTable text(header);
  std::string why;
  for (const auto& row : table.metrics) {
    std::vector<std::string> cells = {row.title + (row.unit.empty() ? "" : " (" + row.unit + ")")};
    for (const auto& cell : row.cells) cells.push_back(accept::metric_cell_text(row, cell));
    cells.push_back(row.winner.empty() ? "-" : row.winner);
    text.add_row(cells);
    why += fmt::format("  {}: {}\n", row.title, row.why);
  }
  return "Measured side by side\n" + text.render() + "\nWhy:\n" + why +
         "\nspec %: the number as % of what that bundle's own spec asked; % of best: against the best bundle of the row; "
         "\"not measured\" is never counted as a loss.\n\nSpec clauses\n";
}

// A report from a bundle (a directory, or a report.json beside a MANIFEST) only once the whole
// bundle matches its MANIFEST (and with --key, its signature verifies); a loose report.json as it
// is, with a note (refused with --key: nothing signs it). Either way its schema and numbers are checked.
core::Result<bundle::BundleReport> read_report(const std::string& input, bool dir, const std::string& key, Streams& streams) {
  namespace fs = std::filesystem;
  const fs::path path(input);
  if (dir) return bundle::read_bundle_report(path, key);
  std::error_code ec;
  const fs::path parent = path.has_parent_path() ? path.parent_path() : fs::path(".");
  if (fs::exists(fs::symlink_status(parent / bundle::kManifestName, ec))) {
    return bundle::read_bundle_report(parent, key, path.filename().string());
  }
  if (!key.empty()) {
    return core::input_error(fmt::format("{} is not in an evidence bundle (no MANIFEST beside it): --key {} cannot check it",
                                         input, key));
  }
  streams.err << fmt::format("gpuvet compare: {} is not in an evidence bundle (no MANIFEST beside it): not verified\n", input);
  auto text = platform::read_user_file(input);
  if (!text) return text.error();
  auto report = bundle::parse_checked_report(*text, input);
  if (!report) return report.error();
  return bundle::BundleReport{std::move(report).value(), std::move(text).value(), false, ""};  // no seal to speak of
}

// The report.json an input names, as one path however it was spelled (b1, b1/, ./b1/report.json).
std::string report_path_of(const std::string& input) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path file = fs::is_directory(input, ec) ? fs::path(input) / "report.json" : fs::path(input);
  const auto canonical = fs::weakly_canonical(file, ec);
  return (ec ? file.lexically_normal() : canonical).string();
}

// The same report named twice compares nothing: refused (exit 2). Two copies of one report in
// different places are compared, with a note that every row will tie.
std::optional<core::Error> refuse_same_input(const std::vector<std::string>& inputs) {
  for (size_t a = 0; a < inputs.size(); ++a) {
    for (size_t b = a + 1; b < inputs.size(); ++b) {
      if (report_path_of(inputs[a]) == report_path_of(inputs[b])) {
        return core::usage_error(fmt::format("compare: {} and {} are the same report ({}): give different bundles",
                                             inputs[a], inputs[b], report_path_of(inputs[a])));
      }
    }
  }
  return std::nullopt;
}

// A bundle directory or a report.json; the label is the directory (or file) name. Without --key,
// what vouches for a bundle is said on stderr.
core::Result<std::pair<std::string, accept::AcceptReport>> load(const std::string& input, const std::string& key,
                                                                Streams& streams, std::string& text_out) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const bool dir = fs::is_directory(input, ec);
  auto read = read_report(input, dir, key, streams);
  if (!read) return read.error();
  if (key.empty() && !read->seal.empty()) {
    streams.err << fmt::format("gpuvet compare: {}: {}\n", input, read->seal);
  }
  text_out = read->text;
  fs::path p(input);
  std::string label = dir ? p.lexically_normal().filename().string() : p.stem().string();
  if (label.empty() || label == "report") label = p.lexically_normal().parent_path().filename().string();
  if (label.empty()) label = input;
  return std::pair{label, std::move(read).value().report};
}

core::Result<core::ExitCode> run_compare(const CompareOptions& o, const BundlePlanRunner& plan, Streams& streams) {
  if (static_cast<int>(o.markdown) + static_cast<int>(o.html) + static_cast<int>(o.json) > 1) {
    return core::usage_error("--markdown, --html and --json: choose one");
  }
  if (!o.plan_model.empty()) {
    namespace fs = std::filesystem;
    for (const auto& input : o.inputs) {
      std::error_code ec;
      if (!fs::is_directory(input, ec)) {
        return core::usage_error(fmt::format("compare --plan: {} is not a bundle directory (plan needs the whole bundle)", input));
      }
    }
    return plan(o.plan_model, o.inputs, o.key, o.json ? "json" : o.markdown ? "markdown" : o.html ? "html" : "", streams);
  }
  if (auto e = refuse_same_input(o.inputs)) return *e;
  std::vector<std::pair<std::string, accept::AcceptReport>> reports;
  std::vector<std::string> texts;
  for (const auto& input : o.inputs) {
    std::string text;
    auto r = load(input, o.key, streams, text);
    if (!r) return r.error();
    for (size_t i = 0; i < texts.size(); ++i) {
      if (texts[i] == text) {
        streams.err << fmt::format("gpuvet compare: {} and {} hold the same report.json (a copy of one run?): every row "
                                   "ties\n",
                                   o.inputs[i], input);
      }
    }
    texts.push_back(std::move(text));
    reports.push_back(std::move(r).value());
  }
  const auto table = accept::compare_reports(reports);
  if (o.json) {
    streams.out << report::render_compare_json(table);
    return core::ExitCode::pass;
  }
  if (o.html) {
    streams.out << report::render_compare_html(table);
    return core::ExitCode::pass;
  }
  if (o.markdown) {
    streams.out << report::render_compare_markdown(table);
    return core::ExitCode::pass;
  }
  std::string out = metrics_text(table);
  std::vector<std::string> header = {"", "Clause"};
  header.insert(header.end(), table.labels.begin(), table.labels.end());
  report::TextTable text(header);
  std::vector<std::string> verdicts = {"", "verdict"};
  for (auto v : table.verdicts) verdicts.emplace_back(core::to_string(v));
  text.add_row(verdicts);
  for (const auto& row : table.rows) {
    std::vector<std::string> cells = {row.differs ? "*" : "", row.id};
    for (const auto& cell : row.cells) cells.push_back(accept::cell_text(cell));
    text.add_row(cells);
  }
  out += text.render();
  out += fmt::format("\n* the machines differ here (result, presence, or more than {:g} points); numbers are % of what the "
                     "spec expects.\n",
                     accept::kCompareDifferencePoints);
  streams.out << report::fit_lines(out);
  return core::ExitCode::pass;
}

}  // namespace

void add_compare_command(CLI::App& app, Action& action) {
  auto o = std::make_shared<CompareOptions>();
  auto* cmd = app.add_subcommand("compare", "Compare accept results side by side (bundle directories or report.json files)");
  cmd->add_option("INPUT", o->inputs, "Evidence bundle directories or report.json files")->required()->expected(1, -1);
  cmd->add_flag("--markdown", o->markdown, "Print a Markdown table");
  cmd->add_flag("--html", o->html, "Print a self-contained HTML page");
  cmd->add_flag("--json", o->json, "Print JSON (schema gpuvet.compare/1; with --plan gpuvet.plan/1)");
  cmd->add_option("--key", o->key,
                  "Public key (KEY.pub from `gpuvet keygen`): read a bundle only when its MANIFEST is signed by its private key")
      ->check(non_empty_path());
  cmd->add_option("--plan", o->plan_model,
                  "Rank the bundles as offers for this model (preset, config.json or a parameter count) with their "
                  "measured numbers; takes gpuvet plan's job options and --price NAME=USD per GPU-hour");
  const auto own = cmd->get_options();
  auto plan = add_bundle_plan_options(cmd);
  std::vector<CLI::Option*> job_options;  // plan's options: meaningful with --plan only
  for (auto* opt : cmd->get_options()) {
    if (std::find(own.begin(), own.end(), opt) == own.end()) job_options.push_back(opt);
  }
  cmd->callback([o, plan, job_options, &action] {
    std::string stray;
    for (const auto* opt : job_options) {
      if (opt->count() > 0 && o->plan_model.empty()) stray = opt->get_name();
    }
    action = [o, plan, stray](Streams& s) -> core::Result<core::ExitCode> {
      if (!stray.empty()) return core::usage_error(fmt::format("compare: {} is a job option of --plan MODEL", stray));
      return run_compare(*o, plan, s);
    };
  });
}

}  // namespace gpuvet::cli
