// Loads report.html in headless Chromium (Debian package `chromium`) with every host unresolvable
// and checks the DOM it built: the page loads, is not blank, and shows the verdict, the clauses
// and the charts. Chromium missing: a failure under CI (CI=true), a skip on a workstation.
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <unistd.h>

#include "backends/sim/simulator.hpp"
#include "report/html_report.hpp"
#include "report_test_data.hpp"

namespace gpuvet::report {
namespace {

namespace fs = std::filesystem;

std::string find_chromium() {
  const char* path = std::getenv("PATH");
  if (path == nullptr) return {};
  std::string dirs(path);
  size_t pos = 0;
  while (pos <= dirs.size()) {
    const size_t end = dirs.find(':', pos) == std::string::npos ? dirs.size() : dirs.find(':', pos);
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
  size_t n = 0;
  while ((n = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0) out.append(buffer.data(), n);
  ::pclose(pipe);
  return out;
}

TEST(HtmlChromium, LoadsAndIsNotBlank) {
  const std::string chromium = find_chromium();
  if (chromium.empty()) {
    const char* ci = std::getenv("CI");
    if (ci != nullptr && std::string(ci) == "true") FAIL() << "chromium not installed (scripts/install-deps.sh installs it)";
    GTEST_SKIP() << "chromium not installed; CI runs this test";
  }
  const fs::path dir = fs::temp_directory_path() / ("gpuvet-chromium-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  auto m = sim::simulate_machine("hgx-h100-8x", {});
  ASSERT_TRUE(m.ok());
  std::ofstream(dir / "report.html") << render_accept_html(testing::sample_report(), &*m);
  const std::string command = "timeout 120 " + chromium +
                              " --headless --no-sandbox --disable-gpu --no-first-run --disable-extensions"
                              " --host-resolver-rules='MAP * ~NOTFOUND' --user-data-dir=" + (dir / "profile").string() +
                              " --dump-dom file://" + (dir / "report.html").string() + " 2>/dev/null";
  const std::string dom = run(command);
  fs::remove_all(dir);
  ASSERT_GT(dom.size(), 2000u) << "chromium produced no DOM:\n" << dom;
  EXPECT_NE(dom.find("Verdict: FAIL"), std::string::npos);
  EXPECT_NE(dom.find("gpu.same_batch"), std::string::npos);
  EXPECT_NE(dom.find("<svg class=\"topology\""), std::string::npos);
  EXPECT_NE(dom.find("<svg class=\"heatmap\""), std::string::npos);
  EXPECT_NE(dom.find("<svg class=\"linechart\""), std::string::npos);
  EXPECT_NE(dom.find("</body>"), std::string::npos);
}

}  // namespace
}  // namespace gpuvet::report
