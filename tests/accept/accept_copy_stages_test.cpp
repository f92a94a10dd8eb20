// The bandwidth and VRAM stages of accept on simulated machines: the clean 8x H100 passes, and
// each copy or memory fault fails its own clause only.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>

#include <unistd.h>

#include "accept/copy_stages.hpp"
#include "accept_test_support.hpp"
#include "backends/sim/copy_model.hpp"
#include "backends/sim/sim_state.hpp"
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
  auto run = run_cli({"accept", "--no-bundle", "--spec", spec_file(kAuto), "--sim", "hgx-h100-8x", "--quick"});
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
  // The same bundle twice is refused: against a loose copy of its report.
  const auto copy = out + "-copy.json";
  std::filesystem::copy_file(std::filesystem::path(out) / "report.json", copy, std::filesystem::copy_options::overwrite_existing);
  auto compare = run_cli({"compare", out, copy});
  // % of the envelope, not a bare PASS: the lowest peer copy against the NVSwitch envelope.
  EXPECT_TRUE(std::regex_search(compare.out, std::regex("bandwidth\\.p2p +PASS 1[01][0-9]\\.[0-9] %"))) << compare.out;
  EXPECT_TRUE(std::regex_search(compare.out, std::regex("bandwidth\\.h2d +PASS [0-9]+\\.[0-9] %"))) << compare.out;
  std::filesystem::remove_all(out);
  std::filesystem::remove(copy);
}

TEST(AcceptCopyStages, EachFaultFailsItsOwnClause) {
  const auto spec = spec_file(kAuto);
  auto vram = run_cli({"accept", "--no-bundle", "--spec", spec, "--sim", "hgx-h100-8x", "--quick", "--fault", "vram-short:gpu=4,gib=60"});
  EXPECT_EQ(vram.exit_code, 1);
  EXPECT_TRUE(has_line(vram.out, "FAIL", "vram")) << vram.out;
  EXPECT_TRUE(has_line(vram.out, "PASS", "bandwidth.p2p")) << vram.out;
  auto p2p = run_cli({"accept", "--no-bundle", "--spec", spec, "--sim", "hgx-h100-8x", "--quick", "--fault", "p2p-disabled:gpu=3"});
  EXPECT_EQ(p2p.exit_code, 1);
  EXPECT_TRUE(has_line(p2p.out, "FAIL", "bandwidth.p2p")) << p2p.out;
  EXPECT_TRUE(has_line(p2p.out, "PASS", "bandwidth.h2d")) << p2p.out;
  auto host = run_cli({"accept", "--no-bundle", "--spec", spec, "--sim", "hgx-h100-8x", "--quick", "--fault", "pcie-degraded:gpu=2,width=8"});
  EXPECT_TRUE(has_line(host.out, "FAIL", "bandwidth.h2d")) << host.out;
  EXPECT_TRUE(has_line(host.out, "PASS", "bandwidth.p2p")) << host.out;
}

TEST(AcceptCopyStages, AFloorAboveWhatTheMachineDeliversFails) {
  auto run = run_cli({"accept", "--no-bundle", "--spec", spec_file("bandwidth: {h2d_gbps: 60, p2p_gbps: auto}\n"), "--sim", "hgx-h100-8x", "--quick"});
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_NE(run.out.find("below the floor of 60 GB/s"), std::string::npos) << run.out;
}

// The simulator's copies, except that every copy GPU 3 executes fails (a GPU that errors under load).
class FailingGpu final : public api::CopyBackend {
 public:
  explicit FailingGpu(std::unique_ptr<api::CopyBackend> inner) : inner_(std::move(inner)) {}
  std::string describe() const override { return inner_->describe(); }
  bool simulated() const override { return true; }
  core::Result<std::vector<api::DeviceInfo>> devices() override { return inner_->devices(); }
  core::Result<std::vector<int>> host_numa_nodes() override { return inner_->host_numa_nodes(); }
  core::Result<bool> can_access_peer(int a, int b) override { return inner_->can_access_peer(a, b); }
  core::Result<std::vector<double>> copy_sample(const api::CopyRequest& r) override {
    for (const auto& s : r.streams) {
      if (s.executor == 3) return core::environment_error("GPU 3: CUDA_ERROR_ILLEGAL_ADDRESS (simulated)");
    }
    return inner_->copy_sample(r);
  }
  core::Result<double> latency_sample(const api::LatencyRequest& r) override { return inner_->latency_sample(r); }
  core::Result<core::VramCheck> verify_vram(const api::VramRequest& r) override { return inner_->verify_vram(r); }

 private:
  std::unique_ptr<api::CopyBackend> inner_;
};

TEST(AcceptCopyStages, ACopyThatFailsFailsTheClauseWithAFloorOrAuto) {
  for (const std::string bandwidth : {"bandwidth: {h2d_gbps: auto, p2p_gbps: auto}\n", "bandwidth: {h2d_gbps: 1, p2p_gbps: 1}\n"}) {
    auto state = sim::build_simulation("hgx-h100-8x", {});
    ASSERT_TRUE(state.ok());
    StageProviders p;
    p.bandwidth = make_bandwidth_stage(std::make_shared<FailingGpu>(sim::make_copy_backend(std::move(state).value(), 1)),
                                       probes::BandwidthOptions{});
    auto out = run_on_sim("hgx-h100-8x", {}, gates_only("hgx-h100-8x") + bandwidth, std::move(p));
    for (const char* id : {"bandwidth.h2d", "bandwidth.p2p"}) {
      const auto& c = out.clause(id);
      EXPECT_EQ(c.status, ClauseStatus::fail) << bandwidth << id << ": " << c.reason;
      EXPECT_NE(c.reason.find("CUDA_ERROR_ILLEGAL_ADDRESS"), std::string::npos) << c.reason;
    }
  }
}

}  // namespace
}  // namespace gpuvet::accept::testing
