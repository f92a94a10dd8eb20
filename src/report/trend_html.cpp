// trend.html: verdict, the cards that stand out, what to do, a table per GPU, the period's alerts
// and events, then the trend lines (inline SVG, svg_line_chart). Self-contained: no script, no
// external resource; fits 1280 px (charts wrap).
#include <set>

#include <fmt/format.h>

#include "report/html_escape.hpp"
#include "report/svg_charts.hpp"
#include "report/trend_report.hpp"
#include "report/trend_text.hpp"

namespace gpuvet::report {

namespace {

const char* const kStyle = R"(
body{font-family:sans-serif;margin:24px;color:#222;max-width:1200px}
h1{font-size:22px;margin:0 0 8px} h2{font-size:17px;border-bottom:1px solid #ccc;padding-bottom:4px;margin-top:28px}
.verdict{padding:12px 16px;border-radius:6px;font-size:20px;font-weight:bold;margin:12px 0}
.verdict.pass{background:#d9ead3;color:#274e13}.verdict.fail{background:#f4cccc;color:#660000}
.verdict.incomplete{background:#fff2cc;color:#7f6000}
.sim{background:#e6e6e6;padding:6px 10px;border-radius:4px;font-weight:bold}
table{border-collapse:collapse;width:100%;font-size:13px}th,td{border:1px solid #ccc;padding:4px 6px;text-align:left;vertical-align:top}
th{background:#f3f3f3}.num{text-align:right;white-space:nowrap}
.finding{border-left:4px solid #999;padding:4px 10px;margin:8px 0}.finding.fail{border-color:#cc0000}.finding.warn{border-color:#e69138}
.note{color:#555;font-style:italic} dl{display:grid;grid-template-columns:max-content auto;gap:2px 12px;font-size:13px}dt{font-weight:bold}
.charts{display:flex;flex-wrap:wrap;gap:12px}figure{margin:0;overflow-x:auto;max-width:100%}
@media print{body{margin:0}h2{page-break-after:avoid}figure,table{page-break-inside:avoid}}
)";

std::string esc(std::string_view s) { return xml_escape(s); }

std::string header(const TrendReport& r) {
  const std::string host = r.run.hostname.empty() ? "this machine" : r.run.hostname;
  std::string out = fmt::format("<h1>gpuvet trend report: {}</h1>\n", esc(host));
  out += fmt::format("<div class=\"verdict {}\" id=\"verdict\">Verdict: {} &#8212; {}</div>\n", core::to_string(r.verdict),
                     trend_verdict_word(r.verdict), esc(trend_verdict_meaning(r.verdict)));
  if (r.run.simulated) out += "<p class=\"sim\">SIMULATED machine: every number below comes from gpuvet's simulator, not from a measurement.</p>\n";
  out += "<dl>\n";
  for (const auto& [key, value] : trend_facts(r)) out += fmt::format("<dt>{}</dt><dd>{}</dd>\n", esc(key), esc(value));
  out += "</dl>\n";
  for (const auto& n : r.notes) out += "<p class=\"note\">" + esc(n) + "</p>\n";
  return out;
}

std::string finding_block(const core::Finding& f) {
  std::string out = fmt::format("<div class=\"finding {}\"><b>{}</b> <code>{}</code>: {}", core::to_string(f.severity),
                                core::to_string(f.severity), esc(f.code), esc(f.message));
  if (!f.evidence.empty()) {
    out += "<ul>";
    for (const auto& [k, v] : f.evidence) out += fmt::format("<li>{}: {}</li>", esc(k), esc(v));
    out += "</ul>";
  }
  if (!f.next_step.empty()) out += "<div>Next step: " + esc(f.next_step) + "</div>";
  return out + "</div>\n";
}

std::string findings_section(const TrendReport& r) {
  std::string out = "<h2>Cards that stand out</h2>\n<div id=\"standouts\">\n";
  if (r.assessment.findings.empty()) out += "<p>" + esc(no_standout_text(r)) + "</p>\n";
  for (const auto& f : r.assessment.findings) out += finding_block(f);
  out += "</div>\n<h2>Alerts of the period</h2>\n<div id=\"alerts\">\n";
  if (r.health.empty()) out += "<p>" + esc(trend_no_alert_text(r)) + "</p>\n";
  for (const auto& f : r.health) out += finding_block(f);
  if (!r.health.empty()) out += "<p>Judged from " + esc(trend_judged_text(r)) + ".</p>\n";
  out += "</div>\n";
  const auto steps = what_to_do(r);
  if (!steps.empty()) {
    out += "<h2>What to do</h2>\n<ol id=\"todo\">\n";
    for (const auto& s : steps) out += "<li>" + esc(s) + "</li>\n";
    out += "</ol>\n";
  }
  if (!r.assessment.unverified.empty()) {
    out += "<h2>Not verified</h2>\n<ul id=\"unverified\">\n";
    for (const auto& u : r.assessment.unverified) out += "<li>" + esc(u) + "</li>\n";
    out += "</ul>\n";
  }
  return out;
}

std::string gpu_table(const TrendReport& r) {
  const auto rows = standing_rows(r);
  std::string out = "<h2>Per GPU</h2>\n<div style=\"overflow-x:auto\"><table id=\"gpus\"><tr>";
  for (const auto& h : rows.header) out += "<th>" + esc(h) + "</th>";
  out += "</tr>\n";
  for (const auto& row : rows.rows) {
    out += "<tr>";
    for (std::size_t i = 0; i < row.size(); ++i) out += fmt::format("<td{}>{}</td>", i == 0 ? "" : " class=\"num\"", esc(row[i]));
    out += "</tr>\n";
  }
  return out + "</table></div>\n<p class=\"note\">" + esc(standing_legend(r)) + "</p>\n";
}

std::string events_table(const TrendReport& r) {
  std::string out = "<h2>Events of the period</h2>\n";
  if (r.history.events.empty()) return out + "<p id=\"events\">No Xid or other event recorded in the period.</p>\n";
  out += "<table id=\"events\"><tr><th>When</th><th>GPU</th><th>Event</th><th>Message</th></tr>\n";
  for (const auto& e : r.history.events) {
    out += fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n", esc(trend_utc(e.unix_ms)), e.event.gpu,
                       esc(trend_event_label(e)), esc(e.event.message));
  }
  return out + "</table>\n";
}

}  // namespace

std::string render_trend_html(const TrendReport& r) {
  std::string out = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"/>\n";
  out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n";
  out += fmt::format("<title>gpuvet trend: {}</title>\n<style>{}</style></head><body>\n", esc(r.run.hostname), kStyle);
  out += header(r);
  out += findings_section(r);
  out += gpu_table(r);
  out += events_table(r);
  out += fmt::format("<h2>Trend lines</h2>\n<p class=\"note\">One point per GPU and {} bucket (means of the samples; error "
                     "counts: growth in the bucket), drawn at the bucket's start; time in hours since {}.</p>\n<div class=\"charts\" id=\"charts\">\n",
                     esc(bucket_text(r.history.bucket_s)), esc(trend_utc(r.history.from_unix_ms)));
  for (const auto& s : trend_series(r)) out += "<figure>" + svg_line_chart(s, 580, 240) + "</figure>\n";
  out += "</div>\n<p class=\"note\">gpuvet trend; schema of the JSON form: " + std::string(kTrendReportSchema) + "</p>\n";
  return out + "</body></html>\n";
}

}  // namespace gpuvet::report
