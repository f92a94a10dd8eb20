// The bandwidth and VRAM stages of accept on simulated machines: the clean 8x H100 passes, and
// each copy or memory fault fails its own clause only.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>

#include <unistd.h>

#include "accept_test_support.hpp"
#include "cli_runner.hpp"

namespace gpuvet::accept::testing {
namespace {

using gpuvet::testing::run_cli;

std::string spec_file(const std::string& extra) {
  const auto path = std::filesystem::temp_directory_path() /
                    ("gpuvet-copy-stages-" + std::to_string(::getpid()) + "-" +
                     ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".yaml");
  std::ofstream(path) << gates_only("hgx-h100-8x") << extra;
  return path.string();
}

const std::string kAuto = "bandwidth: {h2d_gbps: auto, p2p_gbps: auto}\nvram: {min_fraction: 0.95}\n";

bool has_line(const std::string& out, const std::string& status, const std::string& clause) {
  return std::regex_search(out, std::regex("\\n  " + status + " +" + std::regex_replace(clause, std::regex("\\."), "\\.") + " "));
}

TEST(AcceptCopyStages, CleanH100PassesBandwidthAndVram) {
  auto run = run_cli({"accept", "--spec", spec_file(kAuto), "--sim", "hgx-h100-8x", "--quick"});
  EXPECT_EQ(run.exit_code, 0) << run.out << run.err;
  EXPECT_TRUE(has_line(run.out, "PASS", "bandwidth.h2d")) << run.out;
  EXPECT_TRUE(has_line(run.out, "PASS", "bandwidth.p2p")) << run.out;
  EXPECT_TRUE(has_line(run.out, "PASS", "vram")) << run.out;
}

TEST(AcceptCopyStages, AutoClausesCarryTheEnvelopeForComparisons) {
  const auto out = (std::filesystem::temp_directory_path() / ("gpuvet-copy-target-" + std::to_string(::getpid()))).string();
  std::filesystem::remove_all(out);
  auto run = run_cli({"accept", "--spec", spec_file(kAuto), "--sim", "hgx-h100-8x", "--quick", "--out", out});
  ASSERT_EQ(run.exit_code, 0) << run.out;
  auto compare = run_cli({"compare", out, out});
  // % of the envelope, not a bare PASS: the lowest peer copy against the NVSwitch envelope.
  EXPECT_TRUE(std::regex_search(compare.out, std::regex("bandwidth\\.p2p +PASS 1[01][0-9]\\.[0-9] %"))) << compare.out;
  EXPECT_TRUE(std::regex_search(compare.out, std::regex("bandwidth\\.h2d +PASS [0-9]+\\.[0-9] %"))) << compare.out;
  std::filesystem::remove_all(out);
}

TEST(AcceptCopyStages, EachFaultFailsItsOwnClause) {
  const auto spec = spec_file(kAuto);
  auto vram = run_cli({"accept", "--spec", spec, "--sim", "hgx-h100-8x", "--quick", "--fault", "vram-short:gpu=4,gib=60"});
  EXPECT_EQ(vram.exit_code, 1);
  EXPECT_TRUE(has_line(vram.out, "FAIL", "vram")) << vram.out;
  EXPECT_TRUE(has_line(vram.out, "PASS", "bandwidth.p2p")) << vram.out;
  auto p2p = run_cli({"accept", "--spec", spec, "--sim", "hgx-h100-8x", "--quick", "--fault", "p2p-disabled:gpu=3"});
  EXPECT_EQ(p2p.exit_code, 1);
  EXPECT_TRUE(has_line(p2p.out, "FAIL", "bandwidth.p2p")) << p2p.out;
  EXPECT_TRUE(has_line(p2p.out, "PASS", "bandwidth.h2d")) << p2p.out;
  auto host = run_cli({"accept", "--spec", spec, "--sim", "hgx-h100-8x", "--quick", "--fault", "pcie-degraded:gpu=2,width=8"});
  EXPECT_TRUE(has_line(host.out, "FAIL", "bandwidth.h2d")) << host.out;
  EXPECT_TRUE(has_line(host.out, "PASS", "bandwidth.p2p")) << host.out;
}

TEST(AcceptCopyStages, AFloorAboveWhatTheMachineDeliversFails) {
  auto run = run_cli({"accept", "--spec", spec_file("bandwidth: {h2d_gbps: 60, p2p_gbps: auto}\n"), "--sim", "hgx-h100-8x", "--quick"});
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_NE(run.out.find("below the floor of 60 GB/s"), std::string::npos) << run.out;
}

}  // namespace
}  // namespace gpuvet::accept::testing
