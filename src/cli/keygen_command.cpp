// gpuvet keygen -o KEY: an Ed25519 key pair for signing evidence bundles (`accept --sign KEY`,
// `verify --key KEY.pub`). The private key is created exclusively with mode 0600.
#include <ostream>

#include <fmt/format.h>

#include "bundle/signature.hpp"
#include "cli/commands.hpp"

namespace gpuvet::cli {

namespace {

core::Result<core::ExitCode> run_keygen(const std::string& key, Streams& streams) {
  auto public_key = bundle::generate_key_pair(key);
  if (!public_key) return public_key.error();
  streams.out << fmt::format(
      "Private key: {} (keep it to yourself: whoever holds it can sign bundles)\n"
      "Public key:  {} (give it to whoever checks your bundles: gpuvet verify BUNDLE --key {})\n",
      key, *public_key, *public_key);
  return core::ExitCode::pass;
}

}  // namespace

void add_keygen_command(CLI::App& app, Action& action) {
  auto key = std::make_shared<std::string>();
  auto* cmd = app.add_subcommand("keygen", "Create an Ed25519 key pair to sign evidence bundles (accept --sign, verify --key)");
  cmd->add_option("-o,--out", *key, "Private key file to create (never overwritten); the public key goes to FILE.pub")->required();
  cmd->callback([key, &action] { action = [key](Streams& s) { return run_keygen(*key, s); }; });
}

}  // namespace gpuvet::cli
