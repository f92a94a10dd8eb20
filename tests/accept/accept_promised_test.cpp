// `auto` targets come from the machine the spec promises, not the one delivered: an L40S box
// cannot pass an 8x H100 spec's bandwidth clauses against its own smaller envelope, and a 4+4
// NVLink box fails an NVSwitch A100 spec's busbw clauses with both numbers (issue 13).
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <regex>

#include "accept/promised_envelope.hpp"
#include "accept_test_support.hpp"
#include "catalog/gpu_catalog.hpp"
#include "cli_runner.hpp"

namespace gpuvet::accept::testing {
namespace {

using gpuvet::testing::run_cli;

std::string spec_file(const std::string& text) {
  const auto path = std::filesystem::temp_directory_path() /
                    ("gpuvet-promised-" + std::to_string(::getpid()) + "-" +
                     ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".yaml");
  std::ofstream(path) << text;
  return path.string();
}

bool has_line(const std::string& out, const std::string& status, const std::string& clause) {
  return std::regex_search(out, std::regex("\\n  " + status + " +" + std::regex_replace(clause, std::regex("\\."), "\\.") + " "));
}

spec::Spec parsed(const std::string& text) {
  auto spec = spec::parse_spec(text, "t.yaml", catalog::gpu_catalog());
  EXPECT_TRUE(spec.ok()) << spec.error().message;
  return spec.value();
}

TEST(AcceptPromised, EnvelopesFollowTheSpecNotTheMachine) {
  const auto h100 = parsed(gates_only("hgx-h100-8x"));
  const auto host = promised_host_copy(h100, catalog::gpu_catalog());
  ASSERT_TRUE(host.gbps) << host.basis;
  EXPECT_NEAR(*host.gbps, 63.0 * 0.82, 0.5);  // PCIe Gen5 x16, pinned CE copies
  const auto peer = promised_peer_copy(h100, catalog::gpu_catalog());
  ASSERT_TRUE(peer.gbps) << peer.basis;
  EXPECT_NEAR(*peer.gbps, 371, 1);  // 18 links x 25 GB/s through NVSwitch x 371/450
  EXPECT_NE(peer.basis.find("promised H100"), std::string::npos) << peer.basis;
  const auto busbw = promised_busbw(parsed(gates_only("hgx-a100-8x")), catalog::gpu_catalog(), "all_reduce", 8);
  ASSERT_TRUE(busbw.gbps) << busbw.basis;
  EXPECT_NEAR(*busbw.gbps, 230, 5);
  // A partial mesh fixes no pair's path: no promised peer copy, the machine's own envelope rules.
  const auto pcie = promised_peer_copy(parsed(gates_only("l40s-8x")), catalog::gpu_catalog());
  EXPECT_FALSE(pcie.gbps);
}

TEST(AcceptPromised, AnL40sBoxFailsAnH100SpecsAutoBandwidth) {
  const auto spec = spec_file(gates_only("hgx-h100-8x") + "bandwidth: {h2d_gbps: auto, p2p_gbps: auto}\n");
  auto run = run_cli({"accept", "--no-bundle", "--spec", spec, "--sim", "l40s-8x", "--quick"});
  EXPECT_EQ(run.exit_code, 1) << run.out;
  EXPECT_TRUE(has_line(run.out, "FAIL", "bandwidth.h2d")) << run.out;
  EXPECT_TRUE(has_line(run.out, "FAIL", "bandwidth.p2p")) << run.out;
  EXPECT_NE(run.out.find("the promised machine delivers"), std::string::npos) << run.out;
}

TEST(AcceptPromised, A4plus4BoxFailsAnNvswitchSpecsAutoBusbwWithBothNumbers) {
  const auto spec = spec_file(gates_only("hgx-a100-8x") + "collectives:\n  all_reduce: {all: auto}\n");
  auto run = run_cli({"accept", "--no-bundle", "--spec", spec, "--sim", "nvlink-4plus4-8x", "--quick"});
  EXPECT_EQ(run.exit_code, 1) << run.out;
  EXPECT_TRUE(has_line(run.out, "FAIL", "collectives.all_reduce.all")) << run.out;
  const auto flowed = std::regex_replace(run.out, std::regex("\\s+"), " ");  // text wraps at 120 columns
  EXPECT_TRUE(std::regex_search(flowed, std::regex("below 80 % of the 2[0-9][0-9] GB/s the promised machine delivers")))
      << run.out;
}

TEST(AcceptPromised, TheMachinePromisedStillPasses) {
  const auto spec = spec_file(gates_only("hgx-h100-8x") +
                              "bandwidth: {h2d_gbps: auto, p2p_gbps: auto}\ncollectives:\n  all_reduce: {2: auto, all: auto}\n");
  auto run = run_cli({"accept", "--no-bundle", "--spec", spec, "--sim", "hgx-h100-8x", "--quick"});
  EXPECT_TRUE(has_line(run.out, "PASS", "bandwidth.h2d")) << run.out;
  EXPECT_TRUE(has_line(run.out, "PASS", "bandwidth.p2p")) << run.out;
  EXPECT_TRUE(has_line(run.out, "PASS", "collectives.all_reduce.2")) << run.out;
  EXPECT_TRUE(has_line(run.out, "PASS", "collectives.all_reduce.all")) << run.out;
}

}  // namespace
}  // namespace gpuvet::accept::testing
