// gpuvet verify DIR [--key PUB]: is the evidence bundle exactly as `gpuvet accept` wrote it?
// Recomputes the SHA-256 of every file and compares with the MANIFEST (changed, missing and added
// files, an added directory too); with --key, checks the MANIFEST's Ed25519 signature too, and without
// says that it did not.
#include <ostream>

#include <fmt/format.h>

#include "bundle/bundle_dir.hpp"
#include "bundle/signature.hpp"
#include "cli/commands.hpp"
#include "report/text_wrap.hpp"

namespace gpuvet::cli {

namespace {

// With a public key: the MANIFEST must carry a valid signature by its private key. Without one,
// what was not checked is said: the digests alone do not show who wrote the MANIFEST.
core::Result<core::ExitCode> check_signature(const std::string& dir, const std::string& key, Streams& streams) {
  if (key.empty()) {
    streams.out << fmt::format("{}: {}\n", dir, bundle::unchecked_seal(dir));
    return core::ExitCode::pass;
  }
  auto check = bundle::check_manifest_signature(dir, key);
  if (!check) return check.error();
  switch (*check) {
    case bundle::SignatureCheck::valid:
      streams.out << fmt::format("{}: signature valid ({} signed this MANIFEST)\n", dir, key);
      return core::ExitCode::pass;
    case bundle::SignatureCheck::invalid:
      streams.out << fmt::format("{}: SIGNATURE INVALID: the MANIFEST was not signed by the key in {}, or changed since\n", dir, key);
      return core::ExitCode::fail;
    case bundle::SignatureCheck::unsigned_bundle:
      streams.out << fmt::format("{}: NOT SIGNED: no {} (accept --sign KEY writes it)\n", dir, bundle::kSignatureName);
      return core::ExitCode::fail;
  }
  return core::ExitCode::fail;
}

core::Result<core::ExitCode> run_verify(const std::string& dir, const std::string& key, Streams& streams) {
  auto result = bundle::verify_directory(dir);  // each file read once, as a stream
  if (!result) return result.error();
  if (result->intact()) {
    auto digest = bundle::bundle_digest(dir);
    streams.out << report::wrap_line(fmt::format("{}: intact ({} files match the MANIFEST; bundle digest {})", dir, result->files,
                                                 digest ? *digest : "n/a"),
                                     2);
    return check_signature(dir, key, streams);
  }
  streams.out << fmt::format("{}: TAMPERED: the bundle differs from its MANIFEST\n", dir);
  for (const auto& p : result->changed) streams.out << "  changed  " << p << "\n";
  for (const auto& p : result->missing) streams.out << "  missing  " << p << "\n";
  for (const auto& p : result->added) streams.out << "  added    " << p << "\n";
  return core::ExitCode::fail;
}

}  // namespace

void add_verify_command(CLI::App& app, Action& action) {
  auto dir = std::make_shared<std::string>();
  auto key = std::make_shared<std::string>();
  auto* cmd = app.add_subcommand("verify", "Check an evidence bundle against its MANIFEST (exit 1 when tampered)");
  cmd->add_option("DIR", *dir, "The bundle directory written by `gpuvet accept --out DIR`")->required();
  cmd->add_option("--key", *key, "Public key (KEY.pub from `gpuvet keygen`): the MANIFEST must be signed by its private key");
  cmd->callback([dir, key, &action] { action = [dir, key](Streams& s) { return run_verify(*dir, *key, s); }; });
}

}  // namespace gpuvet::cli
