// gpuvet verify DIR: is the evidence bundle exactly as `gpuvet accept` wrote it? Recomputes the
// SHA-256 of every file and compares with the MANIFEST: changed, missing and added files.
#include <ostream>

#include <fmt/format.h>

#include "bundle/bundle_dir.hpp"
#include "cli/commands.hpp"

namespace gpuvet::cli {

namespace {

core::Result<core::ExitCode> run_verify(const std::string& dir, Streams& streams) {
  auto result = bundle::verify_directory(dir);  // each file read once, as a stream
  if (!result) return result.error();
  if (result->intact()) {
    streams.out << fmt::format("{}: intact ({} files match the MANIFEST)\n", dir, result->files);
    return core::ExitCode::pass;
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
  auto* cmd = app.add_subcommand("verify", "Check an evidence bundle against its MANIFEST (exit 1 when tampered)");
  cmd->add_option("DIR", *dir, "The bundle directory written by `gpuvet accept --out DIR`")->required();
  cmd->callback([dir, &action] { action = [dir](Streams& s) { return run_verify(*dir, s); }; });
}

}  // namespace gpuvet::cli
