// The NVML telemetry source against the fake libnvidia-ml.so.1 (tests/backends/nvml/fake). The
// minimal build (an old driver) exports no temperature, power, utilization, field-value or event
// entry points: the source must probe that once, report each with the reason, never call again,
// and still read what the fake does support. The full build serves the simulator's production
// model through those entry points: every reading the model has is present.
#include <gtest/gtest.h>

#include <algorithm>

#include "backends/nvml/nvml_telemetry.hpp"
#include "cli/cli_runner.hpp"

namespace gpuvet::testing {
namespace {

std::string reason_of(const std::vector<core::UnsupportedField>& fields, const std::string& name) {
  for (const auto& f : fields) {
    if (f.field == name) return f.reason;
  }
  return "";
}

TEST(NvmlTelemetry, ProbesOnceAndDegradesWithReasons) {
  auto source = nvml::open_nvml_telemetry(GPUVET_FAKE_NVML_MINIMAL);
  ASSERT_TRUE(source) << source.error().message;
  EXPECT_FALSE(source.value()->simulated());
  auto gpus = source.value()->gpus();
  ASSERT_TRUE(gpus);
  ASSERT_EQ(gpus->size(), 8u);
  EXPECT_EQ(gpus->at(0).name.value_or(""), "NVIDIA H100 80GB HBM3");
  EXPECT_TRUE(gpus->at(0).pci_bus_id.known());
  EXPECT_FALSE(gpus->at(0).shutdown_temp_c.known());
  EXPECT_NE(gpus->at(0).shutdown_temp_c.reason().find("nvmlDeviceGetTemperatureThreshold"), std::string::npos);

  const auto unsupported = source.value()->probe(0);
  EXPECT_NE(reason_of(unsupported, "gpu_temp_c").find("nvmlDeviceGetTemperature"), std::string::npos);
  EXPECT_NE(reason_of(unsupported, "power_w").find("nvmlDeviceGetPowerUsage not exported"), std::string::npos);
  EXPECT_NE(reason_of(unsupported, "mem_temp_c").find("nvmlDeviceGetFieldValues not exported"), std::string::npos);
  EXPECT_NE(reason_of(unsupported, "pcie_replays"), "");
  EXPECT_NE(reason_of(unsupported, "nvlink"), "");
  EXPECT_NE(reason_of(unsupported, "util_gpu_pct"), "");
  EXPECT_EQ(reason_of(unsupported, "util_gpu_pct"), reason_of(unsupported, "util_mem_pct"));
  EXPECT_NE(reason_of(unsupported, "xid_events"), "");
  EXPECT_EQ(reason_of(unsupported, "pstate"), "");          // the fake serves this one

  const auto s = source.value()->sample(0, 1.0);
  EXPECT_EQ(s.gpu, 0);
  EXPECT_FALSE(s.gpu_temp_c.known());
  EXPECT_EQ(s.gpu_temp_c.reason(), reason_of(unsupported, "gpu_temp_c"));
  EXPECT_FALSE(s.nvlink.known());
  EXPECT_TRUE(s.pstate.known());
  EXPECT_FALSE(s.tflops.known());
  EXPECT_TRUE(source.value()->drain_events(1.0).empty());
}

TEST(NvmlTelemetry, ReadsTheFakesLiveReadings) {
  unsetenv("GPUVET_FAKE_NVML_FAULTS");
  auto source = nvml::open_nvml_telemetry(GPUVET_FAKE_NVML_FULL);
  ASSERT_TRUE(source) << source.error().message;
  auto gpus = source.value()->gpus();
  ASSERT_TRUE(gpus);
  EXPECT_TRUE(gpus->at(0).shutdown_temp_c.known()) << gpus->at(0).shutdown_temp_c.reason();
  const auto unsupported = source.value()->probe(0);
  for (const char* served : {"gpu_temp_c", "mem_temp_c", "sm_clock_mhz", "power_w", "energy_j", "util_gpu_pct",
                             "ecc_corrected", "pcie_replays", "nvlink"}) {
    EXPECT_EQ(reason_of(unsupported, served), "") << served;
  }
  EXPECT_EQ(reason_of(unsupported, "xid_events"), "");  // Xids through the fake's event set
  const auto s = source.value()->sample(0, 1.0);
  ASSERT_TRUE(s.gpu_temp_c.known()) << s.gpu_temp_c.reason();
  EXPECT_GT(*s.gpu_temp_c, 20.0);
  ASSERT_TRUE(s.power_w.known()) << s.power_w.reason();
  EXPECT_GT(*s.power_w, 50.0);  // the production model keeps every GPU under load
  ASSERT_TRUE(s.util_gpu_pct.known());
  EXPECT_GT(*s.util_gpu_pct, 50.0);
  ASSERT_TRUE(s.nvlink.known()) << s.nvlink.reason();
  EXPECT_FALSE(s.nvlink->empty());
  EXPECT_TRUE(s.nvlink->front().crc_flit.known());
}

TEST(NvmlTelemetry, MissingLibraryIsAnEnvironmentError) {
  auto source = nvml::open_nvml_telemetry("/nonexistent/libnvidia-ml.so.1");
  ASSERT_FALSE(source);
  EXPECT_EQ(source.error().kind, core::ErrorKind::environment);
}

TEST(NvmlTelemetry, LiveBurninWithoutAGemmBackendIsAnEnvironmentError) {
  // NVML (the fake) answers, but there is no CUDA driver here: exit 4, nothing measured.
  setenv("GPUVET_NVML_LIBRARY", GPUVET_FAKE_NVML_FULL, 1);
  const auto run = run_cli({"burnin", "--duration", "10s", "--db", "/nonexistent-dir/x.db"});
  unsetenv("GPUVET_NVML_LIBRARY");
  EXPECT_EQ(run.exit_code, 4) << run.out << run.err;
  EXPECT_NE(run.err.find("cannot load this machine's GPUs"), std::string::npos) << run.err;
}

}  // namespace
}  // namespace gpuvet::testing

namespace gpuvet::testing {
namespace {

// Framebuffer use, the PCIe link (current per sample, maximum read once when the source opens)
// and the remapped rows, from the fake's production model: a link downtrained from t=0 on GPU 2.
TEST(NvmlTelemetry, ReadsMemoryPcieLinkAndRemappedRows) {
  setenv("GPUVET_FAKE_NVML_FAULTS", "pcie-degraded:gpu=2,gen=4,width=8,at=0s", 1);
  auto source = nvml::open_nvml_telemetry(GPUVET_FAKE_NVML_FULL);
  unsetenv("GPUVET_FAKE_NVML_FAULTS");
  ASSERT_TRUE(source) << source.error().message;
  const auto unsupported = source.value()->probe(2);
  for (const char* served : {"fb_used_bytes", "fb_total_bytes", "pcie_link_gen", "pcie_link_width", "pcie_link_gen_max",
                             "pcie_link_width_max", "remapped_rows_correctable", "remapped_rows_uncorrectable",
                             "remap_failed", "remap_pending"}) {
    EXPECT_EQ(reason_of(unsupported, served), "") << served;
  }
  const auto bad = source.value()->sample(2, 1.0);
  ASSERT_TRUE(bad.fb_total_bytes.known()) << bad.fb_total_bytes.reason();
  EXPECT_EQ(*bad.fb_total_bytes, std::uint64_t{81559} << 20);  // H100 80GB HBM3: 81559 MiB
  ASSERT_TRUE(bad.fb_used_bytes.known());
  EXPECT_GT(*bad.fb_used_bytes, *bad.fb_total_bytes / 2);  // under load
  EXPECT_LT(*bad.fb_used_bytes, *bad.fb_total_bytes);
  EXPECT_EQ(bad.pcie_link_gen, core::Reading<int>(4));
  EXPECT_EQ(bad.pcie_link_width, core::Reading<int>(8));
  EXPECT_EQ(bad.pcie_link_gen_max, core::Reading<int>(5));
  EXPECT_EQ(bad.pcie_link_width_max, core::Reading<int>(16));
  EXPECT_EQ(bad.remapped_rows_correctable, core::Reading<std::uint64_t>(0));
  EXPECT_EQ(bad.remapped_rows_uncorrectable, core::Reading<std::uint64_t>(0));
  EXPECT_EQ(bad.remap_failed, core::Reading<bool>(false));
  (void)source.value()->probe(0);
  const auto good = source.value()->sample(0, 1.0);
  EXPECT_EQ(good.pcie_link_gen, core::Reading<int>(5));
  EXPECT_EQ(good.pcie_link_width, core::Reading<int>(16));
}

// An old driver (the minimal fake) has no nvmlDeviceGetRemappedRows: the four columns it fills are
// unsupported with the reason; memory info (v1) and the PCIe link calls are still read.
TEST(NvmlTelemetry, OldDriverLacksRemappedRows) {
  auto source = nvml::open_nvml_telemetry(GPUVET_FAKE_NVML_MINIMAL);
  ASSERT_TRUE(source) << source.error().message;
  const auto unsupported = source.value()->probe(0);
  for (const char* column : {"remapped_rows_correctable", "remapped_rows_uncorrectable", "remap_failed", "remap_pending"}) {
    EXPECT_NE(reason_of(unsupported, column).find("nvmlDeviceGetRemappedRows"), std::string::npos) << column;
  }
  EXPECT_EQ(reason_of(unsupported, "fb_used_bytes"), "");
  EXPECT_EQ(reason_of(unsupported, "pcie_link_gen"), "");
  const auto s = source.value()->sample(0, 1.0);
  EXPECT_TRUE(s.fb_total_bytes.known()) << s.fb_total_bytes.reason();
  EXPECT_TRUE(s.pcie_link_gen_max.known()) << s.pcie_link_gen_max.reason();
  EXPECT_FALSE(s.remap_failed.known());
}

}  // namespace
}  // namespace gpuvet::testing
