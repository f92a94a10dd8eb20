// Card class against the workload, and classes mixed in one machine.
#include <gtest/gtest.h>

#include "test_machines.hpp"

namespace gpuvet::analysis::testing {
namespace {

Expectations workload(const std::string& w) {
  Expectations e;
  e.workload = w;
  return e;
}

TEST(CardClass, ConsumerCardsForAStatedTrainingWorkloadFail) {
  const auto f = with_code(judge(machine(8, kRtx4090), workload("train")), "card_class_mismatch");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, core::Severity::fail);
  EXPECT_EQ(f[0].gpus.size(), 8u);
  EXPECT_EQ(f[0].message, "GPUs 0-7 are RTX 4090 (consumer cards) rented for training");
}

TEST(CardClass, InferenceCardsForAStatedTrainingWorkloadFail) {
  const auto f = with_code(judge(machine(8, kL40s), workload("train")), "card_class_mismatch");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, core::Severity::fail);
  EXPECT_EQ(f[0].message, "GPUs 0-7 are L40S (inference cards) rented for training");
}

TEST(CardClass, TrainingCardsForInferenceAreInfo) {
  const auto f = with_code(judge(machine(1, kH100), workload("infer")), "card_class_mismatch");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, core::Severity::info);
  EXPECT_NE(f[0].message.find("NVLink and FP64"), std::string::npos);
}

TEST(CardClass, MatchingWorkloadIsSilent) {
  EXPECT_TRUE(with_code(judge(machine(8, kH100), workload("train")), "card_class_mismatch").empty());
  EXPECT_TRUE(with_code(judge(machine(2, kL40s), workload("infer")), "card_class_mismatch").empty());
  EXPECT_TRUE(with_code(judge(machine(8, kRtx4090)), "card_class_mismatch").empty());  // no workload given
  EXPECT_TRUE(with_code(judge(machine(8, kUnknownGpu), workload("train")), "card_class_mismatch").empty());
}

TEST(CardClass, MixedClassesWarnNamingMinority) {
  auto m = machine(3, kL40s);
  m.gpus[2].name = kH100;
  const auto f = with_code(judge(m), "card_class_mismatch");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, core::Severity::warn);
  EXPECT_EQ(f[0].gpus, std::vector<int>{2});
  EXPECT_EQ(f[0].message, "Card classes are mixed in one machine: GPUs 0, 1 inference; GPU 2 training");
}

}  // namespace
}  // namespace gpuvet::analysis::testing
