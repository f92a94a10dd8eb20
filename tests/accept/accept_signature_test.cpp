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
  EXPECT_NE(plain.out.find(out + ": has a MANIFEST.sig, not checked: pass --key to check it"), std::string::npos) << plain.out;
}

TEST_F(AcceptSignature, VerifyWithoutAKeySaysWhatItDidNotCheck) {
  // Issue 20: a signature broken by a regenerated MANIFEST was called "signed" with exit 0.
  const auto out = accept_signed("b");
  std::ofstream(fs::path(out) / "report.md", std::ios::app) << "\nAll clauses passed.\n";
  ASSERT_TRUE(bundle::write_manifest(out).ok());
  auto plain = run_cli({"verify", out});
  EXPECT_EQ(plain.exit_code, 0) << "the files match the MANIFEST; only a key can say who wrote it";
  EXPECT_NE(plain.out.find("has a MANIFEST.sig, not checked: pass --key to check it"), std::string::npos) << plain.out;
  EXPECT_EQ(plain.out.find("signed;"), std::string::npos) << plain.out;
  const auto unsigned_out = (dir_ / "u").string();
  ASSERT_EQ(run_cli({"accept", "--spec", spec_, "--sim", "hgx-h100-8x", "--out", unsigned_out}).exit_code, 0);
  auto bare = run_cli({"verify", unsigned_out});
  EXPECT_EQ(bare.exit_code, 0);
  EXPECT_NE(bare.out.find(unsigned_out + ": unsigned: anyone can regenerate this MANIFEST"), std::string::npos) << bare.out;
}

TEST_F(AcceptSignature, AnAddedDirectoryIsADifferenceAsAnAddedFileIs) {
  const auto out = accept_signed("b");
  fs::create_directories(fs::path(out) / "extra");
  auto empty = run_cli({"verify", out});
  EXPECT_EQ(empty.exit_code, 1) << empty.out;
  EXPECT_NE(empty.out.find("TAMPERED"), std::string::npos) << empty.out;
  EXPECT_NE(empty.out.find("added    extra/"), std::string::npos) << empty.out;
  std::ofstream(fs::path(out) / "extra" / "note.txt") << "x";
  auto full = run_cli({"verify", out});
  EXPECT_EQ(full.exit_code, 1);
  EXPECT_NE(full.out.find("added    extra/note.txt"), std::string::npos) << full.out;
  fs::remove(fs::path(out) / "extra" / "note.txt");
  const auto compared = run_cli({"compare", out, accept_signed("c")});
  EXPECT_EQ(compared.exit_code, 2);
  EXPECT_NE(compared.err.find("differs from its MANIFEST (added extra/)"), std::string::npos) << compared.err;
}

TEST_F(AcceptSignature, AKeygenThatRefusesLeavesNoKeyBehind) {
  const auto key = (dir_ / "new.key").string();
  fs::create_symlink(dir_ / "nowhere" / "x.pub", key + ".pub");  // a dangling link where the public key would go
  auto refused = run_cli({"keygen", "-o", key});
  EXPECT_EQ(refused.exit_code, 2) << refused.err;
  EXPECT_NE(refused.err.find(key + ".pub already exists"), std::string::npos) << refused.err;
  EXPECT_FALSE(fs::exists(fs::symlink_status(key))) << "the private key of a refused keygen stayed behind";
  EXPECT_FALSE(fs::exists(dir_ / "nowhere"));
}

TEST_F(AcceptSignature, APrivateKeyOthersCanReadIsRefusedNamingTheFix) {
  for (const auto mode : {fs::perms::group_read, fs::perms::others_read}) {
    fs::permissions(key_, fs::perms::owner_read | fs::perms::owner_write | mode);
    const auto out = (dir_ / "open").string();
    auto run = run_cli({"accept", "--spec", spec_, "--sim", "hgx-h100-8x", "--out", out, "--sign", key_});
    EXPECT_EQ(run.exit_code, 2) << run.err;
    EXPECT_NE(run.err.find(key_ + ": the private key is open to"), std::string::npos) << run.err;
    EXPECT_NE(run.err.find("chmod 600 " + key_), std::string::npos) << run.err;
    EXPECT_EQ(run.err.find("[1/8]"), std::string::npos) << "refused before stage 1: " << run.err;
  }
  fs::permissions(key_, fs::perms::owner_read | fs::perms::owner_write);
  accept_signed("closed");
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
