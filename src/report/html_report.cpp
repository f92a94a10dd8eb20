// report.html: sections in the order a buyer reads them.
#include "report/html_report.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "report/finding_fold.hpp"
#include "report/html_escape.hpp"
#include "report/identity_section.hpp"
#include "report/svg_charts.hpp"
#include "report/why_fold.hpp"

namespace gpuvet::report {

namespace {

// Screen: one column up to 1200 px; pictures scale down to it, tables wrap long words. Print (A4
// portrait): the summary (verdict, machine, failing clauses) is page 1, the rest starts on page 2;
// nothing scrolls, figures and table rows are not split.
const char* const kStyle = R"(
*{box-sizing:border-box}
body{font-family:sans-serif;margin:24px auto;padding:0 16px;color:#222;max-width:1200px}
h1{font-size:22px;margin:0 0 8px} h2{font-size:17px;border-bottom:1px solid #ccc;padding-bottom:4px;margin-top:28px}
.verdict{padding:12px 16px;border-radius:6px;font-size:20px;font-weight:bold;margin:12px 0}
.verdict.pass{background:#d9ead3;color:#274e13}.verdict.fail{background:#f4cccc;color:#660000}
.verdict.incomplete{background:#fff2cc;color:#7f6000}
.sim{background:#e6e6e6;padding:6px 10px;border-radius:4px;font-weight:bold}
table{border-collapse:collapse;width:100%;font-size:13px}th,td{border:1px solid #ccc;padding:4px 6px;text-align:left;vertical-align:top;overflow-wrap:anywhere}
th{background:#f3f3f3}.st{font-weight:bold;white-space:nowrap}.st.pass{color:#274e13}.st.fail{color:#990000}.st.not_run{color:#7f6000}
.finding{border-left:4px solid #999;padding:4px 10px;margin:8px 0;overflow-wrap:anywhere}.finding.fail{border-color:#cc0000}.finding.warn{border-color:#e69138}
.note{color:#555;font-style:italic} dl{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:2px 12px;font-size:13px}dt{font-weight:bold}
dd{margin:0;overflow-wrap:anywhere}
figure{margin:8px 0;max-width:100%}figure svg{display:block;max-width:100%;height:auto}
.summary .why li{font-size:12px}
@page{size:A4 portrait;margin:12mm}
@media print{body{margin:0;padding:0;max-width:none;font-size:11px}h2{break-after:avoid;page-break-after:avoid}
figure,tr,.finding{break-inside:avoid;page-break-inside:avoid}.details{break-before:page;page-break-before:always}
figure{overflow:visible}table{font-size:10px}.summary table{font-size:9.5px}.verdict{font-size:16px;padding:8px 12px}}
)";

std::string esc(std::string_view s) { return xml_escape(s); }

std::string status_cell(accept::ClauseStatus s) {
  const char* word = s == accept::ClauseStatus::pass ? "PASS" : s == accept::ClauseStatus::fail ? "FAIL" : "NOT RUN";
  return fmt::format("<td class=\"st {}\">{}</td>", accept::to_string(s), word);
}

// The GPUs failing findings name, for the charts to highlight: a culprit (one GPU, a pair), not
// a finding about most of the machine (scaling over all GPUs).
std::vector<int> failing_gpus(const accept::AcceptReport& r, const core::Machine* machine) {
  std::vector<int> out;
  for (const auto& s : r.stages) {
    for (const auto& f : s.findings) {
      if (f.severity != core::Severity::fail || f.gpus.empty()) continue;
      const size_t total = machine != nullptr && !machine->gpus.empty() ? machine->gpus.size() : 8;
      if (f.gpus.size() > 2 && f.gpus.size() * 2 > total) continue;
      for (int g : f.gpus) {
        if (std::find(out.begin(), out.end(), g) == out.end()) out.push_back(g);
      }
    }
  }
  return out;
}

// "8x NVIDIA H100 80GB HBM3" or "4x A, 4x B" from the machine picture.
std::string gpus_line(const core::Machine& m) {
  std::vector<std::pair<std::string, int>> models;
  for (const auto& g : m.gpus) {
    const std::string name = g.name ? *g.name : "unknown model";
    auto it = std::find_if(models.begin(), models.end(), [&](const auto& p) { return p.first == name; });
    if (it == models.end()) models.emplace_back(name, 1);
    else ++it->second;
  }
  std::vector<std::string> parts;
  for (const auto& [name, n] : models) parts.push_back(fmt::format("{}x {}", n, name));
  return parts.empty() ? "none found" : fmt::format("{}", fmt::join(parts, ", "));
}

// The clauses that decided a fail or incomplete verdict, promised against observed; the long
// explanations stay in the full table.
std::string failing_clauses(const accept::AcceptReport& r) {
  std::string rows;
  int n = 0;
  for (const auto* c : accept::all_clauses(r)) {
    if (c->status == accept::ClauseStatus::pass) continue;
    ++n;
    rows += fmt::format("<tr><td><b>{}</b></td><td>{}</td><td>{}</td>{}</tr>\n", esc(c->id), esc(c->expected), esc(c->observed),
                        status_cell(c->status));
  }
  if (n == 0) return "<h2 id=\"failing\">Failing clauses</h2>\n<p>None: every clause of the spec holds.</p>\n";
  return "<h2 id=\"failing\">Failing clauses</h2>\n<table id=\"failing-clauses\"><tr><th>Clause</th><th>Promised</th>"
         "<th>Observed</th><th>Result</th></tr>\n" + rows + "</table>\n";
}

// Page 1: the verdict, the machine and the clauses that failed (or could not run).
std::string header(const accept::AcceptReport& r, const core::Machine* machine) {
  std::string out = "<section class=\"summary\" id=\"summary\">\n<h1>gpuvet acceptance report</h1>\n";
  const char* word = r.verdict == core::Verdict::pass ? "PASS" : r.verdict == core::Verdict::fail ? "FAIL" : "INCOMPLETE";
  const char* meaning = r.verdict == core::Verdict::pass ? "every clause of the spec was checked and holds"
                        : r.verdict == core::Verdict::fail ? "the machine breaks at least one clause of the spec"
                                                           : "nothing failed, but some clauses could not be checked, so there is no pass";
  out += fmt::format("<div class=\"verdict {}\" id=\"verdict\">Verdict: {} &#8212; {}</div>\n", core::to_string(r.verdict), word, meaning);
  if (r.simulated) out += "<p class=\"sim\">SIMULATED machine: every number below comes from gpuvet's simulator, not from a measurement.</p>\n";
  out += "<h2 id=\"machine\">Machine</h2>\n<dl>\n";
  auto item = [&](const char* k, const std::string& v) { out += fmt::format("<dt>{}</dt><dd>{}</dd>\n", k, esc(v)); };
  item("Spec", r.spec_name.empty() ? r.spec_file : r.spec_name + " (" + r.spec_file + ")");
  item("Machine", r.machine_source);
  item("Host", r.hostname);
  item("Driver / CUDA", r.driver_version + " / " + r.cuda_version);
  item("Run", r.started_utc + " to " + r.finished_utc + (r.quick ? " (--quick)" : "") + (r.fail_fast ? " (--fail-fast)" : ""));
  if (machine != nullptr) item("GPUs", gpus_line(*machine));
  item("gpuvet", r.tool_version);
  out += "</dl>\n" + failing_clauses(r) + "</section>\n";
  return out;
}

std::string clauses_table(const accept::AcceptReport& r) {
  std::string out = "<h2>Spec clauses</h2>\n<table id=\"clauses\"><tr><th>Clause</th><th>Promised</th><th>Observed</th>"
                    "<th>Result</th><th>Why</th><th>Decided by</th><th>Spec</th></tr>\n";
  for (const auto* c : accept::all_clauses(r)) {
    std::string by = "stage " + c->stage;
    if (!c->findings.empty()) by += fmt::format("; findings: {}", fmt::join(c->findings, ", "));
    out += fmt::format("<tr><td><b>{}</b><br/>{}</td><td>{}</td><td>{}</td>{}<td>{}</td><td>{}</td><td>{}</td></tr>\n",
                       esc(c->id), esc(c->title), esc(c->expected), esc(c->observed), status_cell(c->status), esc(c->reason),
                       esc(by), esc(c->source));
  }
  return out + "</table>\n";
}

std::string stages_table(const accept::AcceptReport& r) {
  std::string out = "<h2>Stages</h2>\n<table id=\"stages\"><tr><th>Stage</th><th>Status</th><th>Time</th><th>Note</th></tr>\n";
  for (const auto& s : r.stages) {
    out += fmt::format("<tr><td>{} ({})</td><td>{}</td><td>{:.2f} s</td><td>{}</td></tr>\n", esc(s.title), esc(s.id),
                       accept::to_string(s.status), s.seconds, esc(s.reason + (s.resumed ? " (resumed from an earlier run)" : "")));
  }
  return out + "</table>\n";
}

// A section for measured charts, or a sentence saying which stage would have measured them.
template <class Get, class Draw>
std::string chart_section(const accept::AcceptReport& r, const char* title, const char* id, const char* stage_id,
                          Get get, Draw draw) {
  std::string out = fmt::format("<h2 id=\"{}\">{}</h2>\n", id, title);
  bool any = false;
  for (const auto& s : r.stages) {
    for (const auto& item : get(s)) {
      out += "<figure>" + draw(item) + "</figure>\n";
      any = true;
    }
  }
  if (!any) {
    std::string why = "the stage did not run";
    for (const auto& s : r.stages) {
      if (s.id == stage_id) why = fmt::format("stage {}: {}{}", s.id, accept::to_string(s.status), s.reason.empty() ? "" : " (" + s.reason + ")");
    }
    out += fmt::format("<p class=\"note\">No measurements in this run: {}.</p>\n", esc(why));
  }
  return out;
}

std::string finding_html(const core::Finding& f, const std::string& folded = {}) {
  std::string out = fmt::format("<div class=\"finding {}\"><b>{} {}</b>{}<br/>{}", core::to_string(f.severity),
                         core::to_string(f.severity), esc(f.code),
                         f.gpus.empty() ? "" : fmt::format(" (GPU {})", fmt::join(f.gpus, ", ")), esc(f.message));
  for (const auto& [k, v] : f.evidence) out += fmt::format("<br/><small>{}: {}</small>", esc(k), esc(v));
  if (!folded.empty()) out += "<br/><small class=\"folded\">" + esc(folded) + "</small>";
  if (!f.next_step.empty()) out += "<br/><i>Next step:</i> " + esc(f.next_step);
  return out + "</div>\n";
}

std::string findings_section(const accept::AcceptReport& r) {
  std::string out = "<h2>Findings</h2>\n";
  int count = 0;
  std::vector<core::Finding> all;
  for (const auto& s : r.stages) all.insert(all.end(), s.findings.begin(), s.findings.end());
  for (const auto& entry : fold_findings(all)) {
    ++count;
    out += finding_html(entry.finding, entry.summary);
  }
  if (count == 0) out += "<p class=\"note\">No findings behind the spec's clauses.</p>\n";
  if (!r.other_findings.empty()) {
    out += "<h3>Outside the spec</h3>\n<p class=\"note\">What the judge noticed that no clause of the spec promises; "
           "these do not change the verdict.</p>\n";
    for (const auto& f : r.other_findings) out += finding_html(f);
  }
  if (!r.notes.empty()) {
    out += "<h3>About this run</h3>\n<ul>\n";
    for (const auto& n : r.notes) out += "<li>" + esc(n) + "</li>\n";
    out += "</ul>\n";
  }
  return out;
}

}  // namespace

std::string render_accept_html(const accept::AcceptReport& r, const core::Machine* machine) {
  std::string out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n";
  out += fmt::format("<meta http-equiv=\"Content-Security-Policy\" content=\"{}\"/>\n", kHtmlCsp);
  out += fmt::format("<title>gpuvet acceptance: {} &#8212; {}</title>\n", esc(r.spec_name), core::to_string(r.verdict));
  out += fmt::format("<style>{}</style>\n</head>\n<body>\n", kStyle);
  out += header(r, machine);
  out += "<div class=\"details\">\n";
  if (!r.why.empty()) {
    out += "<h2 id=\"why\">Why</h2>\n<ul class=\"why\">\n";
    for (const auto& w : fold_why(r)) out += "<li>" + esc(w) + "</li>\n";  // a culprit once, as in text and md
    out += "</ul>\n";
  }
  out += clauses_table(r);
  out += "<h2 id=\"topology\">Topology</h2>\n";
  out += machine != nullptr ? "<figure>" + svg_topology(*machine) + "</figure>\n"
                            : "<p class=\"note\">The machine picture is in machine.json and topology.txt.</p>\n";
  const auto failing = failing_gpus(r, machine);
  out += chart_section(r, "Bandwidth", "bandwidth", "bandwidth", [](const accept::StageRecord& s) { return s.heatmaps; },
                       [&failing](const accept::HeatmapData& h) { return svg_heatmap(h, failing); });
  out += chart_section(r, "Burn-in", "burnin", "burnin", [](const accept::StageRecord& s) { return s.series; },
                       [&failing](const accept::SeriesData& s) { return svg_line_chart(s, 720, 260, failing); });
  out += findings_section(r);
  out += render_identity_html(r);
  out += stages_table(r);
  out += fmt::format("<p class=\"note\">gpuvet {} &#183; report schema {} &#183; the evidence bundle's MANIFEST holds the "
                     "SHA-256 of this file; check it with <code>gpuvet verify DIR</code>.</p>\n</div>\n</body>\n</html>\n",
                     esc(r.tool_version), accept::kAcceptReportSchema);
  return out;
}

}  // namespace gpuvet::report
