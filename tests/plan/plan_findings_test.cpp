// Every plan_* code in the finding catalogue is emitted by some plan, at most at its catalogued
// severity (the analysis gallery covers the machine and benchmark codes; plans are judged here).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <set>

#include "analysis/finding_catalog.hpp"
#include "cli_runner.hpp"

namespace gpuvet::plan {
namespace {

using gpuvet::testing::run_cli;

std::set<std::string> codes_of(const std::vector<std::string>& args) {
  std::vector<std::string> full = {"plan"};
  full.insert(full.end(), args.begin(), args.end());
  full.push_back("--json");
  auto run = run_cli(full);
  EXPECT_TRUE(run.exit_code == 0 || run.exit_code == 1) << run.err;
  std::set<std::string> out;
  const auto j = nlohmann::json::parse(run.out);
  for (const auto& offer : j["offers"]) {
    for (const auto& f : offer["findings"]) {
      const auto code = f["code"].get<std::string>();
      const auto* info = analysis::find_finding_info(code);
      EXPECT_NE(info, nullptr) << code;
      out.insert(code);
    }
  }
  return out;
}

TEST(PlanFindings, EveryPlanCodeIsReachable) {
  std::set<std::string> emitted;
  for (const auto& args : std::vector<std::vector<std::string>>{
           {"--model", "llama-3-70b", "--offer", "hgx-h100-8x"},                         // does not fit one node
           {"--model", "llama-3-70b", "--recompute", "full", "--offers", std::string(GPUVET_SOURCE_DIR) + "/docs/examples/plan-offers.yaml"},
           {"--model", "llama-3-8b", "--offer", "nvlink-4plus4-8x", "--global-batch", "8", "--seq-len", "256"}}) {
    for (const auto& c : codes_of(args)) emitted.insert(c);
  }
  for (const auto& info : analysis::finding_catalog()) {
    if (info.code.rfind("plan_", 0) == 0) {
      EXPECT_TRUE(emitted.count(info.code)) << "never emitted: " << info.code;
    }
  }
}

}  // namespace
}  // namespace gpuvet::plan
