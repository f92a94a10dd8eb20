// The baseline of `gpuvet trend --baseline BUNDLE_DIR`: the acceptance bundle's report.json, read
// as `gpuvet compare` reads it (only once the bundle matches its MANIFEST, checked against its
// schema), and from its burn-in charts each GPU's steady state under full load.
#include "cli/trend_baseline.hpp"

#include <algorithm>
#include <charconv>
#include <filesystem>

#include <fmt/format.h>

#include "accept/accept_json.hpp"
#include "accept/compare.hpp"
#include "bundle/bundle_dir.hpp"

namespace gpuvet::cli {

namespace {

// The burn-in chart titles (accept/burnin_stage.cpp) and where each goes.
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

}  // namespace

core::Result<analysis::TrendBaseline> baseline_from_report(const accept::AcceptReport& report, const std::string& label) {
  analysis::TrendBaseline baseline;
  baseline.label = label;
  baseline.finished_utc = report.finished_utc;
  baseline.hostname = report.hostname;
  const auto stage = std::find_if(report.stages.begin(), report.stages.end(), [](const accept::StageRecord& s) { return s.id == "burnin"; });
  if (stage == report.stages.end() || stage->status != accept::StageStatus::done || stage->series.empty()) {
    return core::input_error(fmt::format("{}/report.json: no burn-in results (the burn-in stage {}): nothing to compare the history "
                                         "with; give a bundle whose accept run included the burn-in",
                                         label, stage == report.stages.end() ? "is missing" : "did not run to the end"));
  }
  std::map<int, analysis::TrendBaselineGpu> gpus;
  for (const auto& series : stage->series) {
    const auto chart = std::find_if(std::begin(kCharts), std::end(kCharts), [&](const Chart& c) { return series.title == c.title; });
    if (chart == std::end(kCharts)) continue;
    for (std::size_t i = 0; i < series.names.size() && i < series.points.size(); ++i) {
      const auto gpu = gpu_of(series.names[i]);
      if (!gpu) continue;
      gpus[*gpu].gpu = *gpu;
      gpus[*gpu].*(chart->member) = steady_state(series.points[i]);
    }
  }
  if (gpus.empty()) {
    return core::input_error(fmt::format("{}/report.json: the burn-in stage has no per-GPU temperature, SM clock or power chart "
                                         "(\"GPU temperature\", \"SM clock\", \"Board power\"): nothing to compare with",
                                         label));
  }
  for (auto& [gpu, b] : gpus) baseline.gpus.push_back(b);
  return baseline;
}

core::Result<analysis::TrendBaseline> load_trend_baseline(const std::string& bundle_dir,
                                                          const std::vector<core::GpuTrend>& history_gpus) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(bundle_dir, ec)) {
    return core::input_error(fmt::format("--baseline {}: not a directory; expected the evidence bundle written by gpuvet accept --out", bundle_dir));
  }
  const std::string file = (fs::path(bundle_dir) / "report.json").string();
  auto text = bundle::read_verified_file(bundle_dir, "report.json");
  if (!text) return text.error().with_context("--baseline");
  if (auto e = accept::check_report_schema(*text, file)) return *e;
  auto report = accept::parse_report_json(*text, file);
  if (!report) return report.error();
  // Another machine's burn-in would judge every card against the wrong numbers (an L40S bundle
  // made each H100 "drift"): refuse it when the bundle's identity names other GPUs.
  if (report->identity) {
    for (const auto& id : report->identity->gpus) {
      if (!id.uuid.known() || id.uuid->empty()) continue;
      const auto here = std::find_if(history_gpus.begin(), history_gpus.end(), [&](const core::GpuTrend& g) { return g.gpu == id.index; });
      if (here == history_gpus.end() || here->uuid.empty() || here->uuid == *id.uuid) continue;
      return core::input_error(fmt::format(
          "--baseline {}: accepted on other GPUs (GPU {} is {} in the bundle, {} in the history): a baseline from another "
          "machine would judge every card against its numbers; give this machine's acceptance bundle",
          bundle_dir, id.index, *id.uuid, here->uuid));
    }
  }
  return baseline_from_report(*report, bundle_dir);
}

}  // namespace gpuvet::cli
