// The baseline of `gpuvet trend --baseline BUNDLE_DIR`: the acceptance bundle's report.json, read
// as `gpuvet compare` reads it (bundle/bundle_report.hpp: MANIFEST, --key signature, schema and
// plausible numbers), and from its burn-in stage each GPU's steady state under full load.
#include "cli/trend_baseline.hpp"

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <map>

#include <fmt/format.h>

#include "bundle/bundle_report.hpp"

namespace gpuvet::cli {

namespace {

// The burn-in's own steady state (report.json "steady_state"): the judge's medians under load.
std::vector<analysis::TrendBaselineGpu> from_steady_state(const std::vector<accept::BurninSteadyState>& steady) {
  std::vector<analysis::TrendBaselineGpu> out;
  for (const auto& g : steady) {
    if (!g.median_temp_c && !g.median_sm_clock_mhz && !g.median_power_w) continue;  // nothing measured under load
    out.push_back({g.gpu, g.median_temp_c, g.median_sm_clock_mhz, g.median_power_w});
  }
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.gpu < b.gpu; });
  return out;
}

// Bundles written before report.json carried "steady_state" (gpuvet 0.1.0 pre-releases in the
// field) keep only the burn-in's charts: there the steady state is rebuilt from the charts' titles
// and line names, as those versions wrote them (accept/burnin_stage.cpp).
namespace charts {

struct Chart {
  const char* title;
  std::optional<double> analysis::TrendBaselineGpu::*member;
};
constexpr Chart kCharts[] = {{"GPU temperature", &analysis::TrendBaselineGpu::temp_c},
                             {"SM clock", &analysis::TrendBaselineGpu::sm_clock_mhz},
                             {"Board power", &analysis::TrendBaselineGpu::power_w}};

// "GPU 3" -> 3.
std::optional<int> gpu_of(const std::string& name) {
  constexpr std::string_view kPrefix = "GPU ";
  if (name.rfind(kPrefix, 0) != 0) return std::nullopt;
  int gpu = -1;
  const char* first = name.data() + kPrefix.size();
  const char* last = name.data() + name.size();
  auto [end, ec] = std::from_chars(first, last, gpu);
  if (ec != std::errc() || end != last || gpu < 0) return std::nullopt;
  return gpu;
}

// The median of the points in the second half of the run (the burn-in's steady state: well past
// the warm-up, which is at most 5 min or 10 % of the run).
std::optional<double> steady_state(const std::vector<std::pair<double, double>>& points) {
  if (points.empty()) return std::nullopt;
  double last = 0;
  for (const auto& [t, v] : points) last = std::max(last, t);
  std::vector<double> values;
  for (const auto& [t, v] : points) {
    if (t >= last / 2) values.push_back(v);
  }
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

std::vector<analysis::TrendBaselineGpu> from_charts(const std::vector<accept::SeriesData>& series_list) {
  std::map<int, analysis::TrendBaselineGpu> gpus;
  for (const auto& series : series_list) {
    const auto chart = std::find_if(std::begin(kCharts), std::end(kCharts), [&](const Chart& c) { return series.title == c.title; });
    if (chart == std::end(kCharts)) continue;
    for (std::size_t i = 0; i < series.names.size() && i < series.points.size(); ++i) {
      const auto gpu = gpu_of(series.names[i]);
      if (!gpu) continue;
      gpus[*gpu].gpu = *gpu;
      gpus[*gpu].*(chart->member) = steady_state(series.points[i]);
    }
  }
  std::vector<analysis::TrendBaselineGpu> out;
  for (auto& [gpu, b] : gpus) out.push_back(b);
  return out;
}

}  // namespace charts

}  // namespace

core::Result<analysis::TrendBaseline> baseline_from_report(const accept::AcceptReport& report, const std::string& label) {
  analysis::TrendBaseline baseline;
  baseline.label = label;
  baseline.finished_utc = report.finished_utc;
  baseline.hostname = report.hostname;
  const auto stage = std::find_if(report.stages.begin(), report.stages.end(), [](const accept::StageRecord& s) { return s.id == "burnin"; });
  if (stage == report.stages.end() || stage->status != accept::StageStatus::done ||
      (stage->series.empty() && (!stage->steady_state || stage->steady_state->empty()))) {
    return core::input_error(fmt::format("{}/report.json: no burn-in results (the burn-in stage {}): nothing to compare the history "
                                         "with; give a bundle whose accept run included the burn-in",
                                         label, stage == report.stages.end() ? "is missing" : "did not run to the end"));
  }
  if (stage->steady_state) baseline.gpus = from_steady_state(*stage->steady_state);
  if (baseline.gpus.empty()) baseline.gpus = charts::from_charts(stage->series);
  if (baseline.gpus.empty()) {
    return core::input_error(fmt::format("{}/report.json: the burn-in stage has no per-GPU temperature, SM clock or power chart "
                                         "(\"GPU temperature\", \"SM clock\", \"Board power\"): nothing to compare with",
                                         label));
  }
  return baseline;
}

core::Result<accept::AcceptReport> read_baseline_bundle(const std::string& bundle_dir, const std::string& public_key,
                                                        std::string* seal) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(bundle_dir, ec)) {
    return core::input_error(fmt::format("--baseline {}: not a directory; expected the evidence bundle written by gpuvet accept --out", bundle_dir));
  }
  auto read = bundle::read_bundle_report(bundle_dir, public_key);
  if (!read) return read.error().with_context("--baseline");
  if (seal != nullptr) *seal = read->signature_checked ? "" : read->seal;
  return std::move(read).value().report;
}

core::Result<analysis::TrendBaseline> baseline_for_history(const accept::AcceptReport& report, const std::string& bundle_dir,
                                                           const std::vector<core::GpuTrend>& history_gpus) {
  auto read = baseline_from_report(report, bundle_dir);
  if (!read || !report.identity) return read;
  analysis::TrendBaseline baseline = std::move(read).value();
  // Bundle index -> history index, by UUID where both sides know it. Another machine's burn-in
  // would judge every card against the wrong numbers (an L40S bundle made each H100 "drift"):
  // refused when the bundle's UUIDs are known and none is in the history.
  std::map<int, std::optional<int>> history_index;  // absent: the bundle's card is not in the history
  bool any_common = false, any_compared_by_uuid = false;
  const core::GpuIdentity* first_other = nullptr;
  for (const auto& id : report.identity->gpus) {
    if (!id.uuid.known() || id.uuid->empty()) continue;
    const bool history_knows_uuids = std::all_of(history_gpus.begin(), history_gpus.end(), [](const core::GpuTrend& g) { return !g.uuid.empty(); });
    if (!history_knows_uuids) continue;  // by index, as an old driver's history allows
    any_compared_by_uuid = true;
    const auto same = std::find_if(history_gpus.begin(), history_gpus.end(), [&](const core::GpuTrend& g) { return g.uuid == *id.uuid; });
    if (same != history_gpus.end()) {
      any_common = true;
      history_index[id.index] = same->gpu;
    } else {
      history_index[id.index] = std::nullopt;
      if (!first_other) first_other = &id;
    }
  }
  if (any_compared_by_uuid && !any_common && first_other) {
    const auto at = std::find_if(history_gpus.begin(), history_gpus.end(), [&](const core::GpuTrend& g) { return g.gpu == first_other->index; });
    return core::input_error(fmt::format(
        "--baseline {}: accepted on other GPUs (GPU {} is {} in the bundle{}; no GPU UUID of the bundle is in the history): a "
        "baseline from another machine would judge every card against its numbers; give this machine's acceptance bundle",
        bundle_dir, first_other->index, *first_other->uuid,
        at == history_gpus.end() ? std::string() : fmt::format(", the history's GPU {} is {}", at->gpu, at->uuid)));
  }
  std::vector<analysis::TrendBaselineGpu> renumbered;
  for (auto b : baseline.gpus) {
    const auto it = history_index.find(b.gpu);
    if (it != history_index.end()) {
      if (!it->second) continue;  // that card is not in this history (replaced since the acceptance)
      b.gpu = *it->second;
    }
    renumbered.push_back(b);
  }
  std::sort(renumbered.begin(), renumbered.end(), [](const auto& a, const auto& b) { return a.gpu < b.gpu; });
  baseline.gpus = std::move(renumbered);
  return baseline;
}

core::Result<analysis::TrendBaseline> load_trend_baseline(const std::string& bundle_dir,
                                                          const std::vector<core::GpuTrend>& history_gpus,
                                                          const std::string& public_key, std::string* seal) {
  auto report = read_baseline_bundle(bundle_dir, public_key, seal);
  if (!report) return report.error();
  return baseline_for_history(*report, bundle_dir, history_gpus);
}

std::vector<core::BurninGpu> bundle_gpus(const accept::AcceptReport& report) {
  std::vector<core::BurninGpu> gpus;
  if (!report.identity) return gpus;
  const auto unrecorded = [] { return core::Reading<double>::absent("not in the acceptance bundle's identity"); };
  for (const auto& id : report.identity->gpus) {
    core::BurninGpu g;
    g.index = id.index;
    g.name = id.name;
    g.uuid = id.uuid;
    g.pci_bus_id = id.pci_bus_id;
    g.power_limit_w = unrecorded();
    g.shutdown_temp_c = unrecorded();
    g.slowdown_temp_c = unrecorded();
    g.max_sm_clock_mhz = unrecorded();
    gpus.push_back(std::move(g));
  }
  return gpus;
}

}  // namespace gpuvet::cli
