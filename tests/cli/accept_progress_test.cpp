// Live progress inside accept: quiet when stderr is not a terminal; on a terminal the burn-in
// table and the collective status line start on a line of their own, and the stage's closing
// line is told to name the stage again.
#include "cli/accept_progress.hpp"

#include <gtest/gtest.h>

#include <sstream>

namespace gpuvet::cli {
namespace {

core::CollectiveRow row(std::uint64_t bytes, double busbw) {
  core::CollectiveRow r;
  r.size_bytes = bytes;
  r.out_of_place.busbw_gbps = busbw;
  return r;
}

TEST(AcceptLiveProgress, QuietWhenNotATerminal) {
  std::ostringstream err;
  AcceptLiveProgress live(err, false);
  EXPECT_EQ(live.burnin(), nullptr);
  EXPECT_FALSE(live.collective_rows());
  EXPECT_FALSE(live.take_drawn());
  EXPECT_EQ(err.str(), "");
}

TEST(AcceptLiveProgress, CollectiveLineBelowTheStageLineThenErased) {
  std::ostringstream err;
  AcceptLiveProgress live(err, true);
  err << "[7/8] collectives  NCCL collectives and scaling ... ";
  auto rows = live.collective_rows();
  ASSERT_TRUE(rows);
  rows(api::CollectiveOp::all_reduce, {0, 3}, row(1ull << 30, 345.6));
  EXPECT_NE(err.str().find("... \n\r  all_reduce on GPUs 0,3: 1 GiB busbw 345.6 GB/s (1 sizes measured)\x1b[K"), std::string::npos)
      << err.str();
  EXPECT_TRUE(live.take_drawn());
  EXPECT_EQ(err.str().substr(err.str().size() - 4), "\r\x1b[K");  // the status line is erased
  EXPECT_FALSE(live.take_drawn());                                  // once per stage
}

TEST(AcceptLiveProgress, BurninTableOnItsOwnLines) {
  std::ostringstream err;
  AcceptLiveProgress live(err, true);
  auto* observer = live.burnin();
  ASSERT_NE(observer, nullptr);
  core::TelemetrySample s;
  s.gpu = 0;
  s.tflops = 790.0;
  s.gpu_temp_c = 64.0;
  const std::vector<core::TelemetrySample> latest{s};
  const std::vector<int> stopped;
  err << "[8/8] burnin ... ";
  observer->on_finish({14400, 14400, &latest, &stopped});
  EXPECT_EQ(err.str().rfind("[8/8] burnin ... \nburn-in 04:00:00 / 04:00:00", 0), 0u) << err.str();
  EXPECT_NE(err.str().find("GPU0"), std::string::npos) << err.str();
  EXPECT_TRUE(live.take_drawn());
}

}  // namespace
}  // namespace gpuvet::cli
