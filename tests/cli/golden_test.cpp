// Golden end-to-end outputs: command -> text/JSON and exit code, diffed against tests/golden.
// GPUVET_UPDATE_GOLDEN=1 ctest ... rewrites the files; review the diff before committing.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "cli_runner.hpp"

using gpuvet::testing::run_cli;

namespace {

struct Golden {
  std::string name;
  std::vector<std::string> args;
  int exit_code;
};

// Fixture arguments are given relative to the fixture root, and the test runs from there: the
// text output wraps long lines, so an absolute path would make the wrapping depend on where the
// checkout lives.
std::string fixture(const std::string& relative) { return relative; }

std::string golden_path(const std::string& name) { return std::string(GPUVET_GOLDEN) + "/" + name; }

std::string read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

std::vector<Golden> goldens() {
  return {
      {"inspect-hgx-h100-8x.txt", {"inspect", "--sim", "hgx-h100-8x"}, 0},
      {"inspect-hgx-h100-8x.json", {"inspect", "--sim", "hgx-h100-8x", "--json"}, 0},
      {"inspect-4plus4-expect-nvlink.txt", {"inspect", "--sim", "nvlink-4plus4-8x", "--expect", "nvlink"}, 1},
      {"inspect-h100-nvlink-down.json", {"inspect", "--sim", "hgx-h100-8x", "--fault", "nvlink-down:gpu=3,link=2", "--json"}, 1},
      {"analyze-8x-h800-topo.txt", {"analyze", fixture("topo/8x-h800-or-a800-nv8-4nic-2numa-no-gpu-numa-id.txt")}, 0},
      {"analyze-8x-v100-query.json", {"analyze", "--json", fixture("smi-q/8x-v100-sxm2-16gb-nvidia-smi-q.txt")}, 0},
      {"analyze-8x-h800-topo-nvbandwidth.txt",
       {"analyze", fixture("topo/8x-h800-or-a800-nv8-4nic-2numa-no-gpu-numa-id.txt"),
        fixture("nvbandwidth/8x-h800-sxm-nv8-full-run-v0.2.txt")},
       0},
      {"analyze-2x-2080ti-topo-p2p.txt",
       {"analyze", fixture("topo/2x-rtx2080ti-pcie-pix-autodl.txt"), fixture("p2p/2x-rtx2080ti-pcie-no-p2p-autodl.txt")},
       0},
      {"analyze-8x-a100-topo-query-nccl.txt",
       {"analyze", fixture("topo/8x-a100-sxm4-40gb-nv12-17nic-1numa.txt"), fixture("smi-q/8x-a100-sxm4-40gb-nvidia-smi-a.txt"),
        fixture("nccl/8x-a100-sxm4-40gb-nvswitch-allreduce-superbench.txt"),
        fixture("nccl/8x-a100-sxm4-40gb-nvswitch-alltoall-superbench.txt")},
       0},
  };
}

// Paths of fixtures differ between checkouts; goldens store them relative.
std::string without_fixture_root(std::string text) {
  const std::string root = std::string(GPUVET_FIXTURES) + "/";
  for (auto pos = text.find(root); pos != std::string::npos; pos = text.find(root)) text.erase(pos, root.size());
  return text;
}

class WorkingDirectory {
 public:
  explicit WorkingDirectory(const std::filesystem::path& dir) : previous_(std::filesystem::current_path()) {
    std::filesystem::current_path(dir);
  }
  ~WorkingDirectory() { std::filesystem::current_path(previous_); }
  WorkingDirectory(const WorkingDirectory&) = delete;
  WorkingDirectory& operator=(const WorkingDirectory&) = delete;

 private:
  std::filesystem::path previous_;
};

}  // namespace

TEST(Golden, OutputsMatchCheckedInFiles) {
  const WorkingDirectory in_fixtures(GPUVET_FIXTURES);
  const bool update = std::getenv("GPUVET_UPDATE_GOLDEN") != nullptr;
  for (const auto& g : goldens()) {
    SCOPED_TRACE(g.name);
    const auto r = run_cli(g.args);
    EXPECT_EQ(r.exit_code, g.exit_code) << r.err;
    const auto got = without_fixture_root(r.out);
    if (update) {
      std::ofstream(golden_path(g.name), std::ios::binary) << got;
      continue;
    }
    const auto want = read(golden_path(g.name));
    ASSERT_FALSE(want.empty()) << "missing golden file; run with GPUVET_UPDATE_GOLDEN=1";
    EXPECT_EQ(got, want);
  }
}
