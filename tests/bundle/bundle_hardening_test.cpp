// Verifying untrusted bundles: files hashed once as a stream (memory does not grow with a stray
// file), a MANIFEST that is malformed, huge or not a file refused naming the line or the reason
// (never a crash or a hang), and evidence read only from a bundle that matches its MANIFEST.
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "bundle/bundle_dir.hpp"
#include "bundle/manifest.hpp"
#include "bundle/sha256.hpp"

namespace gpuvet::bundle {
namespace {

namespace fs = std::filesystem;

class BundleHardening : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("gpuvet-hardening-" + std::to_string(::getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  void sealed_bundle() {
    ASSERT_TRUE(write_file(dir_, "report.json", "{\"verdict\": \"pass\"}\n").ok());
    ASSERT_TRUE(write_file(dir_, "junit.xml", "<testsuite/>\n").ok());
    ASSERT_TRUE(write_manifest(dir_).ok());
  }
  fs::path dir_;
};

long max_rss_kib() {
  rusage usage{};
  ::getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss;
}

TEST_F(BundleHardening, FileDigestStreamsAcrossBufferBoundaries) {
  for (std::size_t size : {std::size_t{0}, std::size_t{1}, (std::size_t{1} << 20) - 1, std::size_t{1} << 20,
                           (std::size_t{3} << 20) + 7}) {
    std::string content(size, '\0');
    for (std::size_t i = 0; i < size; ++i) content[i] = static_cast<char>((i * 131) ^ (i >> 9));
    std::ofstream(dir_ / "f", std::ios::binary | std::ios::trunc).write(content.data(), static_cast<std::streamsize>(size));
    auto digest = sha256_file(dir_ / "f");
    ASSERT_TRUE(digest.ok()) << digest.error().message;
    EXPECT_EQ(*digest, sha256_hex(content)) << size << " bytes";
  }
  EXPECT_FALSE(sha256_file(dir_ / "missing").ok());
  EXPECT_FALSE(sha256_file(dir_).ok());  // a directory
  ASSERT_EQ(::mkfifo((dir_ / "fifo").c_str(), 0600), 0);
  auto fifo = sha256_file(dir_ / "fifo");  // refused at once, never waits for a writer
  ASSERT_FALSE(fifo.ok());
  EXPECT_NE(fifo.error().message.find("not a regular file"), std::string::npos) << fifo.error().message;
}

TEST_F(BundleHardening, AHugeStrayFileIsHashedWithoutHoldingItInMemory) {
  sealed_bundle();
  {
    // 256 MiB of zeros, sparse on disk: read whole, the old verify grew by twice that.
    const int fd = ::open((dir_ / "stray.bin").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ASSERT_GE(fd, 0);
    ASSERT_EQ(::ftruncate(fd, off_t{256} << 20), 0);
    ::close(fd);
  }
  const long before = max_rss_kib();
  auto result = verify_directory(dir_);
  const long grown_mib = (max_rss_kib() - before) / 1024;
  ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_EQ(result->added, std::vector<std::string>{"stray.bin"});
  EXPECT_EQ(result->files, 3u);
  EXPECT_LT(grown_mib, 32) << "verify held the stray file in memory";
}

TEST_F(BundleHardening, MalformedManifestLinesAreRefusedNamingTheLine) {
  const std::string h(64, 'a');
  const struct {
    std::string text;
    std::string expected;  // in the message
  } cases[] = {
      {"", ""},  // empty MANIFEST: parses, lists nothing
      {h + "\n", "M: line 1: expected '<sha256 hex>  <path>'"},
      {h + "  \n", "M: line 1: path '': empty"},
      {h + " x\n", "M: line 1: expected"},
      {h + " *x\n", "M: line 1: expected"},
      {std::string(64, 'A') + "  x\n", "M: line 1: expected"},
      {"\n\n" + h + "  ok\nzz\n", "M: line 4: expected"},
      {h + "  x\r\n", "M: line 1: path 'x\\x0d': a carriage return"},
      {h + "  a\tb\n", "control byte 0x09"},
      {h + "  " + std::string("a\0b", 3) + "\n", "control byte 0x00"},
      {h + "  /etc/passwd\n", "absolute"},
      {h + "  ../x\n", "leaves the bundle"},
      {h + "  a/../../x\n", "leaves the bundle"},
      {h + "  a//b\n", "leaves the bundle"},
      {h + "  a/\n", "leaves the bundle"},
      {h + "  ./a\n", "leaves the bundle"},
      {h + "  \\x\n", "escaped file name"},
      {h + "  MANIFEST\n", "cannot list itself"},
      {h + "  x\n" + h + "  x\n", "M: line 2: 'x' listed twice"},
      {std::string(100000, 'f'), "M: line 1: expected"},
      {std::string("\xff\xfe\0\0", 4), "M: line 1: expected"},
  };
  for (const auto& c : cases) {
    auto parsed = parse_manifest(c.text, "M");
    if (c.expected.empty()) {
      EXPECT_TRUE(parsed.ok());
      continue;
    }
    ASSERT_FALSE(parsed.ok()) << c.text;
    EXPECT_EQ(parsed.error().kind, core::ErrorKind::bad_input);
    EXPECT_NE(parsed.error().message.find(c.expected), std::string::npos) << parsed.error().message;
    EXPECT_LT(parsed.error().message.size(), 300u) << "a long line is cut in the message";
  }
  // Names such as "a..b" are files, not escapes.
  auto dots = parse_manifest(h + "  a..b\n", "M");
  EXPECT_TRUE(dots.ok()) << dots.error().message;
}

TEST_F(BundleHardening, AManifestThatIsNotAFileOrTooLargeIsRefused) {
  sealed_bundle();
  fs::remove(dir_ / "MANIFEST");
  ASSERT_EQ(::mkfifo((dir_ / "MANIFEST").c_str(), 0600), 0);
  auto fifo = verify_directory(dir_);  // never waits for a writer
  ASSERT_FALSE(fifo.ok());
  EXPECT_NE(fifo.error().message.find("not a regular file"), std::string::npos) << fifo.error().message;
  fs::remove(dir_ / "MANIFEST");
  fs::create_directory(dir_ / "MANIFEST");
  EXPECT_FALSE(verify_directory(dir_).ok());
  fs::remove(dir_ / "MANIFEST");
  {
    const int fd = ::open((dir_ / "MANIFEST").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ASSERT_GE(fd, 0);
    ASSERT_EQ(::ftruncate(fd, static_cast<off_t>(kMaxManifestBytes) + 1), 0);
    ::close(fd);
  }
  auto huge = verify_directory(dir_);
  ASSERT_FALSE(huge.ok());
  EXPECT_NE(huge.error().message.find("more than"), std::string::npos) << huge.error().message;
}

TEST_F(BundleHardening, EvidenceIsReadOnlyFromAnIntactBundle) {
  sealed_bundle();
  auto ok = read_verified_file(dir_, "report.json");
  ASSERT_TRUE(ok.ok()) << ok.error().message;
  EXPECT_EQ(*ok, "{\"verdict\": \"pass\"}\n");
  auto unlisted = read_verified_file(dir_, "nothing.json");
  ASSERT_FALSE(unlisted.ok());
  EXPECT_NE(unlisted.error().message.find("not in the bundle's MANIFEST"), std::string::npos);

  ASSERT_TRUE(write_file(dir_, "report.json", "{\"verdict\": \"fail\"}\n").ok());
  auto tampered = read_verified_file(dir_, "report.json");
  ASSERT_FALSE(tampered.ok());
  EXPECT_EQ(tampered.error().kind, core::ErrorKind::bad_input);
  EXPECT_NE(tampered.error().message.find(dir_.string() + ": the bundle differs from its MANIFEST (changed report.json)"),
            std::string::npos)
      << tampered.error().message;

  sealed_bundle();
  ASSERT_TRUE(write_file(dir_, "extra.txt", "x").ok());
  auto added = read_verified_file(dir_, "report.json");  // any difference, not only in report.json
  ASSERT_FALSE(added.ok());
  EXPECT_NE(added.error().message.find("added extra.txt"), std::string::npos) << added.error().message;
}

}  // namespace
}  // namespace gpuvet::bundle
