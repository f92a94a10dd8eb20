// nccl-tests -J JSON parser over the fixture we wrote from src/util.cu (see
// tests/fixtures/nccl/README.md: written, not captured), inline variants and broken documents.
#include <gtest/gtest.h>

#include <string>

#include "parsers/nccl_tests_parser.hpp"
#include "topo_test_fixtures.hpp"

namespace gpuvet::parsers {
namespace {

using testing::read_fixture;

const char* const kFixture = "nccl/written-2node-16x-h100-allreduce-J.json";

// One process driving 8 GPUs, validation off, an in-place-only row (out_of_place null).
const char* const kSingleProcess =
    R"({"version":3,"args":["./alltoall_perf","-g","8","-c","0"],"nccl_version":2909,)"
    R"("config":{"nthreads":1,"ngpus":8,"validation":0,"devices":[{"rank":0,"group":0,"pid":7,)"
    R"("hostname":"box","device":0,"device_hex":"0000:07:00","device_info":"NVIDIA A100-SXM4-40GB"}]},)"
    R"("results":[{"size":8388608,"count":262144,"type":"float","redop":"none","root":"    -1",)"
    R"("out_of_place":{"time":121.100000,"alg_bw":69.270000,"bus_bw":60.611250,"nwrong":null},)"
    R"("in_place":{"time":120.600000,"alg_bw":69.557000,"bus_bw":60.862375,"nwrong":null},)"
    R"("actual_iterations":20,"experiment_name":""},)"
    R"({"size":16777216,"count":524288,"type":"float","redop":"none","root":"    -1","out_of_place":null,)"
    R"("in_place":{"time":158.800000,"alg_bw":105.650000,"bus_bw":92.443750,"nwrong":null},)"
    R"("actual_iterations":20,"experiment_name":""}],)"
    R"("average_bus_bandwidth":{"bandwidth":71.305792,"okay":"unchecked"},"errors":["unhandled cuda error"]})";

core::CollectiveRun parse_ok(const std::string& text, const std::string& file = "run.json") {
  auto r = parse_nccl_tests_json(text, file);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
  return r.ok() ? r.value() : core::CollectiveRun{};
}

std::string parse_error(const std::string& text) {
  auto r = parse_nccl_tests_json(text, "bad.json");
  EXPECT_FALSE(r.ok());
  if (r.ok()) return "";
  EXPECT_EQ(r.error().kind, core::ErrorKind::bad_input);
  return r.error().message;
}

TEST(NcclTestsJson, WrittenFixtureExactNumbers) {
  const auto run = parse_ok(read_fixture(kFixture), "written.json");
  EXPECT_EQ(run.op, "all_reduce");
  EXPECT_TRUE(run.notes.empty());
  EXPECT_EQ(run.ranks.value_or(0), 16);
  EXPECT_EQ(run.nodes.value_or(0), 2);
  EXPECT_EQ(run.nccl_version.value_or(""), "2.27.3");
  ASSERT_EQ(run.rows.size(), 11u);
  EXPECT_EQ(run.rows.front().size_bytes, 8u);
  EXPECT_EQ(run.rows.back().size_bytes, 8589934592u);
  EXPECT_EQ(run.rows.back().root.value_or(0), -1);
  EXPECT_EQ(run.rows.back().redop.value_or(""), "sum");
  EXPECT_DOUBLE_EQ(run.printed_avg_busbw_gbps.value_or(0), 76.766945);
  EXPECT_NEAR(core::average_busbw_gbps(run).value_or(0), 76.766945, 1e-6);
  EXPECT_DOUBLE_EQ(core::peak_busbw_gbps(run).value_or(0), 303.960884);
  EXPECT_EQ(core::wrong_total(run).value_or(-1), 0);
  ASSERT_EQ(run.device_names.size(), 16u);
  EXPECT_EQ(run.device_names[0], "NVIDIA H100 80GB HBM3");
}

TEST(NcclTestsJson, SingleProcessValidationOffInPlaceOnly) {
  const auto run = parse_ok(kSingleProcess);
  EXPECT_EQ(run.op, "alltoall");
  EXPECT_EQ(run.ranks.value_or(0), 8);
  EXPECT_EQ(run.nodes.value_or(0), 1);
  EXPECT_EQ(run.nccl_version.value_or(""), "2.9.9");
  EXPECT_TRUE(run.device_names.empty());
  EXPECT_FALSE(core::wrong_total(run).known());
  ASSERT_EQ(run.rows.size(), 2u);
  EXPECT_FALSE(run.rows[1].out_of_place.busbw_gbps.known());
  EXPECT_DOUBLE_EQ(core::peak_busbw_gbps(run).value_or(0), 92.44375);
  EXPECT_NEAR(core::average_busbw_gbps(run).value_or(0), 71.305792, 1e-6);
  bool saw_error = false;
  for (const auto& n : run.notes) saw_error = saw_error || n == "nccl-tests reported: unhandled cuda error";
  EXPECT_TRUE(saw_error);
}

TEST(NcclTestsJson, WithoutArgsTheOpIsInferred) {
  std::string text = kSingleProcess;
  text.replace(text.find("./alltoall_perf"), 15, "./my_wrapper_sh");
  const auto run = parse_ok(text, "a2a-or-ag.json");
  EXPECT_EQ(run.op, "unknown");  // "none", size = count x 8 x 4: all_gather or alltoall
  ASSERT_FALSE(run.notes.empty());
}

TEST(NcclTestsJson, BrokenDocumentsAreInputErrors) {
  EXPECT_NE(parse_error("").find("bad.json: not valid JSON"), std::string::npos);
  EXPECT_NE(parse_error("[1,2]").find("expected a JSON object"), std::string::npos);
  EXPECT_NE(parse_error(R"({"version":3})").find("results: missing"), std::string::npos);
  EXPECT_NE(parse_error(R"({"results":[]})").find("results: no result rows"), std::string::npos);
  std::string bad = kSingleProcess;
  bad.replace(bad.find("\"bus_bw\":92.443750"), 18, "\"bus_bw\":\"fast\"");
  EXPECT_NE(parse_error(bad).find("bad.json: results[1].in_place.bus_bw: expected a number"), std::string::npos);
  bad = kSingleProcess;
  bad.replace(bad.find("\"root\":\"    -1\""), 15, "\"root\":\"x\"");
  EXPECT_NE(parse_error(bad).find("results[0].root"), std::string::npos);
  bad = kSingleProcess;
  bad.replace(bad.find("\"size\":8388608"), 14, "\"size\":-8");
  EXPECT_NE(parse_error(bad).find("results[0].size"), std::string::npos);
}

TEST(NcclTestsJson, NoCrashOnAnyPrefix) {
  const std::string text = read_fixture(kFixture);
  for (size_t n = 0; n <= text.size(); n += 7) {
    const auto r = parse_nccl_tests_json(text.substr(0, n), "p.json");
    if (!r.ok()) {
      EXPECT_EQ(r.error().kind, core::ErrorKind::bad_input);
    }
  }
  EXPECT_TRUE(parse_nccl_tests_json(text, "p.json").ok());
}

}  // namespace
}  // namespace gpuvet::parsers
