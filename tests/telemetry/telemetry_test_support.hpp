// Shared helpers of the telemetry tests: a fresh temporary database path per test.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <string>

#include <gtest/gtest.h>

namespace gpuvet::telemetry::testing {

// A path in a fresh temporary directory, removed with the object.
class TempDb {
 public:
  TempDb() {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = std::filesystem::temp_directory_path() /
           ("gpuvet-" + std::string(info ? info->name() : "test") + "-" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  ~TempDb() { std::filesystem::remove_all(dir_); }
  TempDb(const TempDb&) = delete;
  TempDb& operator=(const TempDb&) = delete;
  [[nodiscard]] std::string path(const std::string& name = "run.db") const { return (dir_ / name).string(); }

 private:
  std::filesystem::path dir_;
};

}  // namespace gpuvet::telemetry::testing
