// gpuvet analyze on pastes cut short (issue 17, review r4 findings 2, 4, 8): a cut nvidia-smi -q
// is read up to the cut and keeps its findings; a cut last Rank line of an nccl-tests log names no
// new model or host; a benchmark log cut before its results is incomplete (exit 3), not bad input.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "cli_runner.hpp"

namespace gpuvet::testing {
namespace {

std::string read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Writes the first `bytes` bytes of a fixture to this test's own temporary folder; returns its path.
std::string cut_fixture(const std::string& relative, std::size_t bytes) {
  const auto dir = std::filesystem::temp_directory_path() / ("gpuvet-cut-paste-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto path = (dir / std::filesystem::path(relative).filename()).string();
  std::ofstream(path, std::ios::binary) << read(fixture(relative)).substr(0, bytes);
  return path;
}

bool mentions(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// The 4x A100 -q cut at 60 %: GPU 1's pending row remap still fails the machine, GPU 3 (after the
// cut) is a gpu_missing warning and the note names the cut.
TEST(AnalyzeCutPaste, CutSmiQueryKeepsItsFindings) {
  const std::string name = "smi-q/4x-a100-sxm4-80gb-nvidia-smi-q.txt";
  const auto size = read(fixture(name)).size();
  const auto path = cut_fixture(name, size * 6 / 10);
  const auto run = run_cli({"analyze", path});
  EXPECT_EQ(run.exit_code, 1) << run.out << run.err;
  EXPECT_TRUE(mentions(run.out, "FAIL  row_remap_pending")) << run.out;
  EXPECT_TRUE(mentions(run.out, "GPU 1 has a row remap pending")) << run.out;
  EXPECT_TRUE(mentions(run.out, "WARN  gpu_missing")) << run.out;
  EXPECT_TRUE(mentions(run.out, "The input shows 3 of 4 attached GPUs")) << run.out;
  EXPECT_TRUE(mentions(run.out, "the output is cut after GPU 1")) << run.out;
}

// Every tenth of the 8x H100 -q: read, never "bad input" (it was exit 2 at all ten).
TEST(AnalyzeCutPaste, SmiQueryCutAnywhereIsNotBadInput) {
  const std::string name = "smi-q/8x-h100-sxm5-80gb-hgx-nvidia-smi-q.txt";
  const auto size = read(fixture(name)).size();
  for (std::size_t tenth = 1; tenth < 10; ++tenth) {
    const auto run = run_cli({"analyze", cut_fixture(name, size * tenth / 10)});
    EXPECT_NE(run.exit_code, 2) << tenth << "/10: " << run.err;
    EXPECT_TRUE(mentions(run.out, "truncated")) << tenth << "/10: " << run.out;
  }
}


// The P100 init-failure log cut inside its last Rank line: no mixed inventory from a cut name,
// no second node from a cut host.
TEST(AnalyzeCutPaste, CutLastRankLineMakesNoNewModelOrHost) {
  const std::string name = "corpus/nccl/8x-p100-pcie-nccl1-unhandled-cuda-error-nccl-tests-5.txt";
  const auto by_name = run_cli({"analyze", cut_fixture(name, 276)});
  EXPECT_FALSE(mentions(by_name.out, "mixed_inventory")) << by_name.out;
  EXPECT_FALSE(mentions(by_name.out, "P100-PC on")) << by_name.out;
  const auto by_host = run_cli({"analyze", cut_fixture(name, 368)});
  EXPECT_FALSE(mentions(by_host.out, "2 nodes")) << by_host.out;
  EXPECT_FALSE(mentions(by_host.out, "n: 1 GPU")) << by_host.out;
  EXPECT_TRUE(mentions(by_host.out, "Host node03")) << by_host.out;
}

}  // namespace
}  // namespace gpuvet::testing
