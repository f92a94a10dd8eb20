// Comparison page: verdict and machine rows, then one row per clause; cells coloured by result,
// rows where the machines differ highlighted.
#include "report/html_compare.hpp"

#include <fmt/format.h>

#include "report/html_escape.hpp"
#include "report/html_report.hpp"

namespace gpuvet::report {

std::string render_compare_html(const accept::CompareTable& t) {
  std::string out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n";
  out += fmt::format("<meta http-equiv=\"Content-Security-Policy\" content=\"{}\"/>\n", kHtmlCsp);
  out += "<title>gpuvet compare</title>\n<style>body{font-family:sans-serif;margin:24px;color:#222}"
         "table{border-collapse:collapse;font-size:13px}th,td{border:1px solid #ccc;padding:4px 8px;text-align:left}"
         "th{background:#f3f3f3}tr.differs{background:#fff2cc}td.pass{color:#274e13}td.fail{color:#990000;font-weight:bold}"
         "td.not_run{color:#7f6000}td.absent{color:#999}td.best{background:#d9ead3;font-weight:bold}</style>\n</head>\n<body>\n<h1>gpuvet compare</h1>\n";
  out += "<h2>Measured side by side</h2>\n<table id=\"measured\">\n<tr><th>Measure</th><th>Better</th>";
  for (const auto& label : t.labels) out += "<th>" + xml_escape(label) + "</th>";
  out += "<th>Wins</th><th>Why</th></tr>\n";
  for (const auto& row : t.metrics) {
    out += fmt::format("<tr><td>{}{}</td><td>{}</td>", xml_escape(row.title), row.unit.empty() ? "" : " (" + xml_escape(row.unit) + ")",
                       accept::to_string(row.better));
    for (const auto& cell : row.cells) {
      const char* cls = !cell.value && cell.text.empty() ? "absent" : cell.best && !row.winner.empty() ? "best" : "";
      out += fmt::format("<td class=\"{}\">{}</td>", cls, xml_escape(accept::metric_cell_text(row, cell)));
    }
    out += fmt::format("<td>{}</td><td>{}</td></tr>\n", xml_escape(row.winner.empty() ? "-" : row.winner), xml_escape(row.why));
  }
  out += "</table>\n<p>spec %: the number as % of what that bundle's own spec asked; % of best: against the best bundle of "
         "the row; \"not measured\" is never counted as a loss.</p>\n<h2>Spec clauses</h2>\n";
  out += "<table id=\"compare\">\n<tr><th>Clause</th>";
  for (const auto& label : t.labels) out += "<th>" + xml_escape(label) + "</th>";
  out += "</tr>\n<tr><th>Verdict</th>";
  for (auto v : t.verdicts) out += fmt::format("<td class=\"{0}\"><b>{0}</b></td>", core::to_string(v));
  out += "</tr>\n<tr><th>Machine</th>";
  for (const auto& m : t.machines) out += "<td>" + xml_escape(m) + "</td>";
  out += "</tr>\n";
  for (const auto& row : t.rows) {
    out += fmt::format("<tr{}><td><code>{}</code> {}</td>", row.differs ? " class=\"differs\"" : "", xml_escape(row.id),
                       xml_escape(row.title));
    for (const auto& cell : row.cells) {
      const std::string cls = cell.present ? std::string(accept::to_string(cell.status)) : "absent";
      out += fmt::format("<td class=\"{}\" title=\"{}\">{}</td>", cls, xml_escape(cell.observed), xml_escape(accept::cell_text(cell)));
    }
    out += "</tr>\n";
  }
  out += "</table>\n<p>Percentages: the measured value as % of what the spec expects. Highlighted rows: the machines differ "
         "(result, presence, or more than 5 points).</p>\n</body>\n</html>\n";
  return out;
}

}  // namespace gpuvet::report
