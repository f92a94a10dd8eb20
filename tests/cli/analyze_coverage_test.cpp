// Issue 17, review r4 finding 5: an input that says it was trimmed or cut gets the gpu_missing
// warning a trimmed -q -x gets, and one that judged nothing about the machine is incomplete.
// Issue 20: a verdict resting on the GPUs such an input shows is incomplete too (exit 3, was 0).
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli_runner.hpp"

namespace gpuvet::testing {
namespace {

using nlohmann::json;

std::string read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::string write_temp(const std::string& name, const std::string& text) {
  const auto dir = std::filesystem::temp_directory_path() / ("gpuvet-analyze-coverage-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto path = (dir / name).string();
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

json gpu_missing_of(const json& report) {
  for (const auto& f : report["findings"]) {
    if (f["code"] == "gpu_missing") return f;
  }
  return nullptr;
}

TEST(AnalyzeCoverage, ElidedNvlinkStatusWarnsGpusMissing) {
  const auto r = run_cli({"analyze", "--json", fixture("nvlink/8x-h800-nvlink-status-8links-gpus2-6-elided.txt")});
  ASSERT_EQ(r.exit_code, 3) << r.err;
  EXPECT_NE(json::parse(r.out)["unverified"].dump().find("GPUs 2-6 not seen"), std::string::npos) << r.out;
  const auto f = gpu_missing_of(json::parse(r.out));
  ASSERT_FALSE(f.is_null()) << r.out;
  EXPECT_EQ(f["severity"], "warn");
  EXPECT_EQ(f["gpus"], json::array({2, 3, 4, 5, 6}));
  EXPECT_NE(f["message"].get<std::string>().find("at least 8 GPUs"), std::string::npos) << f;
}

TEST(AnalyzeCoverage, DefaultTableCutShortWarnsGpusMissing) {
  // The review's cut: the 8x H100 table stopped inside GPU 4's block.
  const auto full = read(fixture("corpus/smi-table/8x-h100-sxm5-80gb-default-table-565-thamada.txt"));
  const auto at = full.find("|   4  NVIDIA H100");
  ASSERT_NE(at, std::string::npos);
  const auto path = write_temp("table-cut.txt", full.substr(0, full.find('\n', at) + 1));
  const auto r = run_cli({"analyze", "--json", path});
  ASSERT_EQ(r.exit_code, 3) << r.err << r.out;
  const auto f = gpu_missing_of(json::parse(r.out));
  ASSERT_FALSE(f.is_null()) << r.out;
  EXPECT_EQ(f["severity"], "warn");
  EXPECT_NE(f["message"].get<std::string>().find("the table is cut short"), std::string::npos) << f;
}

TEST(AnalyzeCoverage, CutNvlinkRemoteListWarnsGpusMissing) {
  const auto r = run_cli(
      {"analyze", "--json", fixture("corpus/other/8x-h100-nvlink-R-remote-devices-nvswitch-nccl-1182-truncated.txt")});
  ASSERT_EQ(r.exit_code, 3) << r.err;
  const auto f = gpu_missing_of(json::parse(r.out));
  ASSERT_FALSE(f.is_null()) << r.out;
  EXPECT_EQ(f["severity"], "warn");
}

TEST(AnalyzeCoverage, InputsThatJudgeNothingAreIncomplete) {
  for (const char* file : {"nvlink/h800-gpu0-nvlink-gt-d-idle.txt", "nvlink/h800-gpu0-nvlink-gt-d-during-training.txt",
                           "corpus/nvlink/dcgmi-nvlink-e-gpu0-link0-head-9-gcm.txt",
                           "corpus/other/4x-gb200-nvlink-info-firmware-k8s-test-infra-371-truncated.txt"}) {
    SCOPED_TRACE(file);
    const auto r = run_cli({"analyze", "--json", fixture(file)});
    EXPECT_EQ(r.exit_code, 3) << r.err << r.out;
    const auto report = json::parse(r.out);
    EXPECT_EQ(report["verdict"], "incomplete");
    EXPECT_NE(report["unverified"].dump().find("the machine was not judged"), std::string::npos) << report["unverified"];
  }
  // A complete nvlink -s of several GPUs judges their links: no such sentence.
  const auto s = run_cli({"analyze", "--json", fixture("corpus/nvlink/8x-dcgmi-nvlink-s-12-links-up-no-nvswitches-found-gcm.txt")});
  EXPECT_EQ(json::parse(s.out)["unverified"].dump().find("the machine was not judged"), std::string::npos) << s.out;
}

TEST(AnalyzeCoverage, OneInterconnectStoryPerReport) {
  // Review r4 finding 7: the headline says PCIe only (RTX 4090 has no NVLink); the collective
  // judge must not say the interconnect is unknown.
  const auto r = run_cli({"analyze", fixture("nccl/6x-rtx4090-pcie-p2p-patched-allreduce-single-size.txt")});
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_NE(r.out.find("class: pcie_only"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("interconnect is unknown"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace gpuvet::testing
