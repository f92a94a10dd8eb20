// inspect and analyze with what the buyer states: --workload train on inference cards,
// --expect-model against the model delivered and --expect-same-batch against mixed firmware fail
// (exit 1, severity fail); the same machines without the statement stay warnings (exit 0); a
// statement the input cannot check is incomplete (exit 3); a model not in the catalogue is exit 2.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_runner.hpp"

namespace gpuvet::testing {
namespace {

using json = nlohmann::json;

// The findings of one --json run with this code.
std::vector<json> findings(const CliRun& run, const std::string& code) {
  std::vector<json> out;
  const auto doc = json::parse(run.out);
  for (const auto& f : doc.at("findings")) {
    if (f.at("code") == code) out.push_back(f);
  }
  return out;
}

CliRun json_run(std::vector<std::string> args) {
  args.push_back("--json");
  return run_cli(args);
}

TEST(ExpectationsCli, InferenceCardsForAStatedTrainingWorkloadFail) {
  const auto stated = json_run({"inspect", "--sim", "l40s-8x", "--workload", "train"});
  EXPECT_EQ(stated.exit_code, 1) << stated.err;
  const auto f = findings(stated, "card_class_mismatch");
  ASSERT_EQ(f.size(), 1u) << stated.out;
  EXPECT_EQ(f[0].at("severity"), "fail");
  EXPECT_EQ(f[0].at("gpus").size(), 8u);
  EXPECT_NE(f[0].at("message").get<std::string>().find("inference cards) rented for training"), std::string::npos);

  const auto unstated = json_run({"inspect", "--sim", "l40s-8x"});
  EXPECT_EQ(unstated.exit_code, 0) << unstated.out;
  EXPECT_TRUE(findings(unstated, "card_class_mismatch").empty());
  EXPECT_EQ(json_run({"inspect", "--sim", "l40s-8x", "--workload", "infer"}).exit_code, 0);
}

TEST(ExpectationsCli, AnalyzeFailsPastedInferenceCardsForTraining) {
  const auto a40 = fixture("smi-q/10x-a40-pcie-nvidia-smi-q.txt");
  const auto stated = json_run({"analyze", a40, "--workload", "train"});
  EXPECT_EQ(stated.exit_code, 1) << stated.err;
  const auto f = findings(stated, "card_class_mismatch");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].at("severity"), "fail");
  EXPECT_EQ(json_run({"analyze", a40}).exit_code, 0);
}

TEST(ExpectationsCli, AnH800DeliveredForAnH100OrderFails) {
  const auto stated = json_run({"inspect", "--sim", "h800-8x", "--expect-model", "h100-sxm5-80gb"});
  EXPECT_EQ(stated.exit_code, 1) << stated.err;
  const auto f = findings(stated, "model_not_as_claimed");
  ASSERT_EQ(f.size(), 1u) << stated.out;
  EXPECT_EQ(f[0].at("severity"), "fail");
  EXPECT_EQ(f[0].at("message"), "GPUs 0-7 are H800 SXM5 80GB, not the H100 SXM5 80GB that was sold (--expect-model)");

  // The model sold, by id or by the name nvidia-smi prints: nothing to say.
  for (const char* sold : {"h800-sxm5-80gb", "NVIDIA H800"}) {
    const auto same = json_run({"inspect", "--sim", "h800-8x", "--expect-model", sold});
    EXPECT_EQ(same.exit_code, 0) << sold << ": " << same.out;
    EXPECT_TRUE(findings(same, "model_not_as_claimed").empty()) << sold;
  }
}

TEST(ExpectationsCli, AnalyzeFailsA40GbCardForAn80GbOrder) {
  const auto run = json_run({"analyze", fixture("smi-q/8x-a100-sxm4-40gb-nvidia-smi-a.txt"), "--expect-model",
                             "a100-sxm4-80gb"});
  EXPECT_EQ(run.exit_code, 1) << run.err;
  const auto f = findings(run, "model_not_as_claimed");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_NE(f[0].at("message").get<std::string>().find("are A100 SXM4 40GB, not the A100 SXM4 80GB"),
            std::string::npos)
      << f[0].at("message");
}

TEST(ExpectationsCli, AModelOutsideTheCatalogueIsAUsageErrorListingNearIds) {
  const auto run = run_cli({"inspect", "--sim", "h800-8x", "--expect-model", "H100"});
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find("--expect-model H100: not a GPU model in the catalogue"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("h100-sxm5-80gb"), std::string::npos) << run.err;
}

// `--expect-model "$MODEL"` with MODEL unset must not run without the promise and pass.
TEST(ExpectationsCli, AnEmptyPromiseIsAUsageErrorNotAPromiseLeftOut) {
  for (const std::string option : {"--expect-model", "--expect", "--expect-nic"}) {
    for (const std::string value : {"", "  "}) {
      const auto run = run_cli({"inspect", "--sim", "h800-8x", option, value});
      EXPECT_EQ(run.exit_code, 2) << option << " '" << value << "'\n" << run.out;
      EXPECT_NE(run.err.find(option + ": empty; expected"), std::string::npos) << run.err;
    }
  }
}

TEST(ExpectationsCli, MixedFirmwareFailsOnlyWhenOneBatchWasPromised) {
  const auto v100 = fixture("smi-q/8x-v100-sxm2-16gb-nvidia-smi-q.txt");  // two VBIOS versions, 4 + 4
  const auto unstated = json_run({"analyze", v100});
  EXPECT_EQ(unstated.exit_code, 0) << unstated.out;
  auto f = findings(unstated, "mixed_inventory");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].at("severity"), "warn");

  const auto stated = json_run({"analyze", v100, "--expect-same-batch"});
  EXPECT_EQ(stated.exit_code, 1) << stated.out;
  f = findings(stated, "mixed_inventory");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].at("severity"), "fail");
  EXPECT_NE(f[0].at("message").get<std::string>().find("GPUs differ in VBIOS"), std::string::npos);
}

TEST(ExpectationsCli, SimulatedOddFirmwareFailsTheBatchPromiseNamingTheGpu) {
  const std::vector<std::string> odd = {"inspect", "--sim", "hgx-h100-8x", "--fault", "mixed-batch:gpu=5,vbios=96.00.61.00.01"};
  const auto unstated = json_run(odd);
  EXPECT_EQ(unstated.exit_code, 0);
  auto args = odd;
  args.push_back("--expect-same-batch");
  const auto stated = json_run(args);
  EXPECT_EQ(stated.exit_code, 1);
  const auto f = findings(stated, "mixed_inventory");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].at("severity"), "fail");
  EXPECT_EQ(f[0].at("gpus"), json::array({5}));
}

TEST(ExpectationsCli, ABatchPromiseTheInputCannotCheckIsIncomplete) {
  // GeForce cards print no board part number: one batch cannot be shown, so no verdict.
  const auto run = json_run({"analyze", fixture("smi-q/8x-rtx4090-nvidia-smi-q.txt"), "--expect-same-batch"});
  EXPECT_EQ(run.exit_code, 3) << run.out;
  const auto doc = json::parse(run.out);
  ASSERT_FALSE(doc.at("unverified").empty());
  EXPECT_NE(doc.at("unverified")[0].get<std::string>().find("--expect-same-batch: board part number of GPU 0"),
            std::string::npos)
      << doc.at("unverified");
}

}  // namespace
}  // namespace gpuvet::testing
