// Matching a monitor history's GPUs with the GPUs present after a restart: by UUID (a card that
// fell off the bus is missing, the others keep their history index although the driver renumbered
// them), by position when a UUID is unknown, and refusals for cards the history does not know.
#include <gtest/gtest.h>

#include "telemetry/history_gpus.hpp"

namespace gpuvet::telemetry {
namespace {

core::BurninGpu gpu(int index, const std::string& uuid) {
  core::BurninGpu g;
  g.index = index;
  if (uuid.empty()) {
    g.uuid = core::Absent{"not supported"};
  } else {
    g.uuid = uuid;
  }
  return g;
}

std::vector<core::BurninGpu> history() { return {gpu(0, "GPU-a"), gpu(1, "GPU-b"), gpu(2, "GPU-c"), gpu(3, "GPU-d")}; }

std::vector<int> indices(const std::vector<core::BurninGpu>& gpus) {
  std::vector<int> out;
  for (const auto& g : gpus) out.push_back(g.index);
  return out;
}

TEST(HistoryGpus, AGpuThatFellOffTheBusIsMissingAndTheOthersKeepTheirIndex) {
  // The driver lists three GPUs 0..2: the card of history GPU 1 is gone, c and d moved down.
  auto m = match_history_gpus("h.db", history(), {gpu(0, "GPU-a"), gpu(1, "GPU-c"), gpu(2, "GPU-d")});
  ASSERT_TRUE(m) << m.error().message;
  EXPECT_EQ(indices(m.value().present), (std::vector<int>{0, 2, 3}));
  EXPECT_EQ(m.value().source_index, (std::vector<int>{0, 1, 2}));
  ASSERT_EQ(m.value().missing.size(), 1u);
  EXPECT_EQ(m.value().missing[0].index, 1);
  EXPECT_EQ(*m.value().missing[0].uuid, "GPU-b");
}

TEST(HistoryGpus, SameGpusInAnotherOrderAreMatchedByUuid) {
  auto m = match_history_gpus("h.db", history(), {gpu(0, "GPU-d"), gpu(1, "GPU-c"), gpu(2, "GPU-b"), gpu(3, "GPU-a")});
  ASSERT_TRUE(m);
  EXPECT_EQ(indices(m.value().present), (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(m.value().source_index, (std::vector<int>{3, 2, 1, 0}));
  EXPECT_TRUE(m.value().missing.empty());
}

TEST(HistoryGpus, ACardTheHistoryDoesNotKnowOrAnotherMachineIsRefused) {
  auto swapped = match_history_gpus("h.db", history(), {gpu(0, "GPU-a"), gpu(1, "GPU-x"), gpu(2, "GPU-c"), gpu(3, "GPU-d")});
  ASSERT_FALSE(swapped);
  EXPECT_EQ(swapped.error().kind, core::ErrorKind::bad_input);
  EXPECT_NE(swapped.error().message.find("h.db: holds the history of other GPUs (GPU 1 here, GPU-x, is not in it"),
            std::string::npos)
      << swapped.error().message;
  auto added = match_history_gpus("h.db", history(),
                                  {gpu(0, "GPU-a"), gpu(1, "GPU-b"), gpu(2, "GPU-c"), gpu(3, "GPU-d"), gpu(4, "GPU-e")});
  EXPECT_FALSE(added);
  auto other = match_history_gpus("h.db", history(), {gpu(0, "GPU-x"), gpu(1, "GPU-y")});
  ASSERT_FALSE(other);
  EXPECT_NE(other.error().message.find("no GPU UUID in common"), std::string::npos) << other.error().message;
  auto twice = match_history_gpus("h.db", history(), {gpu(0, "GPU-a"), gpu(1, "GPU-a")});
  EXPECT_FALSE(twice);
}

TEST(HistoryGpus, WithoutEveryUuidOnlyTheSameGpusByPositionAreAccepted) {
  std::vector<core::BurninGpu> no_uuids = {gpu(0, ""), gpu(1, ""), gpu(2, ""), gpu(3, "")};
  auto same = match_history_gpus("h.db", history(), no_uuids);
  ASSERT_TRUE(same);
  EXPECT_EQ(same.value().source_index, (std::vector<int>{0, 1, 2, 3}));
  auto fewer = match_history_gpus("h.db", history(), {gpu(0, ""), gpu(1, ""), gpu(2, "")});
  ASSERT_FALSE(fewer);
  EXPECT_NE(fewer.error().message.find("4 GPUs there, 3 here"), std::string::npos) << fewer.error().message;
  auto other = match_history_gpus("h.db", history(), {gpu(0, ""), gpu(1, "GPU-x"), gpu(2, ""), gpu(3, "")});
  EXPECT_FALSE(other);
}

}  // namespace
}  // namespace gpuvet::telemetry
