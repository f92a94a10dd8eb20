// `gpuvet inspect` on the live path (NVML + sysfs), with the fake libnvidia-ml.so.1 serving the
// hgx-h100-8x profile and the hgx-2socket sysfs tree (same bus ids) standing in for the machine.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <nlohmann/json.hpp>

#include "cli_runner.hpp"

using gpuvet::testing::fixture;
using gpuvet::testing::run_cli;
using nlohmann::json;

namespace {

json inspect_live(const char* library, const std::vector<std::string>& extra = {}) {
  setenv("GPUVET_NVML_LIBRARY", library, 1);
  setenv("GPUVET_FAKE_NVML_PROFILE", "hgx-h100-8x", 1);
  std::vector<std::string> args = {"inspect", "--json", "--sysfs-root", fixture("sysfs/hgx-2socket")};
  args.insert(args.end(), extra.begin(), extra.end());
  const auto r = run_cli(args);
  unsetenv("GPUVET_NVML_LIBRARY");
  unsetenv("GPUVET_FAKE_NVML_PROFILE");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return json::parse(r.out);
}

bool has_finding(const json& j, const std::string& code) {
  for (const auto& f : j["findings"]) {
    if (f["code"] == code) return true;
  }
  return false;
}

}  // namespace

TEST(LiveInspect, NvmlAndSysfsMakeOnePicture) {
  const auto j = inspect_live(GPUVET_FAKE_NVML_FULL);
  EXPECT_EQ(j["source"], "live (NVML + sysfs)");
  EXPECT_FALSE(j["simulated"].get<bool>());
  ASSERT_EQ(j["gpus"].size(), 8u);
  EXPECT_EQ(j["gpus"][0]["name"], "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(j["gpus"][3]["pci_bus_id"], "0000:5d:00.0");
  EXPECT_EQ(j["gpus"][4]["numa_node"], 1);
  EXPECT_EQ(j["links"]["matrix"][0][7], "NV18");
  EXPECT_EQ(j["interconnect"]["class"], "nvswitch_full_mesh");
  // NICs come from sysfs, with their PCIe distance to each GPU.
  ASSERT_EQ(j["nics"].size(), 4u);
  EXPECT_EQ(j["nics"][0]["name"], "mlx5_0");
  EXPECT_EQ(j["nics"][0]["gpu_proximity"][0], "PIX");
  EXPECT_EQ(j["nics"][3]["state"], "DOWN");
  EXPECT_TRUE(has_finding(j, "nic_down"));
  EXPECT_EQ(j["numa_nodes"].size(), 2u);
}

TEST(LiveInspect, OldDriverDegradesButStillSeesTheNvSwitchFabric) {
  const auto j = inspect_live(GPUVET_FAKE_NVML_MINIMAL);
  ASSERT_EQ(j["gpus"].size(), 8u);
  EXPECT_TRUE(j["gpus"][0]["remapped_rows_correctable"].is_null());
  EXPECT_NE(j["gpus"][0]["absent"]["remapped_rows_correctable"].get<std::string>().find("nvmlDeviceGetRemappedRows"),
            std::string::npos);
  // nvmlDeviceGetTopologyCommonAncestor is missing: the PCIe cells come from sysfs instead.
  EXPECT_EQ(j["links"]["matrix"][0][7], "NV18");
  EXPECT_EQ(j["interconnect"]["class"], "nvswitch_full_mesh");
}

TEST(LiveInspect, FaultOnTheFakeDriverIsFound) {
  setenv("GPUVET_FAKE_NVML_FAULTS", "nvlink-down:gpu=2,link=5", 1);
  setenv("GPUVET_NVML_LIBRARY", GPUVET_FAKE_NVML_FULL, 1);
  setenv("GPUVET_FAKE_NVML_PROFILE", "hgx-h100-8x", 1);
  const auto r = run_cli({"inspect", "--json", "--sysfs-root", fixture("sysfs/hgx-2socket")});
  unsetenv("GPUVET_FAKE_NVML_FAULTS");
  unsetenv("GPUVET_NVML_LIBRARY");
  unsetenv("GPUVET_FAKE_NVML_PROFILE");
  EXPECT_EQ(r.exit_code, 1) << r.err;
  const auto j = json::parse(r.out);
  EXPECT_EQ(j["links"]["matrix"][2][0], "NV17");
  EXPECT_TRUE(has_finding(j, "nvlink_down"));
}
