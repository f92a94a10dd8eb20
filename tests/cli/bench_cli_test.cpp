// gpuvet bench end to end on the simulator: text, JSON with the matrices, exit codes, and the
// live path's clear environment error on a machine without a GPU.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli_runner.hpp"

namespace gpuvet::testing {
namespace {

TEST(BenchCli, SimulatedHealthyMachinePasses) {
  const auto run = run_cli({"bench", "host", "--sim", "hgx-h100-8x", "--samples", "3"});
  EXPECT_EQ(run.exit_code, 0) << run.out << run.err;
  EXPECT_NE(run.out.find("SIMULATED"), std::string::npos);
  EXPECT_NE(run.out.find("host_to_device_memcpy_ce (GB/s)"), std::string::npos);
  EXPECT_NE(run.out.find("expected >= 51.67 per cell"), std::string::npos);
  EXPECT_NE(run.out.find("Verdict: PASS"), std::string::npos);
}

TEST(BenchCli, JsonCarriesMatricesWithAbsentCellsAsNull) {
  const auto run = run_cli({"bench", "p2p", "--sim", "hgx-h100-8x", "--fault", "p2p-disabled:gpu=3", "--samples", "2",
                            "--gpus", "0,3", "--json"});
  EXPECT_EQ(run.exit_code, 1) << run.err;
  const auto j = nlohmann::json::parse(run.out);
  EXPECT_EQ(j["command"], "bench");
  const auto& runs = j["measurements"]["bandwidth"];
  ASSERT_EQ(runs.size(), 1u);
  const auto& read = runs[0]["matrices"][0];
  EXPECT_EQ(read["testcase"], "device_to_device_memcpy_read_ce");
  EXPECT_EQ(read["column_labels"], nlohmann::json({"0", "3"}));
  EXPECT_TRUE(read["values"][0][1].is_null());
  EXPECT_NE(read["absent"]["0,3"].get<std::string>().find("no P2P"), std::string::npos);
  bool staged = false;
  for (const auto& mx : runs[0]["matrices"]) staged = staged || mx["testcase"] == "device_to_device_staged_memcpy_ce";
  EXPECT_TRUE(staged);
  EXPECT_EQ(j["findings"][0]["code"], "p2p_unavailable");
}

TEST(BenchCli, VramFaultFailsNamingTheGpu) {
  const auto run = run_cli({"bench", "vram", "--sim", "hgx-h100-8x", "--fault", "vram-bad:gpu=6,offset_gib=17.5"});
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_NE(run.out.find("vram_errors"), std::string::npos);
  EXPECT_NE(run.out.find("GPU 6"), std::string::npos);
}

TEST(BenchCli, BadArgumentsAreUsageErrors) {
  EXPECT_EQ(run_cli({"bench", "disk", "--sim", "hgx-h100-8x"}).exit_code, 2);
  EXPECT_EQ(run_cli({"bench", "host", "--sim", "hgx-h100-8x", "--gpus", "0,x"}).exit_code, 2);
  EXPECT_EQ(run_cli({"bench", "host", "--sim", "hgx-h100-8x", "--gpus", "9"}).exit_code, 2);
  EXPECT_EQ(run_cli({"bench", "host", "--fault", "vram-short:gpu=1,gib=2"}).exit_code, 2);
  EXPECT_EQ(run_cli({"bench", "host", "--sim", "hgx-h100-8x", "--fault", "vram-short:gpu=1,gib=500"}).exit_code, 2);
}

TEST(BenchCli, LiveMachineWithoutGpuIsAnEnvironmentError) {
  // This test machine (and CI) has no NVIDIA driver: CUDA cannot start, or the build has no CUDA.
  const auto run = run_cli({"bench", "host"});
  EXPECT_EQ(run.exit_code, 4) << run.out << run.err;
  EXPECT_NE(run.err.find("cannot measure this machine"), std::string::npos) << run.err;
}

}  // namespace
}  // namespace gpuvet::testing
