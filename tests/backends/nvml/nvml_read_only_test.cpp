// Enforces the read-only rule: the NVML backend's source never names an NVML setter, reset or
// clear entry point (nothing that changes GPU state), and its symbol table lists none.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "backends/nvml/nvml_library.hpp"

namespace gpuvet::nvml {
namespace {

// nvmlEventSet* (Create, Wait, Free) manage an event listener in the calling process and change
// no GPU state; they are the one "Set" in NVML names that is not a setter.
const std::regex kStateChanging("nvml(?!EventSet)[A-Za-z]*(Set|Reset|Clear)");

TEST(NvmlReadOnly, PatternCatchesStateChangingNames) {
  for (const char* name : {"nvmlDeviceSetPowerManagementLimit", "nvmlDeviceResetNvLinkErrorCounters",
                           "nvmlDeviceClearEccErrorCounts", "nvmlDeviceSetMigMode", "nvmlDeviceResetGpuLockedClocks"}) {
    EXPECT_TRUE(std::regex_search(name, kStateChanging)) << name;
  }
  for (const char* name : {"nvmlDeviceGetPowerManagementLimit", "nvmlDeviceGetMigMode", "nvmlInit_v2",
                           "nvmlEventSetCreate", "nvmlEventSetWait_v2"}) {
    EXPECT_FALSE(std::regex_search(name, kStateChanging)) << name;
  }
}

TEST(NvmlReadOnly, BackendSourceNamesNoSetterResetOrClear) {
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(GPUVET_NVML_SOURCE_DIR)) {
    const auto ext = entry.path().extension();
    if (ext != ".cpp" && ext != ".hpp" && ext != ".txt") continue;
    std::ifstream in(entry.path());
    ASSERT_TRUE(in) << entry.path();
    ++files;
    int line_number = 0;
    for (std::string line; std::getline(in, line);) {
      ++line_number;
      std::smatch match;
      EXPECT_FALSE(std::regex_search(line, match, kStateChanging))
          << entry.path().filename() << ":" << line_number << ": " << match.str(0);
    }
  }
  EXPECT_GE(files, 10);  // the backend's sources were really read
}

TEST(NvmlReadOnly, SymbolTableListsOnlyQueries) {
  for (const auto& info : symbol_table()) {
    for (const auto name : info.names) {
      EXPECT_FALSE(std::regex_search(std::string(name), kStateChanging)) << name;
      const std::string n(name);
      const bool query = n.starts_with("nvmlDeviceGet") || n.starts_with("nvmlSystemGet") || n.starts_with("nvmlInit") ||
                         n == "nvmlShutdown" || n == "nvmlErrorString" ||
                         // Xid events: a listener in this process, no GPU state changes.
                         n.starts_with("nvmlEventSet") || n == "nvmlDeviceRegisterEvents";
      EXPECT_TRUE(query) << name;
    }
  }
}

}  // namespace
}  // namespace gpuvet::nvml
