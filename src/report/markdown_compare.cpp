// Markdown comparison table: one column per report, verdict row first, "≠" marks differences.
#include "report/markdown_compare.hpp"

#include <fmt/format.h>

namespace gpuvet::report {

namespace {

std::string md(std::string_view text) {
  std::string out;
  for (char ch : text) out += ch == '|' ? std::string("\\|") : std::string(1, ch);
  return out;
}

// The measured numbers, one row per metric, with the winner and why.
std::string metrics_markdown(const accept::CompareTable& t) {
  std::string out = "## Measured side by side\n\n| Measure | Unit | Better |";
  std::string rule = "|---|---|---|";
  for (const auto& label : t.labels) {
    out += " " + md(label) + " |";
    rule += "---|";
  }
  out += " Wins | Why |\n" + rule + "---|---|\n";
  for (const auto& row : t.metrics) {
    out += fmt::format("| {} | {} | {} |", md(row.title), row.unit.empty() ? "-" : md(row.unit), accept::to_string(row.better));
    for (const auto& cell : row.cells) {
      const auto text = md(accept::metric_cell_text(row, cell));
      out += cell.best && !row.winner.empty() ? " **" + text + "** |" : " " + text + " |";
    }
    out += fmt::format(" {} | {} |\n", row.winner.empty() ? "-" : md(row.winner), md(row.why));
  }
  out += "\nspec %: the number as % of what that bundle's own spec asked; % of best: against the best bundle of the row; "
         "\"not measured\" is never counted as a loss.\n\n## Spec clauses\n\n";
  return out;
}

}  // namespace

std::string render_compare_markdown(const accept::CompareTable& t) {
  std::string out = metrics_markdown(t) + "| Clause |";
  std::string rule = "|---|";
  for (const auto& label : t.labels) {
    out += " " + label + " |";
    rule += "---|";
  }
  out += "\n" + rule + "\n| **Verdict** |";
  for (auto v : t.verdicts) out += fmt::format(" **{}** |", core::to_string(v));
  out += "\n| Machine |";
  for (const auto& m : t.machines) out += " " + m + " |";
  out += "\n";
  for (const auto& row : t.rows) {
    out += row.differs ? fmt::format("| **`{}` ≠** |", row.id) : fmt::format("| `{}` |", row.id);
    for (const auto& cell : row.cells) {
      const auto text = accept::cell_text(cell);
      out += row.differs ? " **" + text + "** |" : " " + text + " |";
    }
    out += "\n";
  }
  out += "\nPercentages are the measured value as % of what the spec expects; ≠ marks clauses where the machines differ "
         "(result, presence, or more than 5 points).\n";
  return out;
}

}  // namespace gpuvet::report
