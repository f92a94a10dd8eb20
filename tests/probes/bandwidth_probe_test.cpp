// The copy probe on a scripted backend: which streams each testcase asks for, medians, and
// failures that stay in their cell.
#include <gtest/gtest.h>

#include "probes/bandwidth_probe.hpp"
#include "probes/copy_sampling.hpp"

namespace gpuvet::probes {
namespace {

// Three GPUs on two NUMA nodes; GPU 2 has no P2P. Rates encode the request so tests can see
// what was asked: executor*100 + streams; samples cycle through +0, +3, -1 (median +0).
class ScriptedBackend final : public api::CopyBackend {
 public:
  std::string describe() const override { return "scripted"; }
  bool simulated() const override { return true; }
  core::Result<std::vector<api::DeviceInfo>> devices() override {
    return std::vector<api::DeviceInfo>{{0, "G0", "0000:01:00.0", 0}, {1, "G1", "0000:02:00.0", 0}, {2, "G2", "0000:81:00.0", 1}};
  }
  core::Result<std::vector<int>> host_numa_nodes() override { return std::vector<int>{0, 1}; }
  core::Result<bool> can_access_peer(int a, int b) override { return a != 2 && b != 2; }
  core::Result<std::vector<double>> copy_sample(const api::CopyRequest& r) override {
    requests.push_back(r);
    if (fail_executor >= 0 && r.streams.front().executor == fail_executor) return core::environment_error(fail_message);
    if (hang_executor >= 0 && r.streams.front().executor == hang_executor) {
      ++hung_calls;
      return core::timeout_error("GPU " + std::to_string(hang_executor) + ": copy sample timed out after 10 ms");
    }
    const double jitter[] = {0, 3, -1};
    std::vector<double> out;
    for (const auto& s : r.streams) out.push_back(s.executor * 100.0 + static_cast<double>(r.streams.size()) + jitter[calls % 3]);
    ++calls;
    return out;
  }
  core::Result<double> latency_sample(const api::LatencyRequest& r) override {
    if (r.executor == hang_executor) {
      ++hung_calls;
      return core::timeout_error("GPU " + std::to_string(hang_executor) + ": latency sample timed out");
    }
    return 1000.0 + r.memory.gpu;
  }
  core::Result<core::VramCheck> verify_vram(const api::VramRequest&) override { return core::environment_error("unused"); }

  std::vector<api::CopyRequest> requests;
  int calls = 0;
  int fail_executor = -1;
  std::string fail_message = "GPU fell off the bus";
  int hang_executor = -1;  // every sample it runs times out
  int hung_calls = 0;
};

const core::BandwidthMatrix& matrix(const core::BandwidthRun& run, const std::string& key) {
  for (const auto& mx : run.matrices) {
    if (mx.testcase == key) return mx;
  }
  throw std::runtime_error("no matrix " + key);
}

TEST(BandwidthProbe, HostSuiteUsesOwnAndFarNodesAndTakesMedians) {
  ScriptedBackend backend;
  BandwidthOptions options;
  options.samples = 3;
  auto run = run_bandwidth_suite(backend, BandwidthSuite::host, options).value();
  EXPECT_EQ(run.tool, "gpuvet");
  EXPECT_EQ(run.device_names.size(), 3u);
  const auto& h2d = matrix(run, "host_to_device_memcpy_ce");
  ASSERT_EQ(h2d.column_labels, (std::vector<std::string>{"0", "1", "2"}));
  EXPECT_DOUBLE_EQ(*h2d.values[0][1], 101.0);  // executor 1, one stream, median of {+0,+3,-1}
  const auto& bidir = matrix(run, "host_to_device_bidirectional_memcpy_ce");
  EXPECT_DOUBLE_EQ(*bidir.values[0][2], 202.0);  // two streams at once
  bool far_on_node1 = false;
  bool far_on_node0 = false;
  for (const auto& r : backend.requests) {
    const auto& s = r.streams.front();
    if (s.src.host && s.dst.gpu == 0 && s.src.numa_node == 1) far_on_node1 = true;
    if (s.src.host && s.dst.gpu == 2 && s.src.numa_node == 0) far_on_node0 = true;
  }
  EXPECT_TRUE(far_on_node1);
  EXPECT_TRUE(far_on_node0);
}

TEST(BandwidthProbe, PeerSuiteMarksPairsWithoutP2pAndMeasuresThemStaged) {
  ScriptedBackend backend;
  BandwidthOptions options;
  options.samples = 1;
  auto run = run_bandwidth_suite(backend, BandwidthSuite::p2p, options).value();
  ASSERT_TRUE(run.p2p_access);
  EXPECT_FALSE((*run.p2p_access)[0][2]);
  const auto& read = matrix(run, "device_to_device_memcpy_read_ce");
  EXPECT_TRUE(read.values[0][1]);
  EXPECT_FALSE(read.values[0][2]);
  EXPECT_NE(read.values[0][2].reason().find("no P2P"), std::string::npos);
  const auto& staged = matrix(run, "device_to_device_staged_memcpy_ce");
  EXPECT_TRUE(staged.values[0][2]);
  EXPECT_FALSE(staged.values[0][1]);
  const auto& latency = matrix(run, "device_to_device_latency_sm");
  EXPECT_EQ(latency.unit, "ns");
  EXPECT_DOUBLE_EQ(*latency.values[1][0], 1000.0);
  const auto& to_one = matrix(run, "all_to_one_write_ce");
  EXPECT_NEAR(*to_one.values[0][0], 100.0 + 1, 3.0);  // only GPU 1 may write into GPU 0 (one stream)
}

TEST(BandwidthProbe, AFailingGpuLeavesItsCellsAbsentAndTheRestMeasured) {
  ScriptedBackend backend;
  backend.fail_executor = 1;
  BandwidthOptions options;
  options.samples = 2;
  auto run = run_bandwidth_suite(backend, BandwidthSuite::memory, options).value();
  const auto& local = matrix(run, "device_local_copy");
  EXPECT_TRUE(local.values[0][0]);
  EXPECT_FALSE(local.values[0][1]);
  EXPECT_EQ(local.values[0][1].reason(), "GPU fell off the bus");
  EXPECT_TRUE(local.values[0][2]);
  const auto& sm = matrix(run, "device_local_copy_sm");
  EXPECT_DOUBLE_EQ(*sm.values[0][2], 2 * (200.0 + 1 + 1.5));  // read + write bytes; median of {+0,+3}
  // The run says it failed (once per distinct error), so the judge cannot pass it.
  EXPECT_EQ(run.failures, (std::vector<std::string>{"GPU fell off the bus"}));
  auto clean = run_bandwidth_suite(*std::make_unique<ScriptedBackend>(), BandwidthSuite::memory, options).value();
  EXPECT_TRUE(clean.failures.empty());
}

TEST(BandwidthProbe, ATimedOutSampleEndsItsCellWhereOtherErrorsAreRetried) {
  BandwidthOptions options;
  options.samples = 4;
  const std::vector<api::CopyStream> streams{{api::CopyEndpoint::device(1), api::CopyEndpoint::device(1), 1}};

  ScriptedBackend hung;
  hung.hang_executor = 1;
  auto ctx = CopyContext::open(hung, options).value();
  const auto rate = ctx.median_rate(streams, api::CopyEngine::ce, CellStat::first);
  EXPECT_FALSE(rate);
  EXPECT_EQ(rate.reason(), "GPU 1: copy sample timed out after 10 ms");
  EXPECT_EQ(hung.hung_calls, 1);  // nothing queued behind a copy that may still run
  const auto latency = ctx.median_latency(1, api::CopyEndpoint::device(0));
  EXPECT_FALSE(latency);
  EXPECT_EQ(hung.hung_calls, 2);  // the pointer chase likewise
  EXPECT_EQ(ctx.failures().size(), 2u);

  // Any other error gets every sample, even one whose words say "timed out": the decision reads
  // the error's cause, not its text.
  ScriptedBackend failing;
  failing.fail_executor = 1;
  failing.fail_message = "GPU 1: the driver said the copy timed out";
  auto other = CopyContext::open(failing, options).value();
  EXPECT_FALSE(other.median_rate(streams, api::CopyEngine::ce, CellStat::first));
  EXPECT_EQ(failing.requests.size(), 4u);
}

TEST(BandwidthProbe, UnknownGpuIsAUsageError) {
  ScriptedBackend backend;
  BandwidthOptions options;
  options.gpus = {7};
  auto run = run_bandwidth_suite(backend, BandwidthSuite::host, options);
  ASSERT_FALSE(run);
  EXPECT_EQ(run.error().kind, core::ErrorKind::usage);
}

}  // namespace
}  // namespace gpuvet::probes
