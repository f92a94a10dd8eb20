// Every command's text output fits 120 columns: help of every command, the simulator's machines
// with faults, pasted fixtures, benchmarks, burn-in, accept, compare and plan. Lines are measured
// in display columns (UTF-8 code points, ANSI escapes excluded); stdout and stderr both count.
#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>

#include <unistd.h>

#include "cli_runner.hpp"
#include "report/text_wrap.hpp"

using gpuvet::testing::fixture;
using gpuvet::testing::run_cli;

namespace {

namespace fs = std::filesystem;

constexpr size_t kWidth = 120;

// The lines of `text` wider than kWidth, with their width.
std::string too_wide(const std::string& text) {
  std::string out;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    const size_t w = gpuvet::report::display_width(line);
    if (w > kWidth) out += "  [" + std::to_string(w) + "] " + line + "\n";
  }
  return out;
}

void expect_fits(const std::vector<std::string>& args) {
  const auto r = run_cli(args);
  std::string shown;
  for (const auto& a : args) shown += a + " ";
  EXPECT_NE(r.exit_code, 5) << shown << r.err;
  EXPECT_EQ(too_wide(r.out), "") << "stdout of gpuvet " << shown;
  EXPECT_EQ(too_wide(r.err), "") << "stderr of gpuvet " << shown;
}

class TextWidth : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("gpuvet-width-" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  fs::path dir_;
};

}  // namespace

TEST(TextWidthHelp, EveryCommandsHelpFits) {
  expect_fits({"--help"});
  for (const char* command : {"inspect", "analyze", "sim", "findings", "burnin", "report", "nccl", "bench", "spec", "accept",
                              "verify", "compare", "plan", "keygen", "help"}) {
    expect_fits({command, "--help"});
  }
  for (const char* nested : {"list", "init", "check"}) expect_fits({"spec", nested, "--help"});
  expect_fits({"sim", "list", "--help"});
}

TEST(TextWidthSim, MachinesAndFaultsFit) {
  expect_fits({"sim", "list"});
  expect_fits({"findings"});
  expect_fits({"spec", "list"});
  for (const char* profile : {"hgx-h100-8x", "nvlink-4plus4-8x", "dgx1-v100", "l40s-8x", "a100-pcie-4x-bridged", "rtx4090-8x"}) {
    expect_fits({"inspect", "--sim", profile, "--expect", "nvswitch", "--expect-memory", "96"});
  }
  expect_fits({"inspect", "--sim", "hgx-h100-8x", "--fault", "mixed-batch:gpu=3,vbios=96.00.99.00.01", "--fault",
               "pcie-degraded:gpu=2,gen=3,width=8", "--fault", "numa-misplaced:gpu=1,node=1", "--fault", "nvlink-down:gpu=4,link=2"});
  expect_fits({"bench", "all", "--sim", "hgx-h100-8x", "--fault", "slow-link:a=1,b=6,factor=0.5", "--samples", "3"});
  expect_fits({"nccl", "--sim", "hgx-h100-8x", "--scaling", "--fault", "straggler:gpu=3,factor=0.6"});
  expect_fits({"nccl", "--sim", "nvlink-4plus4-8x", "--scaling"});
  expect_fits({"burnin", "--sim", "hgx-h100-8x", "--duration", "10m", "--fault", "thermal-throttle:gpu=2,at=2m", "--fault",
               "xid:gpu=5,code=79,at=5m"});
  expect_fits({"plan", "--list-models"});
  expect_fits({"plan", "--model", "llama-3-70b", "--tokens", "1e12", "--offer", "hgx-h100-8x", "--offer", "nvlink-4plus4-8x"});
}

TEST(TextWidthFixtures, PastedOutputsFit) {
  expect_fits({"analyze", fixture("topo/8x-a100-sxm4-40gb-nv12-17nic-1numa.txt"), fixture("smi-q/8x-h100-sxm5-80gb-hgx-nvidia-smi-q.txt")});
  expect_fits({"analyze", fixture("topo/3gpu-mixed-rtx3090-plus-2x-v100-sxm2-nv6-homelab.txt")});
  expect_fits({"analyze", fixture("topo/8x-h800-or-a800-nv8-4nic-2numa-no-gpu-numa-id.txt"),
               fixture("nvbandwidth/8x-h800-sxm-nv8-full-run-v0.2.txt")});
  expect_fits({"analyze", fixture("nccl/2node-16x-h100-sxm-gcp-a3mega-allreduce.txt")});
  expect_fits({"analyze", fixture("p2p/4x-rtx6000ada-pcie-asus-esc8000a.txt")});
  expect_fits({"analyze", fixture("nvlink/8x-h800-nvlink-status-8links-gpus2-6-elided.txt")});
}

TEST_F(TextWidth, AcceptAndCompareFit) {
  expect_fits({"spec", "init", "--template", "hgx-h100-8x", "-o", path("spec.yaml")});
  expect_fits({"spec", "check", path("spec.yaml")});
  expect_fits({"accept", "--spec", path("spec.yaml"), "--sim", "hgx-h100-8x", "--fault", "straggler:gpu=3,factor=0.6", "--out",
               path("a")});
  expect_fits({"accept", "--spec", path("spec.yaml"), "--sim", "nvlink-4plus4-8x", "--quick", "--out", path("b")});
  expect_fits({"verify", path("a")});
  expect_fits({"compare", path("a"), path("b")});
  expect_fits({"report", "--db", path("a") + "/telemetry.db"});
}
