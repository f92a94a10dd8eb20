// The alert evaluator's PCIe link and row-remap rules on synthetic samples: a link below its
// maximum fires pcie_link_degraded for that GPU only (the generation only while the GPU is busy,
// since idle GPUs lower it to save power; a narrow link at any load), after a minute; a failed
// remap fires row_remap_failure; remapped rows growing fire remapped_rows_growing (fail when the
// remaps follow uncorrectable errors); unknown readings fire nothing.
#include <gtest/gtest.h>

#include <vector>

#include "alert_test_samples.hpp"
#include "monitor/alert_evaluator.hpp"

namespace gpuvet::monitor {
namespace {

using testing::gpus;

// Four GPUs at `util` from t0 to t1 (1 s ticks); `edit` changes a sample before it is fed.
template <class Edit>
void feed(AlertEvaluator& ev, double t0, double t1, double util, Edit&& edit) {
  testing::feed_ticks(ev, 4, t0, t1, util, std::forward<Edit>(edit));
}

using Fired = std::vector<std::tuple<std::string, std::vector<int>, core::Severity>>;
Fired fired(const AlertEvaluator& ev) {
  Fired out;
  for (const auto& a : ev.active()) out.emplace_back(a.code, a.gpus, a.severity);
  return out;
}

TEST(AlertMemoryLink, IdleGpusAtGenOneFireNothing) {
  AlertEvaluator ev(gpus(4));
  feed(ev, 0, 300, 0, [](core::TelemetrySample&) {});
  EXPECT_TRUE(fired(ev).empty());
}

TEST(AlertMemoryLink, DowntrainedGenerationFiresOnlyUnderLoadAndAfterAMinute) {
  AlertEvaluator ev(gpus(4));
  const auto gen4_on_gpu2 = [](core::TelemetrySample& s) {
    if (s.gpu == 2) s.pcie_link_gen = 4;
  };
  feed(ev, 0, 300, 10, gen4_on_gpu2);  // idle: Gen 4 of 5 is power saving, not a fault
  EXPECT_TRUE(fired(ev).empty());
  feed(ev, 301, 330, 100, gen4_on_gpu2);
  EXPECT_TRUE(fired(ev).empty()) << "held only 30 s";
  feed(ev, 331, 400, 100, gen4_on_gpu2);
  ASSERT_EQ(fired(ev), (Fired{{"pcie_link_degraded", {2}, core::Severity::warn}}));
  const auto alert = ev.active().front();
  EXPECT_NE(alert.message.find("Gen 4 x16 of Gen 5 x16"), std::string::npos) << alert.message;
  EXPECT_NE(alert.message.find("while busy"), std::string::npos) << alert.message;
  // The job ends: the idle GPU at Gen 1 neither clears nor feeds the episode; back to Gen 5 clears.
  feed(ev, 401, 410, 100, [](core::TelemetrySample&) {});
  EXPECT_TRUE(fired(ev).empty());
}

TEST(AlertMemoryLink, NarrowLinkFailsAtAnyLoad) {
  AlertEvaluator ev(gpus(4));
  feed(ev, 0, 120, 0, [](core::TelemetrySample& s) {
    if (s.gpu == 1) s.pcie_link_width = 8;
  });
  ASSERT_EQ(fired(ev), (Fired{{"pcie_link_degraded", {1}, core::Severity::fail}}));
}

TEST(AlertMemoryLink, UnknownLinkReadingsFireNothing) {
  AlertEvaluator ev(gpus(4));
  feed(ev, 0, 200, 100, [](core::TelemetrySample& s) {
    s.pcie_link_gen = core::Absent{"NVML_ERROR_NOT_SUPPORTED"};
    s.pcie_link_width_max = core::Absent{"NVML_ERROR_NOT_SUPPORTED"};
    s.remap_failed = core::Absent{"NVML_ERROR_NOT_SUPPORTED"};
    s.remapped_rows_correctable = core::Absent{"NVML_ERROR_NOT_SUPPORTED"};
  });
  EXPECT_TRUE(fired(ev).empty());
}

TEST(AlertMemoryLink, FailedRemapAndGrowingRemapsFireForTheirGpu) {
  AlertEvaluator ev(gpus(4));
  feed(ev, 0, 100, 100, [](core::TelemetrySample&) {});
  feed(ev, 101, 200, 100, [](core::TelemetrySample& s) {
    if (s.gpu == 0) s.remap_failed = true;
    if (s.gpu == 3) s.remapped_rows_correctable = std::uint64_t{s.t_s >= 150 ? 2u : 1u};
  });
  EXPECT_EQ(fired(ev), (Fired{{"remapped_rows_growing", {3}, core::Severity::warn},
                              {"row_remap_failure", {0}, core::Severity::fail}}));
  feed(ev, 201, 210, 100, [](core::TelemetrySample& s) {
    if (s.gpu == 0) s.remap_failed = true;
    if (s.gpu == 3) s.remapped_rows_correctable = std::uint64_t{2};
    if (s.gpu == 3) s.remapped_rows_uncorrectable = std::uint64_t{s.t_s >= 205 ? 1u : 0u};
  });
  const Fired now = fired(ev);
  ASSERT_EQ(now.size(), 2u);
  EXPECT_EQ(now[0], (std::tuple<std::string, std::vector<int>, core::Severity>{"remapped_rows_growing", {3}, core::Severity::fail}));
  // Quiet for longer than the window: the growth alert clears, the failed remap stays.
  feed(ev, 211, 1200, 100, [](core::TelemetrySample& s) {
    if (s.gpu == 0) s.remap_failed = true;
    if (s.gpu == 3) s.remapped_rows_correctable = std::uint64_t{2};
    if (s.gpu == 3) s.remapped_rows_uncorrectable = std::uint64_t{1};
  });
  EXPECT_EQ(fired(ev), (Fired{{"row_remap_failure", {0}, core::Severity::fail}}));
}

}  // namespace
}  // namespace gpuvet::monitor
