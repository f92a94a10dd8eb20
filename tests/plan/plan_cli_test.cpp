// gpuvet plan end to end, in-process: exit codes, the JSON fields docs/json.md promises, HTML.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "../cli/cli_runner.hpp"

namespace gpuvet {
namespace {

using testing::run_cli;

TEST(PlanCli, JsonHasTheDocumentedFields) {
  const auto r = run_cli({"plan", "--model", "llama-3-8b", "--offer", "hgx-h100-8x", "--offer", "l40s-8x", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["schema"], "gpuvet.plan/1");
  ASSERT_EQ(j["offers"].size(), 2u);
  for (const auto& o : j["offers"]) {
    for (const char* key : {"name", "fits", "memory_per_gpu_gib", "memory", "comm_share", "days", "cost", "reason"}) {
      EXPECT_TRUE(o.contains(key)) << key;
    }
    for (const char* key : {"weights", "gradients", "optimizer", "activations", "kv_cache"}) EXPECT_TRUE(o["memory"].contains(key));
    EXPECT_TRUE(o["cost"].is_null());  // simulator profiles carry no price
    EXPECT_GE(o["comm_share"].get<double>(), 0.0);
    EXPECT_LE(o["comm_share"].get<double>(), 1.0);
  }
  EXPECT_EQ(j["offers"][0]["name"], "hgx-h100-8x");
}

TEST(PlanCli, BadInputIsExit2NamingTheFile) {
  const auto r = run_cli({"plan", "--model", "no-such-model", "--offer", "hgx-h100-8x"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("no-such-model"), std::string::npos);
  const auto u = run_cli({"plan", "--model", "llama-3-8b", "--offer", "no-such-profile"});
  EXPECT_EQ(u.exit_code, 2);
}

TEST(PlanCli, NothingFitsIsExit1) {
  const auto r = run_cli({"plan", "--model", "llama-3-405b", "--offer", "l40s-8x"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.out.find("plan_does_not_fit"), std::string::npos);
}

TEST(PlanCli, HtmlCarriesTheStepTimeChart) {
  const auto r = run_cli({"plan", "--model", "llama-3-8b", "--offer", "hgx-h100-8x", "--offer", "nvlink-4plus4-8x", "--html"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("<svg"), std::string::npos);
  EXPECT_NE(r.out.find("data-parallel comm (exposed)"), std::string::npos);
  EXPECT_EQ(r.out.find("<script"), std::string::npos);  // self-contained, nothing to run
  const auto m = run_cli({"plan", "--model", "llama-3-8b", "--offer", "hgx-h100-8x", "--markdown"});
  EXPECT_EQ(m.out.rfind("# gpuvet plan", 0), 0u);
}

}  // namespace
}  // namespace gpuvet
