// Kernel, OS and fabric manager versions read from files under a root: real file shapes
// (os-release of Debian/Ubuntu/RHEL, a dpkg status stanza, a fabric manager log line), and the
// reasons given when nothing says.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <unistd.h>

#include "platform/host_software.hpp"

namespace gpuvet::platform {
namespace {

namespace fs = std::filesystem;

TEST(OsRelease, PrettyNameFirstThenNameAndVersion) {
  EXPECT_EQ(os_release_name("NAME=\"Ubuntu\"\nVERSION=\"22.04.5 LTS (Jammy Jellyfish)\"\nPRETTY_NAME=\"Ubuntu 22.04.5 LTS\"\n"),
            "Ubuntu 22.04.5 LTS");
  EXPECT_EQ(os_release_name("NAME='Rocky Linux'\nVERSION='9.4 (Blue Onyx)'\n"), "Rocky Linux 9.4 (Blue Onyx)");
  EXPECT_EQ(os_release_name("NAME=Debian\n"), "Debian");
  EXPECT_EQ(os_release_name("ID=debian\nPRETTY_NAME=\n"), std::nullopt);
}

TEST(FabricManager, InstalledDpkgPackageOfAnyBranch) {
  const std::string status =
      "Package: nvidia-fabricmanager-dev-535\nStatus: install ok installed\nVersion: 535.1-1\n\n"
      "Package: nvidia-fabricmanager-535\nStatus: deinstall ok config-files\nVersion: 535.104.05-1\n\n"
      "Package: cuda-drivers-fabricmanager-550\nStatus: install ok installed\nArchitecture: amd64\nVersion: 550.54.15-1\n";
  EXPECT_EQ(dpkg_fabric_manager_version(status), "550.54.15-1 (package cuda-drivers-fabricmanager-550)");
  EXPECT_EQ(dpkg_fabric_manager_version("Package: nvidia-fabricmanager\nStatus: install ok installed\nVersion: 570.86.15-1"),
            "570.86.15-1 (package nvidia-fabricmanager)");
  EXPECT_EQ(dpkg_fabric_manager_version("Package: bash\nStatus: install ok installed\nVersion: 5.2\n"), std::nullopt);
}

TEST(FabricManager, LastStartInTheLogWins) {
  EXPECT_EQ(fabric_manager_log_version("[Jan 1 2025 10:00:00] [INFO] [tid 1] Fabric Manager version 535.104.05 is running "
                                       "with the following configuration options\n...\n"
                                       "[Mar 2 2025] [INFO] [tid 9] Fabric Manager version 535.129.03 is running\n"),
            "535.129.03");
  EXPECT_EQ(fabric_manager_log_version("nothing here\n"), std::nullopt);
}

class HostTree : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() / ("gpuvet-host-" + std::to_string(::getpid()) + "-" +
                                         ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(root_);
    fs::create_directories(root_);
  }
  void TearDown() override { fs::remove_all(root_); }
  void write(const std::string& rel, const std::string& text) {
    const auto p = root_ / rel;
    fs::create_directories(p.parent_path());
    std::ofstream(p) << text;
  }
  fs::path root_;
};

TEST_F(HostTree, ReadsEachFromItsFileAndSaysWhereFrom) {
  write("proc/sys/kernel/osrelease", "6.8.0-45-generic\n");
  write("usr/lib/os-release", "PRETTY_NAME=\"Debian GNU/Linux 12 (bookworm)\"\n");
  write("var/log/fabricmanager.log", "[INFO] Fabric Manager version 550.90.07 is running\n");
  const auto sw = read_host_software(FsRoot(root_));
  ASSERT_EQ(sw.size(), 3u);
  EXPECT_EQ(sw[0].key, "kernel");
  EXPECT_EQ(sw[0].value.value_or(""), "6.8.0-45-generic");
  EXPECT_EQ(sw[1].key, "os");
  EXPECT_EQ(sw[1].value.value_or(""), "Debian GNU/Linux 12 (bookworm)");
  EXPECT_EQ(sw[1].source, "/usr/lib/os-release");
  EXPECT_EQ(sw[2].key, "fabric_manager");
  EXPECT_EQ(sw[2].value.value_or(""), "550.90.07");
  EXPECT_EQ(sw[2].source, "/var/log/fabricmanager.log");
}

TEST_F(HostTree, NothingThereIsUnknownWithItsReasonNeverEmpty) {
  const auto sw = read_host_software(FsRoot(root_));
  for (const auto& s : sw) {
    EXPECT_FALSE(s.value.known()) << s.key;
    EXPECT_FALSE(s.value.reason().empty()) << s.key;
  }
  EXPECT_NE(sw[2].value.reason().find("no fabric manager found"), std::string::npos);
  write("usr/bin/nv-fabricmanager", "");
  EXPECT_NE(read_fabric_manager_version(FsRoot(root_)).value.reason().find("installed; its version"), std::string::npos);
}

}  // namespace
}  // namespace gpuvet::platform
