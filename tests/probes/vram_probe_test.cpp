// The VRAM probe keeps every GPU's outcome, failures included.
#include <gtest/gtest.h>

#include "probes/vram_probe.hpp"

namespace gpuvet::probes {
namespace {

class VramBackend final : public api::CopyBackend {
 public:
  std::string describe() const override { return "scripted"; }
  bool simulated() const override { return true; }
  core::Result<std::vector<api::DeviceInfo>> devices() override {
    return std::vector<api::DeviceInfo>{{0, "G0", "", 0}, {1, "G1", "", 0}};
  }
  core::Result<std::vector<int>> host_numa_nodes() override { return std::vector<int>{0}; }
  core::Result<bool> can_access_peer(int, int) override { return true; }
  core::Result<std::vector<double>> copy_sample(const api::CopyRequest&) override { return std::vector<double>{}; }
  core::Result<double> latency_sample(const api::LatencyRequest&) override { return 0.0; }
  core::Result<core::VramCheck> verify_vram(const api::VramRequest& r) override {
    seeds.push_back(r.seed);
    if (r.gpu == 0) return core::environment_error("GPU 0: cudaErrorLaunchFailure");
    core::VramCheck c;
    c.gpu = r.gpu;
    c.total_bytes = 80ull << 30;
    c.tested_bytes = 79ull << 30;
    return c;
  }
  std::vector<std::uint64_t> seeds;
};

TEST(VramProbe, FailedGpuIsRecordedAndOthersRun) {
  VramBackend backend;
  VramOptions options;
  options.seed = 77;
  auto run = run_vram_check(backend, options).value();
  ASSERT_EQ(run.gpus.size(), 2u);
  EXPECT_EQ(run.seed, 77u);
  EXPECT_EQ(backend.seeds, (std::vector<std::uint64_t>{77, 77}));
  EXPECT_TRUE(run.gpus[0].error);
  EXPECT_EQ(run.gpus[0].name, "G0");
  EXPECT_FALSE(run.gpus[0].tested_bytes);
  EXPECT_FALSE(run.gpus[1].error);
}

}  // namespace
}  // namespace gpuvet::probes
