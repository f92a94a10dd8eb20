// The report.html the Chromium tests load: `gpuvet accept` run in-process on the simulated HGX H100
// with a straggler on GPU 3 (burn-in 60 % of its peers), the bundle written to a temporary directory.
// Made once per test binary; a test fails (not skips) when the run does not produce it.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "../cli/cli_runner.hpp"

namespace gpuvet::testing {

struct AcceptPage {
  int exit_code = -1;
  std::string html;    // report.html; empty when the run wrote none
  std::string output;  // what accept printed, for failure messages
};

inline const AcceptPage& straggler_accept_page() {
  static const AcceptPage page = [] {
    namespace fs = std::filesystem;
    const fs::path dir = fs::temp_directory_path() / ("gpuvet-chromium-accept-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    const auto run = run_cli({"accept", "--sim", "hgx-h100-8x", "--fault", "straggler:gpu=3,factor=0.6", "--spec",
                              std::string(GPUVET_SOURCE_DIR) + "/profiles/specs/hgx-h100-8x.yaml", "--out", (dir / "bundle").string()});
    AcceptPage out;
    out.exit_code = run.exit_code;
    out.output = run.out + run.err;
    std::ifstream in(dir / "bundle" / "report.html", std::ios::binary);
    std::ostringstream html;
    html << in.rdbuf();
    out.html = html.str();
    fs::remove_all(dir);
    return out;
  }();
  return page;
}

}  // namespace gpuvet::testing
