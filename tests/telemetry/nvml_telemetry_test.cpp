// The NVML telemetry source against the fake libnvidia-ml.so.1 (tests/backends/nvml/fake), which
// serves a simulated HGX H100 through the real NVML ABI but exports no temperature, power or
// event entry points and answers NOT_SUPPORTED for the memory-temperature, PCIe-replay and NVLink
// error fields: the source must probe that once, report it with the reason, never call again,
// and still read what the fake does support.
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
  auto source = nvml::open_nvml_telemetry(GPUVET_FAKE_NVML_FULL);
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
  EXPECT_EQ(reason_of(unsupported, "mem_temp_c"), "not supported on this GPU");
  EXPECT_EQ(reason_of(unsupported, "pcie_replays"), "not supported on this GPU");
  EXPECT_NE(reason_of(unsupported, "nvlink"), "");
  EXPECT_NE(reason_of(unsupported, "util_gpu_pct"), "");
  EXPECT_EQ(reason_of(unsupported, "util_gpu_pct"), reason_of(unsupported, "util_mem_pct"));
  EXPECT_NE(reason_of(unsupported, "xid_events"), "");
  EXPECT_EQ(reason_of(unsupported, "pstate"), "");          // the fake serves these
  EXPECT_EQ(reason_of(unsupported, "remap_pending"), "");

  const auto s = source.value()->sample(0, 1.0);
  EXPECT_EQ(s.gpu, 0);
  EXPECT_FALSE(s.gpu_temp_c.known());
  EXPECT_EQ(s.gpu_temp_c.reason(), reason_of(unsupported, "gpu_temp_c"));
  EXPECT_FALSE(s.nvlink.known());
  EXPECT_TRUE(s.pstate.known());
  EXPECT_TRUE(s.remap_pending.known());
  EXPECT_FALSE(s.tflops.known());
  EXPECT_TRUE(source.value()->drain_events(1.0).empty());
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
