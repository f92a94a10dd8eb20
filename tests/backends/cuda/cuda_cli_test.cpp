// The CLI's CUDA paths without a GPU: no driver, a driver older than CUDA 12.0, and `--version`,
// run in-process (cli::run) against the fake libcuda.so.1 builds. The simulator paths are covered
// by tests/cli and must not change.
#include <gtest/gtest.h>

#include <cstdlib>
#include <initializer_list>
#include <string>
#include <vector>

#include "cli_runner.hpp"

namespace gpuvet::testing {
namespace {

struct Env {
  Env(std::initializer_list<std::pair<std::string, std::string>> values) : values_(values) {
    for (const auto& [name, value] : values_) setenv(name.c_str(), value.c_str(), 1);
  }
  ~Env() {
    for (const auto& [name, value] : values_) unsetenv(name.c_str());
  }
  Env(const Env&) = delete;
  Env& operator=(const Env&) = delete;
  std::vector<std::pair<std::string, std::string>> values_;
};

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// Live commands that reach the CUDA driver. burnin opens NVML first, so it gets the fake NVML.
const std::vector<std::vector<std::string>> kLiveCommands = {
    {"bench", "host"}, {"nccl"}, {"burnin", "--duration", "1m", "--db", ":memory:"}};

Env live_env(const char* cuda_library) {
  return Env{{"GPUVET_CUDA_LIBRARY", cuda_library},
              {"GPUVET_FAKE_CUDA_DEVICES", "8"},
              {"GPUVET_NCCL_LIBRARY", "/nonexistent/libnccl.so.2"},
              {"GPUVET_NVML_LIBRARY", GPUVET_FAKE_NVML_FULL},
              {"GPUVET_FAKE_NVML_PROFILE", "hgx-h100-8x"}};
}

TEST(CudaCli, NoDriverIsExit4NamingTheLibrary) {
  const Env env = live_env("/nonexistent/libcuda.so.1");
  for (const auto& args : kLiveCommands) {
    const auto run = run_cli(args);
    EXPECT_EQ(run.exit_code, 4) << args[0] << ": " << run.err;
#ifdef GPUVET_HAVE_CUDA
    EXPECT_TRUE(contains(run.err, "CUDA driver unavailable")) << args[0] << ": " << run.err;
    EXPECT_TRUE(contains(run.err, "/nonexistent/libcuda.so.1")) << args[0] << ": " << run.err;
#endif
  }
}

#ifdef GPUVET_HAVE_CUDA
TEST(CudaCli, DriverOlderThanCuda12IsExit4NamingFoundAndNeeded) {
  const Env env = live_env(GPUVET_FAKE_CUDA_OLD);
  for (const auto& args : kLiveCommands) {
    const auto run = run_cli(args);
    EXPECT_EQ(run.exit_code, 4) << args[0] << ": " << run.err;
    EXPECT_TRUE(contains(run.err, "driver 470.82.01 (CUDA 11.4)")) << args[0] << ": " << run.err;
    EXPECT_TRUE(contains(run.err, "need CUDA 12.0 or later (driver 525.60.13 or later)")) << args[0] << ": " << run.err;
  }
}

TEST(CudaCli, AcceptedDriverWithoutPinnedMemoryShowsTheDriversWords) {
  // The fake has GPUs but no memory and no pinned host memory: every bench sample stops at the
  // first allocation, and the cell is absent with the driver's words as its reason (bench's own
  // rules then decide the verdict; here we check the backend's part only).
  const Env env = live_env(GPUVET_FAKE_CUDA_NEW);
  const auto run = run_cli({"bench", "host", "--gpus", "0", "--json"});
  EXPECT_TRUE(contains(run.out, "allocate the release flag: CUDA_ERROR_NOT_SUPPORTED (operation not supported)"))
      << run.out.substr(0, 2000) << run.err;
  EXPECT_TRUE(contains(run.out, "CUDA driver 550.54.15 (CUDA 12.4)")) << run.out.substr(0, 2000);
}
#endif

TEST(CudaCli, SimulatorPathsNeedNoDriver) {
  const Env env{{"GPUVET_CUDA_LIBRARY", "/nonexistent/libcuda.so.1"}};
  EXPECT_EQ(run_cli({"bench", "host", "--sim", "hgx-h100-8x"}).exit_code, 0);
  EXPECT_EQ(run_cli({"burnin", "--sim", "hgx-h100-8x", "--duration", "2m"}).exit_code, 0);
}

TEST(CudaCli, VersionWithNothingInstalled) {
  const Env env{{"GPUVET_CUDA_LIBRARY", "/nonexistent/libcuda.so.1"},
                 {"GPUVET_NVML_LIBRARY", "/nonexistent/libnvidia-ml.so.1"},
                 {"GPUVET_NCCL_LIBRARY", "/nonexistent/libnccl.so.2"}};
  const auto run = run_cli({"--version"});
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_TRUE(contains(run.out, "gpuvet ")) << run.out;
  EXPECT_TRUE(contains(run.out, "Built with:")) << run.out;
  EXPECT_TRUE(contains(run.out, "On this machine:")) << run.out;
  for (const char* component : {"CUDA driver ", "NVML ", "NCCL "}) {
    EXPECT_TRUE(contains(run.out, std::string("  ") + component)) << component << "\n" << run.out;
  }
  EXPECT_TRUE(contains(run.out, "not found (CUDA driver unavailable")) << run.out;
  EXPECT_TRUE(contains(run.out, "not found (NVML unavailable")) << run.out;
  EXPECT_TRUE(contains(run.out, "not found (NCCL unavailable")) << run.out;
#ifdef GPUVET_HAVE_CUDA
  EXPECT_TRUE(contains(run.out, "SASS sm_80 sm_86 sm_89 sm_90 sm_100 sm_120, PTX compute_80")) << run.out;
  EXPECT_TRUE(contains(run.out, "needs CUDA 12.0 (driver 525.60.13) or later")) << run.out;
#else
  EXPECT_TRUE(contains(run.out, "not built")) << run.out;
#endif
}

TEST(CudaCli, VersionWithTheFakeDriverAndNvml) {
  const Env env{{"GPUVET_CUDA_LIBRARY", GPUVET_FAKE_CUDA_NEW},
                 {"GPUVET_NVML_LIBRARY", GPUVET_FAKE_NVML_FULL},
                 {"GPUVET_FAKE_NVML_PROFILE", "hgx-h100-8x"},
                 {"GPUVET_NCCL_LIBRARY", "/nonexistent/libnccl.so.2"}};
  const auto run = run_cli({"--version"});
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_TRUE(contains(run.out, "driver 550.54.15 (CUDA 12.4), " GPUVET_FAKE_CUDA_NEW)) << run.out;
  EXPECT_TRUE(contains(run.out, "  NVML             driver ")) << run.out;
}

}  // namespace
}  // namespace gpuvet::testing
