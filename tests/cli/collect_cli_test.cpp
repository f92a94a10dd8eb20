// gpuvet collect end to end with fake tools on PATH (shell scripts that print real fixture
// outputs), scripts/gpuvet-collect.sh run with the same fakes, and gpuvet analyze reading what
// both write and reading a plain paste of several outputs.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <nlohmann/json.hpp>

#include "cli_runner.hpp"

using gpuvet::testing::fixture;
using gpuvet::testing::run_cli;

namespace {

namespace fs = std::filesystem;

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

void write_script(const fs::path& p, const std::string& body) {
  std::ofstream(p) << "#!/bin/sh\n" << body;
  fs::permissions(p, fs::perms::owner_all);
}

// A PATH holding only fake tools and the POSIX utilities the script needs (from /usr/bin, /bin).
class FakeTools : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("gpuvet-collect-test-" + std::to_string(::getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "bin");
    old_path_ = std::getenv("PATH") ? std::getenv("PATH") : "";
    ::setenv("PATH", ((dir_ / "bin").string() + ":/usr/bin:/bin").c_str(), 1);
  }
  void TearDown() override {
    ::setenv("PATH", old_path_.c_str(), 1);
    fs::remove_all(dir_);
  }
  // nvidia-smi that answers like a 2-GPU RTX A5000 machine: -q -x and topo -m print real
  // captures (two GPUs each; the topo capture is of another 2-GPU PCIe machine, as plumbing),
  // nvlink -s prints nothing, nvlink -e fails as it does on GPUs without NVLink.
  void healthy_nvidia_smi() {
    write_script(dir_ / "bin" / "nvidia-smi",
                 "case \"$*\" in\n"
                 "  '-q -x') cat '" + fixture("smi-q/2x-rtx-a5000-anonymised-nvidia-smi-q-x.xml") + "' ;;\n"
                 "  'topo -m') cat '" + fixture("topo/2x-rtx6000ada-pcie-phb-2nic-threadripper.txt") + "' ;;\n"
                 "  'nvlink -s') ;;\n"
                 "  'nvlink -e') echo 'NVLink is not supported on this GPU' >&2; exit 3 ;;\n"
                 "  *) echo \"fake nvidia-smi: unexpected $*\" >&2; exit 99 ;;\n"
                 "esac\n");
  }
  fs::path dir_;
  std::string old_path_;
};

TEST_F(FakeTools, CollectWritesEverySectionAndSaysWhatWasNotCollected) {
  healthy_nvidia_smi();
  const auto run = run_cli({"collect"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.out.rfind("### gpuvet-collect 1\n", 0), 0u);
  EXPECT_NE(run.out.find("### section: nvidia-smi -q -x\n### status: exit 0\n<?xml"), std::string::npos);
  EXPECT_NE(run.out.find("### section: nvidia-smi nvlink -e\n### status: exit 3: NVLink is not supported on this GPU\n"),
            std::string::npos);
  EXPECT_NE(run.out.find("### section: ibstat\n### status: not found\n"), std::string::npos);
  EXPECT_EQ(run.out.substr(run.out.size() - 8), "### end\n");
  EXPECT_NE(run.err.find("not collected: nvidia-smi nvlink -e (exit 3"), std::string::npos) << run.err;
}

TEST_F(FakeTools, AnalyzeReadsTheCollectFile) {
  healthy_nvidia_smi();
  const auto collected = run_cli({"collect"});
  ASSERT_EQ(collected.exit_code, 0) << collected.err;
  const auto file = dir_ / "node1.txt";
  std::ofstream(file) << collected.out;
  const auto run = run_cli({"analyze", file.string(), "--json"});
  ASSERT_TRUE(run.exit_code == 0 || run.exit_code == 1 || run.exit_code == 3) << run.err;
  const auto report = nlohmann::json::parse(run.out);
  ASSERT_EQ(report["gpus"].size(), 2u);
  EXPECT_NE(report["gpus"][0]["name"].get<std::string>().find("RTX A5000"), std::string::npos);
  EXPECT_EQ(report["interconnect"]["class"], "pcie_only");  // from the topo -m section (PHB)
  EXPECT_NE(run.out.find("a gpuvet collect file of"), std::string::npos);
  EXPECT_NE(run.out.find("ibstat was not collected (not found)"), std::string::npos);
}

TEST_F(FakeTools, WithoutNvidiaSmiCollectIsAnEnvironmentError) {
  const auto run = run_cli({"collect"});
  EXPECT_EQ(run.exit_code, 4);
  EXPECT_TRUE(run.out.empty());
  EXPECT_NE(run.err.find("nvidia-smi not found on PATH"), std::string::npos) << run.err;
}

TEST_F(FakeTools, WhenTheDriverDoesNotAnswerCollectIsAnEnvironmentError) {
  write_script(dir_ / "bin" / "nvidia-smi",
               "echo \"NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure that the "
               "latest NVIDIA driver is installed and running.\"\nexit 9\n");
  const auto run = run_cli({"collect"});
  EXPECT_EQ(run.exit_code, 4);
  EXPECT_NE(run.err.find("exit 9: NVIDIA-SMI has failed because it couldn't communicate"), std::string::npos) << run.err;
}

TEST_F(FakeTools, TheShellScriptWritesTheSameSections) {
  healthy_nvidia_smi();
  const auto script = fs::path(GPUVET_SCRIPTS) / "gpuvet-collect.sh";
  const auto out = dir_ / "script.txt";
  const int rc = std::system(("/bin/sh '" + script.string() + "' > '" + out.string() + "' 2>/dev/null").c_str());
  ASSERT_EQ(WEXITSTATUS(rc), 0);
  const auto text = read(out);
  const auto collected = run_cli({"collect"});
  // The same markers and statuses in the same order as gpuvet collect.
  auto markers = [](const std::string& t) {
    std::string m;
    std::istringstream in(t);
    for (std::string line; std::getline(in, line);) {
      if (line.rfind("### section:", 0) == 0 || line.rfind("### status:", 0) == 0) m += line + "\n";
    }
    return m;
  };
  // Statuses of tools this test machine may or may not have (lscpu, cat) are compared too: both
  // ran them on the same PATH.
  EXPECT_EQ(markers(text), markers(collected.out));
  const auto run = run_cli({"analyze", out.string(), "--json"});
  ASSERT_TRUE(run.exit_code == 0 || run.exit_code == 1 || run.exit_code == 3) << run.err;
  EXPECT_EQ(nlohmann::json::parse(run.out)["gpus"].size(), 2u);
}

TEST_F(FakeTools, TheShellScriptExitsFourWithoutADriver) {
  const auto script = fs::path(GPUVET_SCRIPTS) / "gpuvet-collect.sh";
  const int rc = std::system(("/bin/sh '" + script.string() + "' >/dev/null 2>&1").c_str());
  EXPECT_EQ(WEXITSTATUS(rc), 4);
}

TEST(AnalyzePaste, TopoAndQueryInOnePasteKeepTheTopology) {
  const auto paste = fs::temp_directory_path() / ("gpuvet-paste-" + std::to_string(::getpid()) + ".txt");
  std::ofstream(paste) << "$ nvidia-smi topo -m\n" << read(fixture("topo/8x-a100-sxm4-40gb-nv12-17nic-1numa.txt"))
                       << "$ nvidia-smi -q\n" << read(fixture("smi-q/8x-a100-sxm4-40gb-nvidia-smi-a.txt"));
  const auto run = run_cli({"analyze", paste.string(), "--json"});
  fs::remove(paste);
  ASSERT_TRUE(run.exit_code == 0 || run.exit_code == 1 || run.exit_code == 3) << run.err;
  const auto report = nlohmann::json::parse(run.out);
  EXPECT_EQ(report["interconnect"]["class"], "nvswitch_full_mesh");
  ASSERT_EQ(report["gpus"].size(), 8u);
  EXPECT_EQ(report["gpus"][0]["name"], "NVIDIA A100-SXM4-40GB");
  EXPECT_NE(run.out.find("a paste of 2 sections: nvidia-smi topo -m (lines 1-"), std::string::npos);
}

}  // namespace
