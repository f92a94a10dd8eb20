// Command-line behaviour: exit codes, usage errors, JSON contract fields.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "cli_runner.hpp"

using gpuvet::testing::fixture;
using gpuvet::testing::run_cli;
using nlohmann::json;

TEST(Cli, HelpDocumentsExitCodes) {
  const auto r = run_cli({"--help"});
  EXPECT_EQ(r.exit_code, 0);
  for (const char* line : {"0  pass", "1  fail", "2  usage or bad input", "3  incomplete", "4  environment", "5  internal"}) {
    EXPECT_NE(r.out.find(line), std::string::npos) << line;
  }
}

TEST(Cli, NoSubcommandIsUsageError) { EXPECT_EQ(run_cli({}).exit_code, 2); }
TEST(Cli, UnknownOptionIsUsageError) { EXPECT_EQ(run_cli({"inspect", "--bogus"}).exit_code, 2); }

TEST(Cli, UnknownProfileNamesTheChoices) {
  const auto r = run_cli({"inspect", "--sim", "no-such-profile"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("hgx-h100-8x"), std::string::npos) << r.err;
}

TEST(Cli, FaultWithoutSimIsUsageError) {
  EXPECT_EQ(run_cli({"inspect", "--fault", "gpu-missing:gpu=1"}).exit_code, 2);
}

TEST(Cli, BadExpectValueIsUsageError) {
  EXPECT_EQ(run_cli({"inspect", "--sim", "hgx-h100-8x", "--expect", "infiniband"}).exit_code, 2);
}

TEST(Cli, MissingDriverIsEnvironmentError) {
  setenv("GPUVET_NVML_LIBRARY", "/nonexistent/libnvidia-ml.so.1", 1);
  const auto r = run_cli({"inspect", "--sysfs-root", fixture("sysfs/workstation")});
  unsetenv("GPUVET_NVML_LIBRARY");
  EXPECT_EQ(r.exit_code, 4) << r.err;
  // The GPUs on the PCI bus tell "driver missing" apart from "no GPU here".
  EXPECT_NE(r.err.find("2 NVIDIA GPU(s) on the PCI bus but NVML cannot be used"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--sim hgx-h100-8x"), std::string::npos) << r.err;
  EXPECT_EQ(run_cli({"inspect", "--sysfs-root", "/nonexistent-root"}).exit_code, 2);
}

TEST(Cli, SimulatedDefaultPassesAndSaysItIsSimulated) {
  const auto r = run_cli({"inspect", "--sim", "hgx-h100-8x", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = json::parse(r.out);
  EXPECT_EQ(j["schema"], "gpuvet.machine/1");
  EXPECT_TRUE(j["simulated"].get<bool>());
  EXPECT_EQ(j["gpus"].size(), 8u);
  for (const char* key : {"index", "name", "numa_node", "vbios", "memory_total_mib", "pci_bus_id"}) {
    EXPECT_TRUE(j["gpus"][0].contains(key)) << key;
  }
  EXPECT_EQ(j["interconnect"]["class"], "nvswitch_full_mesh");
  EXPECT_EQ(j["links"]["matrix"][0][1], "NV18");
  EXPECT_TRUE(j["nics"].is_array());
  for (const auto& f : j["findings"]) {
    for (const char* key : {"code", "severity", "gpus", "message"}) EXPECT_TRUE(f.contains(key)) << key;
  }
}

TEST(Cli, FailingFindingExitsOne) {
  EXPECT_EQ(run_cli({"inspect", "--sim", "hgx-h100-8x", "--fault", "nvlink-down:gpu=3,link=2"}).exit_code, 1);
  EXPECT_EQ(run_cli({"inspect", "--sim", "nvlink-4plus4-8x", "--expect", "nvlink"}).exit_code, 1);
}

TEST(Cli, AnalyzeMissingFileIsUsageError) {
  const auto r = run_cli({"analyze", "/nonexistent/topo.txt"});
  EXPECT_EQ(r.exit_code, 2);
}

TEST(Cli, AnalyzeMalformedFileNamesFileAndLine) {
  const auto r = run_cli({"analyze", fixture("malformed/topo-unknown-cell.txt")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("topo-unknown-cell.txt"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("line"), std::string::npos) << r.err;
}

TEST(Cli, AnalyzeMergesTopoAndQuery) {
  const auto r = run_cli({"analyze", "--json", fixture("topo/8x-a100-sxm4-40gb-nv12-17nic-1numa.txt"),
                          fixture("smi-q/8x-a100-sxm4-40gb-nvidia-smi-a.txt")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = json::parse(r.out);
  EXPECT_EQ(j["gpus"].size(), 8u);
  EXPECT_EQ(j["gpus"][0]["name"], "NVIDIA A100-SXM4-40GB");
  EXPECT_EQ(j["gpus"][0]["vbios"], "92.00.36.00.04");
  EXPECT_EQ(j["gpus"][0]["numa_node"], 0);
  EXPECT_EQ(j["interconnect"]["class"], "nvswitch_full_mesh");
}

TEST(Cli, SimListNamesEveryProfileAndFault) {
  const auto r = run_cli({"sim", "list"});
  ASSERT_EQ(r.exit_code, 0);
  for (const char* name : {"hgx-h100-8x", "h800-8x", "hgx-a100-8x", "hgx-h100-4x", "dgx1-v100", "a100-pcie-4x-bridged",
                           "l40s-8x", "rtx4090-8x", "nvlink-4plus4-8x", "nvlink-down", "pcie-degraded", "mixed-batch",
                           "gpu-missing", "numa-misplaced"}) {
    EXPECT_NE(r.out.find(name), std::string::npos) << name;
  }
}

TEST(Cli, FindingsDocIsGeneratedFromTheCatalogue) {
  const auto r = run_cli({"findings", "--markdown"});
  ASSERT_EQ(r.exit_code, 0);
  std::ifstream in(std::string(GPUVET_DOCS) + "/findings.md");
  std::ostringstream doc;
  doc << in.rdbuf();
  EXPECT_EQ(doc.str(), r.out) << "docs/findings.md is stale: regenerate with gpuvet findings --markdown > docs/findings.md";
}

TEST(Cli, UnverifiableExpectationMakesTheVerdictIncomplete) {
  // A pasted topo -m has no memory sizes: --expect-memory cannot be checked, so no pass.
  const auto r = run_cli({"analyze", "--expect-memory", "80", fixture("topo/8x-a100-sxm4-40gb-nv12-17nic-1numa.txt")});
  EXPECT_EQ(r.exit_code, 3) << r.out << r.err;
  EXPECT_NE(r.out.find("Not verified"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("INCOMPLETE"), std::string::npos) << r.out;
}

TEST(Cli, ExpectMemoryBelowIsAFail) {
  const auto r = run_cli({"analyze", "--json", "--expect-memory", "80", fixture("smi-q/8x-a100-sxm4-40gb-nvidia-smi-a.txt")});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.out.find("memory_below_advertised"), std::string::npos);
}

TEST(Cli, AnalyzeNcclTestsLogAddsCollectives) {
  const auto r = run_cli({"analyze", "--json", fixture("nccl/8x-a100-sxm4-40gb-nvswitch-allreduce-superbench.txt")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = json::parse(r.out);
  ASSERT_EQ(j["collectives"].size(), 1u);
  const auto& c = j["collectives"][0];
  EXPECT_EQ(c["op"], "all_reduce");
  EXPECT_EQ(c["ranks"], 8);
  EXPECT_NEAR(c["avg_busbw_gbps"].get<double>(), 68.4048, 0.001);
  EXPECT_NEAR(c["peak_busbw_gbps"].get<double>(), 235.26, 1e-9);
  EXPECT_TRUE(c["wrong"].is_null());  // validation was off (-c 0): unknown, not zero
  EXPECT_NEAR(c["expected_busbw_gbps"].get<double>(), 230.0, 0.01);
}

TEST(Cli, NcclTestsLogAloneIsNotAMachine) {
  // A log alone that judged nothing is incomplete, not a pass (issue 17); its Rank lines give the GPUs.
  const auto r = run_cli({"analyze", fixture("nccl/2x-rtx2080ti-pcie-allreduce-autodl.txt")});
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_NE(r.out.find("no machine description given"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("the machine is not judged"), std::string::npos) << r.out;
}

TEST(Cli, AnalyzeNvbandwidthJudgesCopiesAgainstTheEnvelope) {
  const auto r = run_cli({"analyze", "--json", fixture("nvbandwidth/8x-h800-sxm-nv8-full-run-v0.2.txt")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = json::parse(r.out);
  ASSERT_EQ(j["bandwidth"].size(), 30u);
  const auto& d2d = j["bandwidth"][4];
  EXPECT_EQ(d2d["testcase"], "device_to_device_memcpy_read_ce");
  EXPECT_EQ(d2d["cells"], 56);
  EXPECT_NEAR(d2d["min"].get<double>(), 171.88, 1e-9);
  // 8 H800 on one node: HGX board, 8 NVLinks x 25 GB/s through NVSwitch, x 0.82.
  EXPECT_NEAR(d2d["expected_gbps"].get<double>(), 200.0 * 371.0 / 450.0, 0.01);
}

TEST(Cli, P2pTestWithoutP2pSaysSo) {
  const auto r = run_cli({"analyze", "--json", fixture("p2p/2x-rtx2080ti-pcie-no-p2p-autodl.txt")});
  ASSERT_EQ(r.exit_code, 3) << r.err;  // no copy judged against an envelope: incomplete (issue 17)
  EXPECT_NE(r.out.find("p2p_unavailable"), std::string::npos);
}
