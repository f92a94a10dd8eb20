// The trend report as Markdown (for a ticket or a wiki page) and as terminal text.
#include <fmt/format.h>

#include "report/trend_report.hpp"
#include "report/trend_text.hpp"

namespace gpuvet::report {

namespace {

// Table cells: '|' escaped, newlines flattened.
std::string cell(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c == '|') {
      out += "\\|";
    } else if (c == '\n') {
      out += ' ';
    } else {
      out += c;
    }
  }
  return out;
}

std::string finding_md(const core::Finding& f) {
  std::string out = fmt::format("- **{}** `{}`: {}\n", core::to_string(f.severity), f.code, f.message);
  for (const auto& [k, v] : f.evidence) out += fmt::format("  - {}: {}\n", k, v);
  if (!f.next_step.empty()) out += fmt::format("  - next step: {}\n", f.next_step);
  return out;
}

}  // namespace

std::string render_trend_markdown(const TrendReport& r) {
  std::string out = fmt::format("# gpuvet trend report: {}\n\n**Verdict: {}** — {}\n\n", r.run.hostname.empty() ? "n/a" : r.run.hostname,
                                trend_verdict_word(r.verdict), trend_verdict_meaning(r.verdict));
  if (r.run.simulated) out += "> SIMULATED machine: every number below comes from gpuvet's simulator, not from a measurement.\n\n";
  for (const auto& [k, v] : trend_facts(r)) out += fmt::format("- {}: {}\n", k, v);
  for (const auto& n : r.notes) out += fmt::format("\n_{}_\n", n);
  out += "\n## Cards that stand out\n\n";
  if (r.assessment.findings.empty()) out += no_standout_text(r) + "\n";
  for (const auto& f : r.assessment.findings) out += finding_md(f);
  out += "\n## Alerts of the period\n\n";
  if (r.health.empty()) out += trend_no_alert_text(r) + "\n";
  for (const auto& f : r.health) out += finding_md(f);
  if (!r.health.empty()) out += "\nJudged from " + trend_judged_text(r) + ".\n";
  const auto steps = what_to_do(r);
  if (!steps.empty()) {
    out += "\n## What to do\n\n";
    for (std::size_t i = 0; i < steps.size(); ++i) out += fmt::format("{}. {}\n", i + 1, steps[i]);
  }
  if (!r.assessment.unverified.empty()) {
    out += "\n## Not verified\n\n";
    for (const auto& u : r.assessment.unverified) out += "- " + u + "\n";
  }
  const auto rows = standing_rows(r);
  out += "\n## Per GPU\n\n|";
  for (const auto& h : rows.header) out += " " + cell(h) + " |";
  out += "\n|";
  for (std::size_t i = 0; i < rows.header.size(); ++i) out += i == 0 ? "---|" : "---:|";
  out += "\n";
  for (const auto& row : rows.rows) {
    out += "|";
    for (const auto& c : row) out += " " + cell(c) + " |";
    out += "\n";
  }
  out += "\n" + standing_legend(r) + "\n\n## Events of the period\n\n";
  if (r.history.events.empty()) out += "No Xid or other event recorded in the period.\n";
  for (const auto& e : r.history.events) out += fmt::format("- {}: {}: {}\n", trend_utc(e.unix_ms), trend_event_label(e), e.event.message);
  out += "\nTrend lines: `gpuvet trend --html FILE` draws them; `--json` gives the points.\n";
  return out;
}

std::string render_trend_text(const TrendReport& r) {
  std::string out = fmt::format("gpuvet trend: {}\n", r.run.hostname.empty() ? "n/a" : r.run.hostname);
  if (r.run.simulated) out += "SIMULATED machine: every number comes from gpuvet's simulator.\n";
  for (const auto& [k, v] : trend_facts(r)) out += fmt::format("  {}: {}\n", k, v);
  for (const auto& n : r.notes) out += "  note: " + n + "\n";
  out += "\n";
  const auto findings = trend_findings(r);
  if (r.assessment.findings.empty()) out += no_standout_text(r) + "\n";
  for (const auto& f : findings) {
    out += fmt::format("{:<5} {}: {}\n", core::to_string(f.severity), f.code, f.message);
    for (const auto& [k, v] : f.evidence) out += fmt::format("        {}: {}\n", k, v);
  }
  for (const auto& u : r.assessment.unverified) out += "not verified: " + u + "\n";
  const auto steps = what_to_do(r);
  if (!steps.empty()) {
    out += "\nWhat to do:\n";
    for (std::size_t i = 0; i < steps.size(); ++i) out += fmt::format("  {}. {}\n", i + 1, steps[i]);
  }
  out += fmt::format("\nVerdict: {} ({})\n", trend_verdict_word(r.verdict), trend_verdict_meaning(r.verdict));
  return out;
}

}  // namespace gpuvet::report
