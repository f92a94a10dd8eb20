// Options given an empty or inconsistent value are usage errors (exit 2) naming the option, never
// ignored: `--out "$DIR"` with DIR unset must not write somewhere else, `--html ""` must not drop
// the page, and a retention that keeps summaries shorter than what they summarise is refused.
#include <gtest/gtest.h>

#include "cli_runner.hpp"

namespace gpuvet::testing {
namespace {

TEST(OptionChecks, EmptyPathsAreUsageErrorsNamingTheOption) {
  const auto trend = run_cli({"trend", "--db", "/nonexistent.db", "--html", ""});
  EXPECT_EQ(trend.exit_code, 2);
  EXPECT_NE(trend.err.find("--html"), std::string::npos) << trend.err;
  EXPECT_NE(trend.err.find("empty"), std::string::npos) << trend.err;

  const auto accept = run_cli({"accept", "--spec", "/nonexistent.yaml", "--sim", "hgx-h100-8x", "--out", ""});
  EXPECT_EQ(accept.exit_code, 2);
  EXPECT_NE(accept.err.find("--out"), std::string::npos) << accept.err;

  const auto monitor = run_cli({"monitor", "--sim", "hgx-h100-8x", "--db", "", "--duration", "1m"});
  EXPECT_EQ(monitor.exit_code, 2);
  EXPECT_NE(monitor.err.find("--db"), std::string::npos) << monitor.err;
}

TEST(OptionChecks, RetentionLayersMustOutliveTheLayerTheySummarise) {
  for (const char* bad : {"raw=1h,hour=30m", "raw=2d,minute=1d", "minute=30d,hour=7d"}) {
    const auto run = run_cli({"monitor", "--sim", "hgx-h100-8x", "--retention", bad, "--duration", "1m", "--speed", "max",
                              "--listen", "127.0.0.1:0"});
    EXPECT_EQ(run.exit_code, 2) << bad << ": " << run.err;
    EXPECT_NE(run.err.find("--retention"), std::string::npos) << run.err;
  }
  const auto ok = run_cli({"monitor", "--sim", "hgx-h100-8x", "--retention", "raw=1h,minute=1d,hour=30d", "--duration", "2m",
                           "--speed", "max", "--listen", "127.0.0.1:0"});
  EXPECT_EQ(ok.exit_code, 0) << ok.err;
}

}  // namespace
}  // namespace gpuvet::testing
