// Signed bundles: keygen, accept --sign, verify --key. Editing a report and regenerating the
// MANIFEST (what anyone holding the files can do) no longer passes as intact (issue 13).
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "accept_test_support.hpp"
#include "bundle/bundle_dir.hpp"
#include "bundle/manifest.hpp"
#include "cli_runner.hpp"

namespace gpuvet::accept::testing {
namespace {

namespace fs = std::filesystem;
using gpuvet::testing::run_cli;

class AcceptSignature : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("gpuvet-signature-test-" + std::to_string(::getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    spec_ = (dir_ / "spec.yaml").string();
    std::ofstream(spec_) << gates_only("hgx-h100-8x");
    key_ = (dir_ / "buyer.key").string();
    ASSERT_EQ(run_cli({"keygen", "-o", key_}).exit_code, 0);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string accept_signed(const std::string& name) {
    const auto out = (dir_ / name).string();
    auto run = run_cli({"accept", "--spec", spec_, "--sim", "hgx-h100-8x", "--out", out, "--sign", key_});
    EXPECT_EQ(run.exit_code, 0) << run.err;
    EXPECT_NE(run.out.find("Bundle digest (SHA-256 of its MANIFEST): "), std::string::npos) << run.out;
    return out;
  }
  fs::path dir_;
  std::string spec_;
  std::string key_;
};

TEST_F(AcceptSignature, KeygenWritesAPrivateKeyOnlyItsOwnerCanReadAndNeverOverwrites) {
  struct stat st {};
  ASSERT_EQ(::stat(key_.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  EXPECT_TRUE(fs::exists(key_ + ".pub"));
  auto again = run_cli({"keygen", "-o", key_});
  EXPECT_EQ(again.exit_code, 2);
  EXPECT_NE(again.err.find("already exists"), std::string::npos) << again.err;
}

TEST_F(AcceptSignature, ASignedBundleVerifiesWithItsKey) {
  const auto out = accept_signed("b");
  auto verify = run_cli({"verify", out, "--key", key_ + ".pub"});
  EXPECT_EQ(verify.exit_code, 0) << verify.out << verify.err;
  EXPECT_NE(verify.out.find("signature valid"), std::string::npos) << verify.out;
  auto plain = run_cli({"verify", out});
  EXPECT_EQ(plain.exit_code, 0);
  EXPECT_NE(plain.out.find("signed; the signature was not checked"), std::string::npos) << plain.out;
}

TEST_F(AcceptSignature, AReportEditedWithARegeneratedManifestIsCaught) {
  const auto out = accept_signed("b");
  std::ofstream(fs::path(out) / "report.md", std::ios::app) << "\nAll clauses passed.\n";
  ASSERT_TRUE(bundle::write_manifest(out).ok());  // what `sha256sum * > MANIFEST` does
  EXPECT_EQ(run_cli({"verify", out}).exit_code, 0);  // the digests alone cannot tell
  auto verify = run_cli({"verify", out, "--key", key_ + ".pub"});
  EXPECT_EQ(verify.exit_code, 1);
  EXPECT_NE(verify.out.find("SIGNATURE INVALID"), std::string::npos) << verify.out;
}

TEST_F(AcceptSignature, AnotherKeyOrNoSignatureFails) {
  const auto out = accept_signed("b");
  const auto other = (dir_ / "vendor.key").string();
  ASSERT_EQ(run_cli({"keygen", "-o", other}).exit_code, 0);
  EXPECT_EQ(run_cli({"verify", out, "--key", other + ".pub"}).exit_code, 1);
  // A rerun without --sign removes the signature it can no longer vouch for.
  const auto unsigned_out = (dir_ / "u").string();
  ASSERT_EQ(run_cli({"accept", "--spec", spec_, "--sim", "hgx-h100-8x", "--out", unsigned_out}).exit_code, 0);
  auto verify = run_cli({"verify", unsigned_out, "--key", key_ + ".pub"});
  EXPECT_EQ(verify.exit_code, 1);
  EXPECT_NE(verify.out.find("NOT SIGNED"), std::string::npos) << verify.out;
  EXPECT_EQ(run_cli({"verify", out, "--key", spec_}).exit_code, 2);  // not a key: bad input
}

TEST_F(AcceptSignature, AWrongSigningKeyIsRefusedBeforeAnythingRuns) {
  auto no_bundle = run_cli({"accept", "--spec", spec_, "--sim", "hgx-h100-8x", "--no-bundle", "--sign", key_});
  EXPECT_EQ(no_bundle.exit_code, 2);
  EXPECT_NE(no_bundle.err.find("--sign signs the bundle"), std::string::npos) << no_bundle.err;
  auto not_key = run_cli({"accept", "--spec", spec_, "--sim", "hgx-h100-8x", "--out", (dir_ / "x").string(), "--sign", spec_});
  EXPECT_EQ(not_key.exit_code, 2);
  EXPECT_NE(not_key.err.find("not an Ed25519 private key"), std::string::npos) << not_key.err;
  EXPECT_EQ(not_key.err.find("[1/8]"), std::string::npos) << not_key.err;
  auto public_as_private = run_cli({"accept", "--spec", spec_, "--sim", "hgx-h100-8x", "--out", (dir_ / "y").string(),
                                    "--sign", key_ + ".pub"});
  EXPECT_EQ(public_as_private.exit_code, 2);
}

}  // namespace
}  // namespace gpuvet::accept::testing
