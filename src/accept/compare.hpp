// Offers side by side (`gpuvet compare`): the measured numbers ranked (compare_metrics.hpp), and for
// each clause of any report, each machine's result
// and headline number as % of what the spec expects, and whether the machines differ there.
// Pure; rendered by the CLI (text) and report/markdown_compare.cpp.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "accept/accept_model.hpp"
#include "accept/compare_metrics.hpp"
#include "core/error.hpp"

namespace gpuvet::accept {

struct CompareCell {
  bool present = false;                 // the clause is in this report
  ClauseStatus status = ClauseStatus::not_run;
  std::optional<double> percent;        // measured / target * 100, when both are known
  std::string observed;
};

struct CompareRow {
  std::string id;
  std::string title;
  std::vector<CompareCell> cells;  // one per column
  bool differs = false;            // results differ, a clause is missing, or numbers differ by > 5 points
};

struct CompareTable {
  std::vector<std::string> labels;          // one per report
  std::vector<core::Verdict> verdicts;
  std::vector<std::string> machines;        // machine source per report
  std::vector<CompareRow> rows;             // clauses in first-seen order
  std::vector<MetricRow> metrics;           // the measured numbers side by side, ranked (compare_metrics.hpp)
};

inline constexpr double kCompareDifferencePoints = 5.0;

CompareTable compare_reports(const std::vector<std::pair<std::string, AcceptReport>>& reports);

// "PASS 99.5 %", "FAIL 50.0 %", "NOT RUN", "-" (absent).
std::string cell_text(const CompareCell& cell);

// Checks the text of a report.json against schema gpuvet.accept/1 (docs/json.md) before it is
// parsed: nesting no deeper than core::kMaxNestingDepth, every required field present with its
// type (numbers are numbers, not strings), and the documented words only (verdict pass, fail or
// incomplete; statuses; severities). Fields this version does not know are allowed. The error
// (bad_input) names `file_name` and the field: "b/report.json: stages[2].clauses[0].measured:
// expected a number or null, found string \"42\"".
std::optional<core::Error> check_report_schema(std::string_view text, const std::string& file_name);

}  // namespace gpuvet::accept
