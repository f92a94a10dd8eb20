// read_user_file: regular files, pipes and FIFOs are read; what would block or is no file is refused.
#include "platform/user_file.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <thread>

namespace gpuvet::platform {
namespace {

namespace fs = std::filesystem;

class UserFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("gpuvet-user-file-" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

TEST_F(UserFileTest, ReadsARegularFile) {
  const auto path = dir_ / "topo.txt";
  std::ofstream(path) << "GPU0\tX\n";
  auto text = read_user_file(path.string());
  ASSERT_TRUE(text) << text.error().message;
  EXPECT_EQ(*text, "GPU0\tX\n");
}

TEST_F(UserFileTest, RefusesAFileOverTheLimit) {
  const auto path = dir_ / "big.txt";
  std::ofstream(path) << std::string(2048, 'x');
  auto text = read_user_file(path.string(), UserFileLimits{.max_bytes = 1024});
  ASSERT_FALSE(text);
  EXPECT_NE(text.error().message.find("limit"), std::string::npos);
}

TEST_F(UserFileTest, RefusesDirectoriesAndDevices) {
  auto dir = read_user_file(dir_.string());
  ASSERT_FALSE(dir);
  EXPECT_NE(dir.error().message.find("is a directory"), std::string::npos);
  auto device = read_user_file("/dev/zero");
  ASSERT_FALSE(device);
  EXPECT_EQ(device.error().kind, core::ErrorKind::bad_input);
  EXPECT_NE(device.error().message.find("/dev/zero: not a regular file"), std::string::npos);
}

TEST_F(UserFileTest, AFifoWithoutAWriterTimesOutInsteadOfBlocking) {
  const auto path = dir_ / "fifo";
  ASSERT_EQ(::mkfifo(path.c_str(), 0600), 0);
  auto text = read_user_file(path.string(), UserFileLimits{.idle_timeout = std::chrono::milliseconds(50)});
  ASSERT_FALSE(text);
  EXPECT_NE(text.error().message.find("no data"), std::string::npos) << text.error().message;
}

TEST_F(UserFileTest, AFifoWithAWriterIsRead) {
  const auto path = dir_ / "fifo";
  ASSERT_EQ(::mkfifo(path.c_str(), 0600), 0);
  std::thread writer([&] { std::ofstream(path) << "GPU0\tX\n"; });
  auto text = read_user_file(path.string());
  writer.join();
  ASSERT_TRUE(text) << text.error().message;
  EXPECT_EQ(*text, "GPU0\tX\n");
}

}  // namespace
}  // namespace gpuvet::platform
