// report.md: verdict and why, clauses, stages, findings. Table cells escape '|'.
#include "report/markdown_report.hpp"

#include "report/finding_fold.hpp"
#include "report/identity_section.hpp"
#include "report/why_fold.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace gpuvet::report {

namespace {

std::string cell(std::string_view text) {
  std::string out;
  for (char ch : text) {
    if (ch == '|') {
      out += "\\|";
    } else if (ch == '\n') {
      out += "<br>";
    } else {
      out += ch;
    }
  }
  return out.empty() ? "-" : out;
}

const char* word(accept::ClauseStatus s) {
  return s == accept::ClauseStatus::pass ? "PASS" : s == accept::ClauseStatus::fail ? "**FAIL**" : "NOT RUN";
}

}  // namespace

std::string render_accept_markdown(const accept::AcceptReport& r) {
  std::string out = "# gpuvet acceptance report\n\n";
  const char* v = r.verdict == core::Verdict::pass ? "PASS" : r.verdict == core::Verdict::fail ? "FAIL" : "INCOMPLETE";
  out += fmt::format("**Verdict: {}**", v);
  if (r.verdict == core::Verdict::incomplete) out += " (nothing failed, but some clauses could not be checked)";
  out += "\n\n";
  if (r.simulated) out += "> SIMULATED machine: the numbers come from gpuvet's simulator, not from a measurement.\n\n";
  for (const auto& w : fold_why(r)) out += "- " + w + "\n";
  if (!r.why.empty()) out += "\n";
  out += fmt::format("- Spec: {} ({})\n- Machine: {}\n- Host: {}\n- Driver / CUDA: {} / {}\n- Run: {} to {}{}{}\n- gpuvet {}\n\n",
                     r.spec_name, r.spec_file, r.machine_source, r.hostname, r.driver_version, r.cuda_version, r.started_utc,
                     r.finished_utc, r.quick ? " (--quick)" : "", r.fail_fast ? " (--fail-fast)" : "", r.tool_version);
  out += "## Spec clauses\n\n| Clause | Promised | Observed | Result | Why | Decided by | Spec |\n|---|---|---|---|---|---|---|\n";
  for (const auto* c : accept::all_clauses(r)) {
    std::string by = "stage " + c->stage;
    if (!c->findings.empty()) by += fmt::format("; findings: {}", fmt::join(c->findings, ", "));
    out += fmt::format("| `{}` {} | {} | {} | {} | {} | {} | {} |\n", c->id, cell(c->title), cell(c->expected), cell(c->observed),
                       word(c->status), cell(c->reason), cell(by), cell(c->source));
  }
  out += "\n## Stages\n\n| Stage | Status | Time | Note |\n|---|---|---|---|\n";
  for (const auto& s : r.stages) {
    out += fmt::format("| {} (`{}`) | {} | {:.2f} s | {} |\n", cell(s.title), s.id, accept::to_string(s.status), s.seconds,
                       cell(s.reason + (s.resumed ? " (resumed)" : "")));
  }
  out += "\n## Findings\n\n";
  // One entry per culprit, as in the text and HTML reports; report.json keeps every finding.
  std::vector<core::Finding> all;
  for (const auto& s : r.stages) all.insert(all.end(), s.findings.begin(), s.findings.end());
  for (const auto& entry : fold_findings(all)) {
    const auto& f = entry.finding;
    out += fmt::format("- **{}** `{}`: {}", core::to_string(f.severity), f.code, f.message);
    if (!entry.summary.empty()) out += fmt::format(" ({})", entry.summary);
    if (!f.next_step.empty()) out += fmt::format(" Next step: {}", f.next_step);
    out += "\n";
  }
  if (all.empty()) out += "None behind the spec's clauses.\n";
  if (!r.other_findings.empty()) {
    out += "\n### Outside the spec (no effect on the verdict)\n\n";
    for (const auto& f : r.other_findings) {
      out += fmt::format("- {} `{}`: {}", core::to_string(f.severity), f.code, f.message);
      if (!f.next_step.empty()) out += fmt::format(" Next step: {}", f.next_step);
      out += "\n";
    }
  }
  out += render_identity_markdown(r);
  if (!r.notes.empty()) {
    out += "\n## About this run\n\n";
    for (const auto& n : r.notes) out += "- " + n + "\n";
  }
  return out;
}

}  // namespace gpuvet::report
