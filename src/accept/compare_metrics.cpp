// The measured rows of `gpuvet compare`: numbers from each report's clauses and burn-in series,
// ranked row by row.
#include "accept/compare_metrics.hpp"
#include "accept/interconnect_observed.hpp"
#include "core/statistics.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include <fmt/format.h>

namespace gpuvet::accept {

namespace {

using Reports = std::vector<std::pair<std::string, AcceptReport>>;

const ClauseResult* find_clause(const AcceptReport& r, std::string_view id) {
  for (const auto* c : all_clauses(r)) {
    if (c->id == id) return c;
  }
  return nullptr;
}

const SeriesData* find_series(const AcceptReport& r, std::string_view unit) {
  for (const auto& s : r.stages) {
    if (s.id != "burnin" || s.status != StageStatus::done) continue;
    for (const auto& series : s.series) {
      if (series.unit == unit && !series.points.empty()) return &series;
    }
  }
  return nullptr;
}

// Per GPU, the median of its points with a positive value (a GPU that did no work has none).
std::vector<double> per_gpu_medians(const SeriesData& s) {
  std::vector<double> out;
  for (const auto& line : s.points) {
    std::vector<double> values;
    for (const auto& p : line) {
      if (p.second > 0) values.push_back(p.second);
    }
    if (!values.empty()) out.push_back(*core::median(values));
  }
  return out;
}

// The clause's headline number, when the clause ran and has one.
MetricRow clause_row(const Reports& reports, const std::string& id, std::string title, Better better) {
  MetricRow row{id, std::move(title), "", better, {}, "", ""};
  for (const auto& [label, r] : reports) {
    MetricCell cell;
    const auto* c = find_clause(r, id);
    if (c != nullptr && c->status != ClauseStatus::not_run && c->measured) {
      cell.value = c->measured;
      if (row.unit.empty()) row.unit = c->unit;
      cell.spec_target = c->target;
      if (c->target && *c->target != 0) cell.percent_of_spec = *c->measured / *c->target * 100.0;
    }
    row.cells.push_back(cell);
  }
  return row;
}

// Interconnect classes from the most to the least bandwidth between GPUs.
int class_rank(const std::string& cls) {
  static const std::map<std::string, int> kRank = {
      {"nvswitch_full_mesh", 4}, {"nvlink_direct_full_mesh", 3}, {"nvlink_partial", 2}, {"pcie_only", 1}};
  const auto it = kRank.find(cls);
  return it == kRank.end() ? 0 : it->second;
}

MetricRow interconnect_row(const Reports& reports) {
  MetricRow row{"interconnect", "Interconnect class", "", Better::higher, {}, "", ""};
  for (const auto& [label, r] : reports) {
    MetricCell cell;
    const auto* c = find_clause(r, "interconnect");
    const std::string cls = c == nullptr ? std::string() : std::string(observed_interconnect_class(c->observed));
    if (c != nullptr && c->status != ClauseStatus::not_run && class_rank(cls) > 0) {
      cell.value = class_rank(cls);
      cell.text = cls;
      // The class alone hides a failed clause (an NVSwitch machine with a link down is still
      // nvswitch_full_mesh): it ranks below the same class that passed, and says so.
      if (c->status == ClauseStatus::fail) {
        *cell.value -= 0.5;
        cell.text += ", clause failed";
      }
    }
    row.cells.push_back(cell);
  }
  return row;
}

MetricRow gpus_row(const Reports& reports) {
  MetricRow row{"gpus", "GPUs", "", Better::none, {}, "", "not ranked: which GPUs each offer has"};
  for (const auto& [label, r] : reports) {
    MetricCell cell;
    const auto* c = find_clause(r, "gpu.model");
    if (c != nullptr && c->status != ClauseStatus::not_run && c->observed != "n/a") {
      cell.text = c->observed;
      const auto* count = find_clause(r, "gpu.count");
      if (count != nullptr && count->status != ClauseStatus::not_run) cell.value = count->measured;  // GPUs the inventory saw
    }
    row.cells.push_back(cell);
  }
  return row;
}

// Burn-in rows from the series: each function gives a report's number or nothing.
template <class Fn>
MetricRow series_row(const Reports& reports, std::string id, std::string title, std::string unit, Better better, Fn value_of) {
  MetricRow row{std::move(id), std::move(title), std::move(unit), better, {}, "", ""};
  for (const auto& [label, r] : reports) {
    MetricCell cell;
    cell.value = value_of(r);
    row.cells.push_back(cell);
  }
  return row;
}

std::optional<double> slowest_tflops(const AcceptReport& r) {
  const auto* s = find_series(r, "TFLOP/s");
  if (s == nullptr) return std::nullopt;
  const auto m = per_gpu_medians(*s);
  if (m.empty()) return std::nullopt;
  return *std::min_element(m.begin(), m.end());
}

std::optional<double> median_tflops(const AcceptReport& r) {
  const auto* s = find_series(r, "TFLOP/s");
  if (s == nullptr) return std::nullopt;
  const auto m = per_gpu_medians(*s);
  if (m.empty()) return std::nullopt;
  return core::median(m);
}

std::optional<double> hottest(const AcceptReport& r) {
  const auto* s = find_series(r, "°C");
  if (s == nullptr) return std::nullopt;
  std::optional<double> peak;
  for (const auto& line : s->points) {
    for (const auto& p : line) peak = std::max(peak.value_or(p.second), p.second);
  }
  return peak;
}

// Share of the burn-in with any GPU throttled: the merged throttled spans over the run's length.
std::optional<double> throttled_percent(const AcceptReport& r) {
  const auto* s = find_series(r, "TFLOP/s");
  if (s == nullptr) return std::nullopt;
  double length = 0;
  const auto* c = find_clause(r, "burnin");
  if (c != nullptr && c->measured && c->unit == "h") length = *c->measured * 3600.0;
  for (const auto& line : s->points) {
    for (const auto& p : line) length = std::max(length, p.first);
  }
  if (length <= 0) return std::nullopt;
  double throttled = 0;
  for (const auto& [from, to] : s->spans) throttled += std::max(0.0, to - from);
  return std::min(100.0, throttled / length * 100.0);
}

std::string number(double v) { return fmt::format("{:.1f}", v); }

// Fills percent_of_best, best, winner and why.
void rank(MetricRow& row, const std::vector<std::string>& labels) {
  if (row.better == Better::none) return;
  std::vector<std::size_t> measured;
  std::string missing;
  for (std::size_t i = 0; i < row.cells.size(); ++i) {
    if (row.cells[i].value) {
      measured.push_back(i);
    } else {
      missing += (missing.empty() ? "" : ", ") + labels[i];
    }
  }
  const std::string missing_note = missing.empty() ? "" : fmt::format("; {} not measured (not counted as a loss)", missing);
  if (measured.empty()) {
    row.why = "no bundle measured it";
    return;
  }
  const bool higher = row.better == Better::higher;
  std::stable_sort(measured.begin(), measured.end(), [&](std::size_t a, std::size_t b) {
    return higher ? *row.cells[a].value > *row.cells[b].value : *row.cells[a].value < *row.cells[b].value;
  });
  const double best = *row.cells[measured.front()].value;
  auto ties_best = [&](double v) { return std::abs(v - best) <= kTieFraction * std::abs(best); };
  std::vector<std::size_t> tied;
  for (auto i : measured) {
    auto& cell = row.cells[i];
    if (best != 0) cell.percent_of_best = *cell.value / best * 100.0;
    cell.best = ties_best(*cell.value);
    if (cell.best) tied.push_back(i);
  }
  const bool words = !row.cells[measured.front()].text.empty();  // interconnect: class names, not numbers
  auto shown = [&](std::size_t i) { return words ? row.cells[i].text : number(*row.cells[i].value) + (row.unit.empty() ? "" : " " + row.unit); };
  if (measured.size() == 1) {
    row.why = fmt::format("only {} measured it{}", labels[measured.front()], missing_note);
    return;
  }
  if (tied.size() > 1) {
    std::string who;
    for (auto i : tied) who += (who.empty() ? "" : ", ") + fmt::format("{} {}", labels[i], shown(i));
    row.winner = "tie";
    row.why = words ? fmt::format("tie: {}", who) : fmt::format("tie: {} (within {:g} %)", who, kTieFraction * 100);
    row.why += missing_note;
    return;
  }
  const std::size_t w = measured[0];
  const std::size_t next = measured[1];
  row.winner = labels[w];
  if (words) {
    row.why = fmt::format("{}: {} ranks above {} ({}): more bandwidth between GPUs", labels[w], shown(w), shown(next), labels[next]);
  } else {
    const double a = *row.cells[w].value;
    const double b = *row.cells[next].value;
    // How far ahead, in the words that read best: points for percentages, "N.Nx" for a multiple,
    // else percent above or below the runner-up.
    std::string ahead;
    if (row.unit == "%") {
      ahead = fmt::format("{:.1f} points {}", std::abs(a - b), higher ? "above" : "below");
    } else if (higher && b > 0 && a / b >= 2) {
      ahead = fmt::format("{:.1f}x", a / b);
    } else {
      ahead = fmt::format("{:.0f} % {}", b != 0 ? std::abs(a - b) / std::abs(b) * 100.0 : 0.0, higher ? "above" : "below");
    }
    row.why = fmt::format("{}: {}, {} {} ({}); {} is better", labels[w], shown(w), ahead, labels[next], number(b),
                          higher ? "higher" : "lower");
  }
  row.why += missing_note;
}

std::string collective_title(const ClauseResult& c) {
  // collectives.<op>.<set>: "all_reduce busbw, all GPUs" / "all_reduce busbw, 2-GPU sets (lowest)".
  const std::string rest = c.id.substr(std::string("collectives.").size());
  const auto dot = rest.rfind('.');
  if (dot == std::string::npos) return c.title;
  const std::string op = rest.substr(0, dot);
  const std::string set = rest.substr(dot + 1);
  return set == "all" ? fmt::format("{} busbw, all GPUs", op) : fmt::format("{} busbw, {}-GPU sets (lowest)", op, set);
}

}  // namespace

std::vector<MetricRow> compare_metrics(const Reports& reports) {
  std::vector<std::string> labels;
  for (const auto& [label, r] : reports) labels.push_back(label);
  std::vector<MetricRow> rows;
  rows.push_back(gpus_row(reports));
  rows.push_back(interconnect_row(reports));
  rows.push_back(clause_row(reports, "bandwidth.h2d", "Host to GPU copy, lowest GPU", Better::higher));
  rows.push_back(clause_row(reports, "bandwidth.p2p", "GPU to GPU copy, lowest pair", Better::higher));
  std::vector<std::string> collectives;  // busbw clauses in first-seen order
  for (const auto& [label, r] : reports) {
    for (const auto* c : all_clauses(r)) {
      if (c->id.rfind("collectives.", 0) == 0 && c->id != "collectives.scaling" &&
          std::find(collectives.begin(), collectives.end(), c->id) == collectives.end()) {
        collectives.push_back(c->id);
        rows.push_back(clause_row(reports, c->id, collective_title(*c), Better::higher));
      }
    }
  }
  rows.push_back(clause_row(reports, "collectives.scaling", "Scaling: busbw on all GPUs vs half", Better::higher));
  rows.push_back(series_row(reports, "burnin.tflops.slowest", "Burn-in GEMM, slowest GPU (median)", "TFLOP/s", Better::higher,
                            slowest_tflops));
  rows.push_back(series_row(reports, "burnin.tflops.median", "Burn-in GEMM per GPU (median of GPUs)", "TFLOP/s",
                            Better::higher, median_tflops));
  rows.push_back(series_row(reports, "burnin.temperature.max", "Hottest GPU (peak minute mean)", "°C", Better::lower, hottest));
  rows.push_back(series_row(reports, "burnin.throttled", "Burn-in time with a GPU throttled", "%", Better::lower,
                            throttled_percent));
  for (auto& row : rows) rank(row, labels);
  return rows;
}

std::string metric_value_text(const MetricRow& /*row*/, const MetricCell& cell) {
  if (!cell.text.empty()) return cell.text;
  if (!cell.value) return "not measured";
  return number(*cell.value);
}

std::string metric_cell_text(const MetricRow& row, const MetricCell& cell) {
  std::string out = metric_value_text(row, cell);
  if (!cell.value || row.better == Better::none) return out;
  if (!cell.text.empty()) return cell.best ? out + " (best)" : out;  // a class name: ranked, not a ratio
  std::vector<std::string> notes;
  if (cell.percent_of_spec) notes.push_back(fmt::format("spec {:.0f} %", *cell.percent_of_spec));
  if (cell.best) {
    notes.emplace_back("best");
  } else if (cell.percent_of_best) {
    notes.push_back(fmt::format("{:.0f} % of best", *cell.percent_of_best));
  }
  if (notes.empty()) return out;
  std::string joined;
  for (const auto& n : notes) joined += (joined.empty() ? "" : ", ") + n;
  return out + " (" + joined + ")";
}

std::string_view to_string(Better better) {
  switch (better) {
    case Better::higher: return "higher";
    case Better::lower: return "lower";
    case Better::none: return "none";
  }
  return "none";
}

}  // namespace gpuvet::accept
