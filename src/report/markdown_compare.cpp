// Markdown comparison table: one column per report, verdict row first, "≠" marks differences.
#include "report/markdown_compare.hpp"

#include <fmt/format.h>

namespace gpuvet::report {

std::string render_compare_markdown(const accept::CompareTable& t) {
  std::string out = "| Clause |";
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
