// The copy and VRAM clause decisions as pure functions: hand-made outcomes in, clause out, with
// no backend, no probe and no message text read back (a GPU we could not verify leaves the clause
// not run; a GPU whose memory is short or wrong fails it, whatever the order).
#include "accept/copy_clauses.hpp"

#include <gtest/gtest.h>

#include "accept/clauses.hpp"
#include "catalog/gpu_catalog.hpp"
#include "core/copy_testcases.hpp"
#include "core/finding_codes.hpp"

namespace gpuvet::accept {
namespace {

spec::Spec parse(const std::string& text) {
  auto s = spec::parse_spec(text, "test.yaml", catalog::gpu_catalog());
  EXPECT_TRUE(s) << (s ? "" : s.error().message);
  return std::move(s).value();
}

const std::string kVramSpec = "spec_version: 1\ngpu: {model: h100-sxm5-80gb, count: 2, memory_gib: 80}\nvram: {min_fraction: 0.95}\n";

core::VramCheck verified(int gpu, double gib) {
  core::VramCheck c;
  c.gpu = gpu;
  c.tested_bytes = static_cast<std::uint64_t>(gib * 1073741824.0);
  return c;
}

core::VramCheck stopped(int gpu, const std::string& why) {
  core::VramCheck c;
  c.gpu = gpu;
  c.tested_bytes = core::Reading<std::uint64_t>::absent(why);
  c.error = why;
  return c;
}

ClauseResult vram_clause(const spec::Spec& s) {
  auto clauses = vram_clauses(s);
  EXPECT_EQ(clauses.size(), 1u);
  return clauses.front();
}

TEST(CopyClauses, VramPassesWhenEveryGpuIsVerifiedAboveTheShare) {
  const auto s = parse(kVramSpec);
  auto c = vram_clause(s);
  decide_vram_clause(c, {"test", 1, {verified(0, 78.5), verified(1, 78.6)}}, {}, s);
  EXPECT_EQ(c.status, ClauseStatus::pass) << c.reason;
  ASSERT_TRUE(c.measured);
  EXPECT_NEAR(*c.measured, 78.5, 0.01);
}

TEST(CopyClauses, VramUnverifiedGpuLeavesTheClauseNotRun) {
  const auto s = parse(kVramSpec);
  auto c = vram_clause(s);
  // The backend's words may say anything, even "not verified" or "reads back wrong": the decision
  // reads the typed check, never the text.
  decide_vram_clause(c, {"test", 1, {verified(0, 78.5), stopped(1, "memory reads back wrong (driver said so)")}}, {}, s);
  EXPECT_EQ(c.status, ClauseStatus::not_run) << c.reason;
  EXPECT_NE(c.reason.find("GPU 1 not verified"), std::string::npos) << c.reason;
}

TEST(CopyClauses, VramShortGpuFailsEvenWithAnotherUnverified) {
  const auto s = parse(kVramSpec);
  auto c = vram_clause(s);
  decide_vram_clause(c, {"test", 1, {stopped(0, "timed out"), verified(1, 60.0)}}, {}, s);
  EXPECT_EQ(c.status, ClauseStatus::fail) << c.reason;
  EXPECT_EQ(c.reason, "GPU 0 not verified: timed out; GPU 1: 60.00 GiB usable, below 95 % of 80");
}

TEST(CopyClauses, VramMiscompareFailsAndListsTheJudgesCodes) {
  const auto s = parse(kVramSpec);
  auto c = vram_clause(s);
  auto bad = verified(1, 79.0);
  bad.miscompares.push_back({});
  core::Finding f;
  f.code = std::string(core::code::vram_errors);
  decide_vram_clause(c, {"test", 1, {verified(0, 79.0), bad}}, {f}, s);
  EXPECT_EQ(c.status, ClauseStatus::fail);
  ASSERT_EQ(c.findings.size(), 1u);
  EXPECT_EQ(c.findings[0], core::code::vram_errors);
}

core::BandwidthRun run_with(std::string_view testcase, std::vector<std::vector<core::Reading<double>>> values) {
  core::BandwidthRun run;
  core::BandwidthMatrix mx;
  mx.testcase = std::string(testcase);
  mx.row_labels = {"0", "1"};
  mx.column_labels = {"0", "1"};
  mx.values = std::move(values);
  run.matrices.push_back(std::move(mx));
  return run;
}

const std::string kFloorSpec = "spec_version: 1\ngpu: {model: h100-sxm5-80gb, count: 2}\nbandwidth: {h2d_gbps: 50, p2p_gbps: 300}\n";

TEST(CopyClauses, PeerFloorDecidesOnTheLowestCellAndP2pUnavailableAlwaysFails) {
  const auto s = parse(kFloorSpec);
  auto clauses = bandwidth_clauses(s);
  ASSERT_EQ(clauses.size(), 2u);
  const auto host_run = run_with(core::testcase::host_to_device_memcpy_ce, {{55.0, 54.0}});
  const auto none = core::Reading<double>::absent("diagonal");
  const auto peer_run = run_with(core::testcase::device_to_device_memcpy_read_ce, {{none, 310.0}, {320.0, none}});
  core::Assessment host_judged, peer_judged;
  for (auto& c : clauses) decide_bandwidth_clause(c, {host_run, host_judged}, {peer_run, peer_judged}, s, catalog::gpu_catalog());
  EXPECT_EQ(clauses[0].id, clause_id::bandwidth_h2d);
  EXPECT_EQ(clauses[0].status, ClauseStatus::pass) << clauses[0].reason;
  EXPECT_EQ(clauses[1].status, ClauseStatus::pass) << clauses[1].reason;
  ASSERT_TRUE(clauses[1].measured);
  EXPECT_DOUBLE_EQ(*clauses[1].measured, 310.0);

  // Above the floor, but the judge found a pair without P2P: that fails a floor clause too.
  core::Finding f;
  f.code = std::string(core::code::p2p_unavailable);
  f.severity = core::Severity::fail;
  f.message = "GPU 0 and 1 have no peer access";
  peer_judged.findings.push_back(f);
  auto again = bandwidth_clauses(s);
  for (auto& c : again) decide_bandwidth_clause(c, {host_run, host_judged}, {peer_run, peer_judged}, s, catalog::gpu_catalog());
  EXPECT_EQ(again[1].status, ClauseStatus::fail);
  EXPECT_EQ(again[1].findings, std::vector<std::string>{std::string(core::code::p2p_unavailable)});
  EXPECT_EQ(again[0].status, ClauseStatus::pass);  // the host clause never reads the peer suite
}

TEST(CopyClauses, NoMeasuredCellLeavesTheClauseNotRun) {
  const auto s = parse(kFloorSpec);
  auto clauses = bandwidth_clauses(s);
  const auto none = core::Reading<double>::absent("copy failed");
  const auto host_run = run_with(core::testcase::host_to_device_memcpy_ce, {{none, none}});
  const auto peer_run = run_with(core::testcase::device_to_device_memcpy_read_ce, {{none, none}, {none, none}});
  core::Assessment judged;
  for (auto& c : clauses) decide_bandwidth_clause(c, {host_run, judged}, {peer_run, judged}, s, catalog::gpu_catalog());
  EXPECT_EQ(clauses[0].status, ClauseStatus::not_run);
  EXPECT_EQ(clauses[1].status, ClauseStatus::not_run);
}

}  // namespace
}  // namespace gpuvet::accept
