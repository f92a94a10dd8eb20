// gpuvet_baseline_*: with --baseline, /metrics exports each GPU's acceptance steady state
// (temperature, SM clock, power) so Prometheus rules can judge baseline_drift without the daemon.
// Exported for a GPU that is lost now (the bundle's values do not go stale), left out for a GPU
// the bundle has no burn-in results for, and a value the bundle lacks is left out, never 0.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "metrics_test_snapshot.hpp"
#include "monitor/metrics_exposition.hpp"

namespace gpuvet::monitor {
namespace {

std::string gpu_labels(int gpu) {
  return "{gpu=\"" + std::to_string(gpu) + "\",uuid=\"GPU-0000000" + std::to_string(gpu) +
         "-aaaa-bbbb-cccc-dddddddddddd\",pci_bus_id=\"00000000:" + std::to_string(10 + gpu) +
         ":00.0\",model=\"NVIDIA H100 80GB HBM3\",hostname=\"node-a\"}";
}

bool has_line(const std::string& text, const std::string& line) {
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) {
    if (l == line) return true;
  }
  return false;
}

int series_count(const std::string& text, const std::string& name) {
  int n = 0;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) n += l.rfind(name + "{", 0) == 0 ? 1 : 0;
  return n;
}

TEST(MetricsBaseline, AcceptanceSteadyStateAsGaugesInBaseUnits) {
  const std::string text = render_metrics(testing::full_snapshot(), {});
  EXPECT_TRUE(has_line(text, "# TYPE gpuvet_baseline_temperature_celsius gauge"));
  EXPECT_TRUE(has_line(text, "gpuvet_baseline_temperature_celsius" + gpu_labels(0) + " 68")) << text;
  EXPECT_TRUE(has_line(text, "gpuvet_baseline_temperature_celsius" + gpu_labels(3) + " 69.5"));
  EXPECT_TRUE(has_line(text, "gpuvet_baseline_sm_clock_hertz" + gpu_labels(0) + " 1980000000"));
  EXPECT_TRUE(has_line(text, "gpuvet_baseline_power_watts" + gpu_labels(0) + " 690"));
}

TEST(MetricsBaseline, LostGpuKeepsItsBaselineAndUnknownIsLeftOut) {
  const std::string text = render_metrics(testing::full_snapshot(), {});
  // GPU 5 is lost: its readings are left out, the bundle's values are not readings.
  EXPECT_FALSE(has_line(text, "gpuvet_gpu_temperature_celsius" + gpu_labels(5) + " 65"));
  EXPECT_TRUE(has_line(text, "gpuvet_baseline_temperature_celsius" + gpu_labels(5) + " 70.5"));
  // GPUs 6 and 7: no burn-in results in the bundle; GPU 1: no power chart.
  EXPECT_EQ(series_count(text, "gpuvet_baseline_temperature_celsius"), 6);
  EXPECT_EQ(series_count(text, "gpuvet_baseline_sm_clock_hertz"), 6);
  EXPECT_EQ(series_count(text, "gpuvet_baseline_power_watts"), 5);
  EXPECT_EQ(text.find("gpuvet_baseline_power_watts" + gpu_labels(1)), std::string::npos);
}

TEST(MetricsBaseline, WithoutBaselineNoFamilyIsWritten) {
  MonitorSnapshot snapshot = testing::full_snapshot();
  for (auto& gpu : snapshot.gpus) gpu.baseline.reset();
  const std::string text = render_metrics(snapshot, {});
  EXPECT_EQ(text.find("gpuvet_baseline_"), std::string::npos);
}

}  // namespace
}  // namespace gpuvet::monitor
