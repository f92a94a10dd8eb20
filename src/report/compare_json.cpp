// compare as JSON: unknown numbers are null, never zero.
#include "report/compare_json.hpp"

#include <nlohmann/json.hpp>

namespace gpuvet::report {

namespace {

using nlohmann::ordered_json;

ordered_json opt(const std::optional<double>& v) { return v ? ordered_json(*v) : ordered_json(nullptr); }

}  // namespace

std::string render_compare_json(const accept::CompareTable& t) {
  ordered_json bundles = ordered_json::array();
  for (std::size_t i = 0; i < t.labels.size(); ++i) {
    bundles.push_back({{"label", t.labels[i]}, {"verdict", core::to_string(t.verdicts[i])}, {"machine", t.machines[i]}});
  }
  ordered_json measured = ordered_json::array();
  for (const auto& row : t.metrics) {
    ordered_json cells = ordered_json::array();
    for (const auto& c : row.cells) {
      cells.push_back({{"value", opt(c.value)},
                       {"text", c.text.empty() ? ordered_json(nullptr) : ordered_json(c.text)},
                       {"spec_target", opt(c.spec_target)},
                       {"percent_of_spec", opt(c.percent_of_spec)},
                       {"percent_of_best", opt(c.percent_of_best)},
                       {"best", c.best}});
    }
    measured.push_back({{"id", row.id},
                        {"title", row.title},
                        {"unit", row.unit},
                        {"better", accept::to_string(row.better)},
                        {"cells", cells},
                        {"winner", row.winner.empty() ? ordered_json(nullptr) : ordered_json(row.winner)},
                        {"why", row.why}});
  }
  ordered_json clauses = ordered_json::array();
  for (const auto& row : t.rows) {
    ordered_json cells = ordered_json::array();
    for (const auto& c : row.cells) {
      cells.push_back({{"present", c.present},
                       {"status", c.present ? ordered_json(accept::to_string(c.status)) : ordered_json(nullptr)},
                       {"percent_of_spec", opt(c.percent)},
                       {"observed", c.observed}});
    }
    clauses.push_back({{"id", row.id}, {"title", row.title}, {"differs", row.differs}, {"cells", cells}});
  }
  const ordered_json j{{"schema", kCompareSchema}, {"bundles", bundles}, {"measured", measured}, {"clauses", clauses}};
  return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace gpuvet::report
