// Loads a trend report in headless Chromium (Debian package `chromium`) at 1280 px with every host
// unresolvable: the page renders (verdict, stand-outs, six charts) and nothing is wider than the
// window. Chromium missing: a failure under CI (CI=true), a skip on a workstation.
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>

#include <unistd.h>

#include "report/trend_report.hpp"
#include "trend_report_data.hpp"

namespace gpuvet::report {
namespace {

namespace fs = std::filesystem;

std::string find_chromium() {
  const char* path = std::getenv("PATH");
  if (path == nullptr) return {};
  const std::string dirs(path);
  for (std::size_t pos = 0; pos <= dirs.size();) {
    const std::size_t end = dirs.find(':', pos) == std::string::npos ? dirs.size() : dirs.find(':', pos);
    for (const char* name : {"chromium", "chromium-browser"}) {
      const fs::path candidate = fs::path(dirs.substr(pos, end - pos)) / name;
      if (::access(candidate.c_str(), X_OK) == 0) return candidate.string();
    }
    pos = end + 1;
  }
  return {};
}

std::string run(const std::string& command) {
  std::string out;
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) return out;
  std::array<char, 4096> buffer{};
  std::size_t n = 0;
  while ((n = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0) out.append(buffer.data(), n);
  ::pclose(pipe);
  return out;
}

TEST(TrendChromium, RendersAndFitsIn1280Pixels) {
  const std::string chromium = find_chromium();
  if (chromium.empty()) {
    const char* ci = std::getenv("CI");
    if (ci != nullptr && std::string(ci) == "true") FAIL() << "chromium not installed (scripts/install-deps.sh installs it)";
    GTEST_SKIP() << "chromium not installed; CI runs this test";
  }
  const fs::path dir = fs::temp_directory_path() / ("gpuvet-trend-chromium-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  // The widest page: 8 GPUs and a baseline (the per-GPU table's extra columns). The test appends
  // a probe script that writes the page's scroll width into the DOM; the report itself has none.
  std::string html = render_trend_html(testing::trend_fixture(8, true).report());
  const std::string probe =
      "<script>document.body.setAttribute('data-scroll-width', String(document.documentElement.scrollWidth));"
      "document.body.setAttribute('data-inner-width', String(window.innerWidth));</script>";
  html.insert(html.rfind("</body>"), probe);
  std::ofstream(dir / "trend.html") << html;
  const std::string command = "timeout 120 " + chromium +
                              " --headless --no-sandbox --disable-gpu --no-first-run --disable-extensions --window-size=1280,900"
                              " --host-resolver-rules='MAP * ~NOTFOUND' --user-data-dir=" + (dir / "profile").string() +
                              " --dump-dom file://" + (dir / "trend.html").string() + " 2>/dev/null";
  const std::string dom = run(command);
  fs::remove_all(dir);
  ASSERT_GT(dom.size(), 2000u) << "chromium produced no DOM:\n" << dom;
  EXPECT_NE(dom.find("Verdict: FAIL"), std::string::npos);
  EXPECT_NE(dom.find("hotter_than_peers"), std::string::npos);
  std::size_t charts = 0;
  for (std::size_t at = dom.find("<svg class=\"linechart\""); at != std::string::npos; at = dom.find("<svg class=\"linechart\"", at + 1)) ++charts;
  EXPECT_EQ(charts, 6u);
  std::smatch scroll;
  std::smatch inner;
  ASSERT_TRUE(std::regex_search(dom, scroll, std::regex("data-scroll-width=\"([0-9]+)\""))) << "probe did not run";
  ASSERT_TRUE(std::regex_search(dom, inner, std::regex("data-inner-width=\"([0-9]+)\"")));
  EXPECT_EQ(std::stoi(inner[1].str()), 1280);
  EXPECT_LE(std::stoi(scroll[1].str()), 1280) << "the page is wider than a 1280 px window";
}

}  // namespace
}  // namespace gpuvet::report
