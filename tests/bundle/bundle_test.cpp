// SHA-256 against the FIPS 180-2 vectors, MANIFEST parsing, tamper detection on a real
// directory, and the topo -m style text of a simulated machine.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <unistd.h>

#include "backends/sim/simulator.hpp"
#include "bundle/bundle_dir.hpp"
#include "bundle/manifest.hpp"
#include "bundle/sha256.hpp"
#include "report/topology_text.hpp"

namespace gpuvet::bundle {
namespace {

namespace fs = std::filesystem;

TEST(Sha256, KnownVectors) {
  EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

TEST(Manifest, RendersAndParsesSha256sumFormat) {
  Digests d{{"b.txt", std::string(64, 'b')}, {"a/x.json", std::string(64, 'a')}};
  const auto text = render_manifest(d);
  EXPECT_EQ(text, std::string(64, 'a') + "  a/x.json\n" + std::string(64, 'b') + "  b.txt\n");
  auto back = parse_manifest(text, "MANIFEST");
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(*back, d);
}

TEST(Manifest, MalformedLinesNameTheLine) {
  auto short_hash = parse_manifest("abc  x\n", "M");
  ASSERT_FALSE(short_hash.ok());
  EXPECT_EQ(short_hash.error().message, "M: line 1: expected '<sha256 hex>  <path>'");
  auto escape = parse_manifest(std::string(64, 'a') + "  ../etc/passwd\n", "M");
  ASSERT_FALSE(escape.ok());
  auto twice = parse_manifest(std::string(64, 'a') + "  x\n" + std::string(64, 'b') + "  x\n", "M");
  ASSERT_FALSE(twice.ok());
  EXPECT_EQ(twice.error().message, "M: line 2: 'x' listed twice");
}

TEST(Manifest, CompareFindsChangedMissingAdded) {
  const auto r = compare_digests({{"a", "1"}, {"b", "2"}, {"c", "3"}}, {{"a", "1"}, {"b", "9"}, {"d", "4"}});
  EXPECT_EQ(r.changed, std::vector<std::string>{"b"});
  EXPECT_EQ(r.missing, std::vector<std::string>{"c"});
  EXPECT_EQ(r.added, std::vector<std::string>{"d"});
  EXPECT_FALSE(r.intact());
  EXPECT_TRUE(compare_digests({{"a", "1"}}, {{"a", "1"}}).intact());
}

TEST(BundleDir, WriteManifestThenVerifyDetectsOneByte) {
  const fs::path dir = fs::temp_directory_path() / ("gpuvet-bundle-test-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  ASSERT_TRUE(ensure_directory(dir / "sub").ok());
  ASSERT_TRUE(write_file(dir, "a.txt", "hello").ok());
  ASSERT_TRUE(write_file(dir / "sub", "b.bin", std::string("\0\1\2", 3)).ok());
  ASSERT_TRUE(write_manifest(dir).ok());
  auto ok = verify_directory(dir);
  ASSERT_TRUE(ok.ok());
  EXPECT_TRUE(ok->intact());
  ASSERT_TRUE(write_file(dir, "a.txt", "hellp").ok());
  auto bad = verify_directory(dir);
  ASSERT_TRUE(bad.ok());
  EXPECT_EQ(bad->changed, std::vector<std::string>{"a.txt"});
  EXPECT_TRUE(bad->missing.empty());
  fs::create_symlink(dir / "a.txt", dir / "link");
  EXPECT_FALSE(verify_directory(dir).ok());  // links are refused, not followed
  fs::remove_all(dir);
}

TEST(BundleDir, FreshFileKeepsTheEarlierDatabaseWithItsWal) {
  const fs::path dir = fs::temp_directory_path() / ("gpuvet-fresh-test-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  ASSERT_TRUE(ensure_directory(dir).ok());
  EXPECT_EQ(fresh_file(dir, "t.db").value(), (dir / "t.db").string());  // nothing there: nothing moved
  ASSERT_TRUE(write_file(dir, "t.db", "db1").ok());
  ASSERT_TRUE(write_file(dir, "t.db-wal", "wal1").ok());
  EXPECT_EQ(fresh_file(dir, "t.db").value(), (dir / "t.db").string());
  EXPECT_FALSE(fs::exists(dir / "t.db"));
  EXPECT_FALSE(fs::exists(dir / "t.db-wal"));
  EXPECT_TRUE(fs::exists(dir / "t.db.earlier-1"));
  EXPECT_TRUE(fs::exists(dir / "t.db.earlier-1-wal")) << "the WAL holds commits: it moves with its database";
  ASSERT_TRUE(write_file(dir, "t.db", "db2").ok());
  ASSERT_TRUE(fresh_file(dir, "t.db").ok());
  EXPECT_TRUE(fs::exists(dir / "t.db.earlier-2"));
  fs::remove_all(dir);
}

TEST(TopologyText, LooksLikeTopoM) {
  auto m = sim::simulate_machine("nvlink-4plus4-8x", {});
  ASSERT_TRUE(m.ok());
  const auto text = report::render_topology_text(*m);
  EXPECT_NE(text.find("\tGPU0\tGPU1\tGPU2\tGPU3\tGPU4\tGPU5\tGPU6\tGPU7\tNIC0\tNIC1\tCPU Affinity\tNUMA Affinity\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("GPU0\tX\tNV4\tNV4\tNV4\t"), std::string::npos) << text;
  EXPECT_NE(text.find("NV#  = bonded set of NVLinks"), std::string::npos);
  EXPECT_NE(text.find("NIC0: mlx5_0"), std::string::npos);
}

}  // namespace
}  // namespace gpuvet::bundle
