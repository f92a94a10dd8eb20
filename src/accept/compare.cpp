// Builds the comparison table of several accept reports.
#include "accept/compare.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace gpuvet::accept {

CompareTable compare_reports(const std::vector<std::pair<std::string, AcceptReport>>& reports) {
  CompareTable t;
  for (const auto& [label, r] : reports) {
    t.labels.push_back(label);
    t.verdicts.push_back(r.verdict);
    t.machines.push_back(r.machine_source);
    for (const auto* c : all_clauses(r)) {
      auto it = std::find_if(t.rows.begin(), t.rows.end(), [&](const CompareRow& row) { return row.id == c->id; });
      if (it == t.rows.end()) {
        t.rows.push_back({c->id, c->title, std::vector<CompareCell>(reports.size()), false});
      }
    }
  }
  for (size_t col = 0; col < reports.size(); ++col) {
    for (const auto* c : all_clauses(reports[col].second)) {
      auto& cell = std::find_if(t.rows.begin(), t.rows.end(), [&](const CompareRow& row) { return row.id == c->id; })->cells[col];
      cell.present = true;
      cell.status = c->status;
      cell.observed = c->observed;
      if (c->measured && c->target && *c->target != 0) cell.percent = *c->measured / *c->target * 100.0;
    }
  }
  for (auto& row : t.rows) {
    const auto& first = row.cells.front();
    double lo = 1e300;
    double hi = -1e300;
    for (const auto& cell : row.cells) {
      if (!cell.present || cell.status != first.status || cell.present != first.present) row.differs = true;
      if (cell.percent) {
        lo = std::min(lo, *cell.percent);
        hi = std::max(hi, *cell.percent);
      }
    }
    if (hi >= lo && hi - lo > kCompareDifferencePoints) row.differs = true;
  }
  return t;
}

std::string cell_text(const CompareCell& cell) {
  if (!cell.present) return "-";
  const char* word = cell.status == ClauseStatus::pass ? "PASS" : cell.status == ClauseStatus::fail ? "FAIL" : "NOT RUN";
  return cell.percent ? fmt::format("{} {:.1f} %", word, *cell.percent) : std::string(word);
}

}  // namespace gpuvet::accept
