// /metrics for the framebuffer, PCIe link and remapped-row readings: native families in base units
// (bytes, lanes, generation) and dcgm-exporter's names (MiB) with --dcgm-names; a GPU whose
// driver cannot read them (GPU 7 of the test snapshot: an old driver) has no series, never 0.
#include <gtest/gtest.h>

#include <string>

#include "metrics_test_snapshot.hpp"
#include "monitor/metrics_exposition.hpp"

namespace gpuvet::monitor {
namespace {

bool mentions(const std::string& text, const std::string& needle) { return text.find(needle) != std::string::npos; }

// The value of the first series of `name` for `gpu` (the text after the closing brace), or "".
std::string value_of(const std::string& text, const std::string& name, int gpu, const std::string& extra = "") {
  const std::string head = name + "{gpu=\"" + std::to_string(gpu) + "\",";
  for (std::size_t at = text.find(head); at != std::string::npos; at = text.find(head, at + 1)) {
    const std::size_t eol = text.find('\n', at);
    const std::string line = text.substr(at, eol - at);
    if (!extra.empty() && !mentions(line, extra)) continue;
    return line.substr(line.rfind("} ") + 2);
  }
  return "";
}

TEST(MetricsMemoryLink, NativeFamiliesInBaseUnits) {
  const std::string text = render_metrics(testing::full_snapshot(), {});
  EXPECT_EQ(value_of(text, "gpuvet_framebuffer_used_bytes", 0), "41943040000");
  EXPECT_EQ(value_of(text, "gpuvet_framebuffer_total_bytes", 0), "85520809984");
  EXPECT_EQ(value_of(text, "gpuvet_pcie_link_generation", 2), "4");
  EXPECT_EQ(value_of(text, "gpuvet_pcie_link_generation", 0), "5");
  EXPECT_EQ(value_of(text, "gpuvet_pcie_link_max_generation", 2), "5");
  EXPECT_EQ(value_of(text, "gpuvet_pcie_link_width", 2), "16");
  EXPECT_EQ(value_of(text, "gpuvet_pcie_link_max_width", 2), "16");
  EXPECT_EQ(value_of(text, "gpuvet_remapped_rows_total", 4, "cause=\"correctable\""), "2");
  EXPECT_EQ(value_of(text, "gpuvet_remapped_rows_total", 4, "cause=\"uncorrectable\""), "0");
  EXPECT_EQ(value_of(text, "gpuvet_row_remap_failed", 0), "0");
  EXPECT_TRUE(mentions(text, "# TYPE gpuvet_remapped_rows_total counter\n"));
  EXPECT_TRUE(mentions(text, "# TYPE gpuvet_framebuffer_used_bytes gauge\n"));
  // GPU 7 (old driver): absent, not zero; GPU 5 (lost): stale readings not served.
  EXPECT_EQ(value_of(text, "gpuvet_remapped_rows_total", 7), "");
  EXPECT_EQ(value_of(text, "gpuvet_row_remap_failed", 7), "");
  EXPECT_EQ(value_of(text, "gpuvet_pcie_link_generation", 7), "");
  EXPECT_EQ(value_of(text, "gpuvet_pcie_link_max_generation", 7), "5");
  EXPECT_EQ(value_of(text, "gpuvet_framebuffer_used_bytes", 5), "");
}

TEST(MetricsMemoryLink, DcgmNamesInMiB) {
  const MonitorSnapshot snapshot = testing::full_snapshot();
  EXPECT_FALSE(mentions(render_metrics(snapshot, {}), "DCGM_FI_DEV_FB_USED"));
  const std::string text = render_metrics(snapshot, {true, 0});
  EXPECT_EQ(value_of(text, "DCGM_FI_DEV_FB_USED", 0), "40000");
  EXPECT_EQ(value_of(text, "DCGM_FI_DEV_PCIE_LINK_GEN", 2), "4");
  EXPECT_EQ(value_of(text, "DCGM_FI_DEV_PCIE_LINK_WIDTH", 2), "16");
  EXPECT_EQ(value_of(text, "DCGM_FI_DEV_CORRECTABLE_REMAPPED_ROWS", 4), "2");
  EXPECT_EQ(value_of(text, "DCGM_FI_DEV_UNCORRECTABLE_REMAPPED_ROWS", 4), "0");
  EXPECT_EQ(value_of(text, "DCGM_FI_DEV_ROW_REMAP_FAILURE", 4), "0");
  EXPECT_EQ(value_of(text, "DCGM_FI_DEV_ROW_REMAP_FAILURE", 7), "");
  EXPECT_TRUE(mentions(text, "# TYPE DCGM_FI_DEV_CORRECTABLE_REMAPPED_ROWS counter\n"));
  EXPECT_FALSE(mentions(text, "DCGM_FI_DEV_FB_FREE"));  // needs the driver's reserve, not kept
}

}  // namespace
}  // namespace gpuvet::monitor
