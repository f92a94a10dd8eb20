// The collective probe against a scripted backend: nccl-tests arithmetic (algbw, busbw factors,
// median of iterations, sizes and counts), memory caps, hangs that stop one sweep but not the
// next, and the subsets scaling mode runs.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "probes/collective_probe.hpp"

namespace gpuvet::probes {
namespace {

using api::CollectiveOp;

// Time per iteration from a formula; optionally hangs at or above a size, or fails.
class ScriptedBackend final : public api::CollectiveBackend {
 public:
  std::vector<double> iteration_us{1000, 3000, 2000};  // median 2000
  std::uint64_t memory = 64ull << 30;
  std::uint64_t hang_from_bytes = UINT64_MAX;
  CollectiveOp hang_op = CollectiveOp::all_reduce;
  std::vector<api::CollectiveRequest> requests;

  [[nodiscard]] std::string describe() const override { return "scripted"; }
  [[nodiscard]] bool simulated() const override { return true; }
  core::Result<std::vector<api::DeviceInfo>> devices() override {
    std::vector<api::DeviceInfo> out;
    for (int i = 0; i < 8; ++i) out.push_back({i, "Test GPU", "0000:00:00.0", 0});
    return out;
  }
  core::Result<std::uint64_t> memory_per_gpu() override { return memory; }
  core::Result<api::CollectiveSample> run(const api::CollectiveRequest& request) override {
    requests.push_back(request);
    api::CollectiveSample s;
    if (request.op == hang_op && request.bytes >= hang_from_bytes) {
      s.hang = api::CollectiveHang{{request.gpus.back()}, "stuck"};
      return s;
    }
    s.iteration_us = iteration_us;
    s.wrong = 0;
    return s;
  }
};

TEST(CollectiveProbe, BusbwFactorsAreNcclTests) {
  EXPECT_DOUBLE_EQ(busbw_factor(CollectiveOp::all_reduce, 8), 1.75);
  EXPECT_DOUBLE_EQ(busbw_factor(CollectiveOp::all_gather, 8), 0.875);
  EXPECT_DOUBLE_EQ(busbw_factor(CollectiveOp::reduce_scatter, 4), 0.75);
  EXPECT_DOUBLE_EQ(busbw_factor(CollectiveOp::alltoall, 2), 0.5);
  EXPECT_DOUBLE_EQ(busbw_factor(CollectiveOp::broadcast, 8), 1.0);
  EXPECT_DOUBLE_EQ(busbw_factor(CollectiveOp::sendrecv, 8), 1.0);
  EXPECT_DOUBLE_EQ(busbw_factor(CollectiveOp::all_reduce, 1), 0.0);
}

TEST(CollectiveProbe, SizesDoubleAndRound) {
  EXPECT_EQ(sweep_sizes(1 << 20, 8 << 20), (std::vector<std::uint64_t>{1 << 20, 2 << 20, 4 << 20, 8 << 20}));
  EXPECT_EQ(sweep_sizes(3, 10), (std::vector<std::uint64_t>{3, 6, 10}));
  EXPECT_TRUE(sweep_sizes(10, 3).empty());
  EXPECT_EQ(round_size(CollectiveOp::all_reduce, 8, 1001), 1000u);
  EXPECT_EQ(round_size(CollectiveOp::all_gather, 8, 1001), 992u);  // multiple of 4 x 8
  EXPECT_EQ(round_size(CollectiveOp::alltoall, 3, 100), 96u);
}

TEST(CollectiveProbe, RowsAreMediansInNcclTestsUnits) {
  ScriptedBackend backend;
  CollectiveProbeOptions options;
  options.ops = {CollectiveOp::all_reduce, CollectiveOp::all_gather};
  options.min_bytes = 1ull << 30;
  options.max_bytes = 2ull << 30;
  auto runs = sweep_collectives(backend, {0, 1, 2, 3, 4, 5, 6, 7}, options);
  ASSERT_TRUE(runs.ok()) << runs.error().message;
  ASSERT_EQ(runs->size(), 2u);
  const auto& ar = runs->at(0).run;
  EXPECT_EQ(ar.op, "all_reduce");
  EXPECT_EQ(*ar.ranks, 8);
  ASSERT_EQ(ar.rows.size(), 2u);
  const auto& row = ar.rows[0];
  EXPECT_EQ(row.size_bytes, 1ull << 30);
  EXPECT_EQ(*row.count, (1ull << 30) / 4);
  EXPECT_EQ(*row.redop, "sum");
  EXPECT_DOUBLE_EQ(*row.out_of_place.time_us, 2000);
  EXPECT_NEAR(*row.out_of_place.algbw_gbps, 1073741824.0 / 2000 / 1e3, 1e-9);  // 536.87 GB/s
  EXPECT_NEAR(*row.out_of_place.busbw_gbps, 1073741824.0 / 2000 / 1e3 * 1.75, 1e-9);
  EXPECT_EQ(*row.out_of_place.wrong, 0);
  EXPECT_TRUE(row.in_place.busbw_gbps.known());
  const auto& ag = runs->at(1).run;
  EXPECT_EQ(*ag.rows[0].count, (1ull << 30) / 4 / 8);  // per rank, as nccl-tests prints it
  EXPECT_FALSE(ag.rows[0].redop.known());
  // Warm-up, iterations and timeout reach the backend unchanged.
  EXPECT_EQ(backend.requests.front().warmup, options.warmup);
  EXPECT_EQ(backend.requests.front().iterations, options.iterations);
  EXPECT_EQ(backend.requests.front().timeout, options.timeout);
}

TEST(CollectiveProbe, NoInPlaceFormForPointToPoint) {
  ScriptedBackend backend;
  CollectiveProbeOptions options;
  options.ops = {CollectiveOp::sendrecv};
  options.min_bytes = options.max_bytes = 1 << 20;
  auto runs = sweep_collectives(backend, {0, 1}, options);
  ASSERT_TRUE(runs.ok());
  EXPECT_FALSE(runs->at(0).run.rows[0].in_place.busbw_gbps.known());
  EXPECT_EQ(backend.requests.size(), 1u);
}

TEST(CollectiveProbe, SweepCappedByMemory) {
  ScriptedBackend backend;
  backend.memory = 3ull << 30;  // buffers of 1.5 GiB fit
  CollectiveProbeOptions options;
  options.min_bytes = 1ull << 30;
  options.max_bytes = 8ull << 30;
  auto runs = sweep_collectives(backend, {0, 1}, options);
  ASSERT_TRUE(runs.ok());
  const auto& run = runs->at(0).run;
  EXPECT_EQ(run.rows.back().size_bytes, 3ull << 29);
  ASSERT_FALSE(run.notes.empty());
  EXPECT_NE(run.notes[0].find("capped"), std::string::npos);
}

TEST(CollectiveProbe, HangStopsTheSweep) {
  ScriptedBackend backend;
  backend.hang_from_bytes = 4 << 20;
  CollectiveProbeOptions options;
  options.ops = {CollectiveOp::all_reduce, CollectiveOp::all_gather};
  options.min_bytes = 1 << 20;
  options.max_bytes = 16 << 20;
  auto runs = sweep_collectives(backend, {0, 1, 2, 3}, options);
  ASSERT_TRUE(runs.ok());
  const auto& ar = runs->at(0);
  ASSERT_TRUE(ar.hang.has_value());
  EXPECT_EQ(ar.hang->size_bytes, 4u << 20);
  EXPECT_EQ(ar.hang->pending_gpus, std::vector<int>{3});
  ASSERT_EQ(ar.run.rows.size(), 3u);  // 1, 2 MiB measured, 4 MiB timed out, 8 and 16 MiB not run
  EXPECT_FALSE(ar.run.rows.back().out_of_place.busbw_gbps.known());
  // The GPUs may still be busy: all_gather is not started.
  EXPECT_EQ(runs->size(), 1u);
  EXPECT_EQ(backend.requests.size(), 5u);  // 1 and 2 MiB out-of-place and in-place, 4 MiB hung
}

TEST(CollectiveProbe, HangInOneOpAfterAnotherCompleted) {
  ScriptedBackend backend;
  backend.hang_op = CollectiveOp::all_gather;
  backend.hang_from_bytes = 2 << 20;
  CollectiveProbeOptions options;
  options.ops = {CollectiveOp::all_reduce, CollectiveOp::all_gather};
  options.min_bytes = 1 << 20;
  options.max_bytes = 4 << 20;
  auto runs = sweep_collectives(backend, {0, 1}, options);
  ASSERT_TRUE(runs.ok());
  ASSERT_EQ(runs->size(), 2u);
  EXPECT_FALSE(runs->at(0).hang.has_value());
  EXPECT_EQ(runs->at(0).run.rows.size(), 3u);
  ASSERT_TRUE(runs->at(1).hang.has_value());
  EXPECT_EQ(runs->at(1).hang->op, "all_gather");
}

TEST(CollectiveProbe, ScalingStopsAtTheFirstHang) {
  ScriptedBackend backend;
  backend.hang_from_bytes = 0;
  CollectiveProbeOptions options;
  options.max_bytes = 1ull << 30;
  auto scaling = measure_scaling(backend, {0, 1, 2, 3, 4, 5, 6, 7}, CollectiveOp::all_reduce, options);
  ASSERT_TRUE(scaling.ok());
  ASSERT_EQ(scaling->pairs.size(), 1u);
  EXPECT_TRUE(scaling->pairs[0].hang.has_value());
  EXPECT_TRUE(scaling->subsets.empty());
  EXPECT_FALSE(scaling->all.has_value());
}

TEST(CollectiveProbe, FourGpuSubsets) {
  EXPECT_EQ(four_gpu_subsets({0, 1, 2, 3, 4, 5, 6, 7}).size(), 70u);
  EXPECT_TRUE(four_gpu_subsets({0, 1, 2}).empty());
  std::vector<int> sixteen(16);
  for (int i = 0; i < 16; ++i) sixteen[static_cast<std::size_t>(i)] = i;
  const auto sample = four_gpu_subsets(sixteen);
  EXPECT_LT(sample.size(), 1820u / 10);
  std::set<std::pair<int, int>> covered;
  for (const auto& s : sample) {
    ASSERT_EQ(s.size(), 4u);
    for (std::size_t i = 0; i < 4; ++i)
      for (std::size_t j = i + 1; j < 4; ++j) covered.insert({std::min(s[i], s[j]), std::max(s[i], s[j])});
  }
  EXPECT_EQ(covered.size(), 120u);  // every pair of 16 GPUs shares a subset
}

TEST(CollectiveProbe, ScalingRunsPairsSubsetsAndAll) {
  ScriptedBackend backend;
  CollectiveProbeOptions options;
  options.max_bytes = 1ull << 30;
  auto scaling = measure_scaling(backend, {0, 1, 2, 3, 4, 5, 6, 7}, CollectiveOp::all_reduce, options);
  ASSERT_TRUE(scaling.ok());
  EXPECT_EQ(scaling->pairs.size(), 28u);
  EXPECT_EQ(scaling->subsets.size(), 70u);
  ASSERT_TRUE(scaling->all.has_value());
  EXPECT_EQ(scaling->all->gpus.size(), 8u);
  EXPECT_EQ(backend.requests.size(), 99u);  // out-of-place only
  EXPECT_EQ(scaling->bytes, 1ull << 30);
}

}  // namespace
}  // namespace gpuvet::probes
