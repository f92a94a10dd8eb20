// The report.html pages the Chromium tests load: `gpuvet accept` run in-process on the simulated HGX
// H100 (a straggler on GPU 3; or eight faults at once), the bundle written to a temporary directory.
// Each made once per test binary; a test fails (not skips) when the run does not produce it.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "../cli/cli_runner.hpp"

namespace gpuvet::testing {

struct AcceptPage {
  int exit_code = -1;
  std::string html;    // report.html; empty when the run wrote none
  std::string output;  // what accept printed, for failure messages
};

// `gpuvet accept --sim PROFILE [--fault F]... --spec SPEC` into a temporary bundle; its report.html.
inline AcceptPage run_accept_page(const std::string& profile, const std::string& spec, const std::vector<std::string>& faults) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("gpuvet-chromium-accept-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  std::vector<std::string> args = {"accept", "--sim", profile};
  for (const auto& f : faults) {
    args.push_back("--fault");
    args.push_back(f);
  }
  for (const std::string& a : {std::string("--spec"), std::string(GPUVET_SOURCE_DIR) + "/profiles/specs/" + spec + ".yaml",
                               std::string("--out"), (dir / "bundle").string()}) {
    args.push_back(a);
  }
  const auto run = run_cli(args);
  AcceptPage out;
  out.exit_code = run.exit_code;
  out.output = run.out + run.err;
  std::ifstream in(dir / "bundle" / "report.html", std::ios::binary);
  std::ostringstream html;
  html << in.rdbuf();
  out.html = html.str();
  fs::remove_all(dir);
  return out;
}

// The straggler run: GPU 3 at 60 % of its peers under the burn-in GEMM.
inline const AcceptPage& straggler_accept_page() {
  static const AcceptPage page = run_accept_page("hgx-h100-8x", "hgx-h100-8x", {"straggler:gpu=3,factor=0.6"});
  return page;
}

// A machine with eight faults at once (13 of the spec's 19 clauses fail, GPU 7 missing): the
// longest list of failing clauses page 1 has to hold.
inline const AcceptPage& many_faults_accept_page() {
  static const AcceptPage page = run_accept_page(
      "hgx-h100-8x", "hgx-h100-8x",
      {"nvlink-down:gpu=1,link=2", "pcie-degraded:gpu=2,gen=4", "mixed-batch:gpu=5,vbios=96.00.61.00.01", "gpu-missing:gpu=7",
       "p2p-disabled:gpu=4", "vram-short:gpu=6,gib=40", "straggler:gpu=3,factor=0.6", "numa-misplaced:gpu=0,node=1"});
  return page;
}

}  // namespace gpuvet::testing
