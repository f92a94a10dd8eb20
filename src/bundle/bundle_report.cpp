// Reading report.json out of a bundle: MANIFEST, signature, schema, plausible numbers.
#include "bundle/bundle_report.hpp"

#include <fmt/format.h>

#include "bundle/bundle_dir.hpp"
#include "bundle/signature.hpp"

namespace gpuvet::bundle {

namespace fs = std::filesystem;

namespace {

// With a key, the MANIFEST as read must carry a valid signature by its private key.
core::Result<bool> check_seal(const fs::path& dir, std::string_view manifest, const std::string& public_key) {
  auto check = check_signature_of(dir, manifest, public_key);
  if (!check) return check.error();
  switch (*check) {
    case SignatureCheck::valid:
      return true;
    case SignatureCheck::invalid:
      return core::input_error(fmt::format("{}: SIGNATURE INVALID: its MANIFEST was not signed by the key in {}, or changed "
                                           "since; refusing to read it",
                                           dir.string(), public_key));
    case SignatureCheck::unsigned_bundle:
      return core::input_error(fmt::format("{}: NOT SIGNED (no {}), and --key {} asks for a bundle signed by its key; "
                                           "refusing to read it",
                                           dir.string(), kSignatureName, public_key));
  }
  return core::internal_error("unknown signature check");
}

}  // namespace

core::Result<BundleReport> read_bundle_report(const fs::path& dir, const std::string& public_key, const std::string& name) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return core::usage_error(fmt::format("{}: not a directory", dir.string()));
  // One reading of the MANIFEST: the signature is checked over the bytes the files are checked against.
  auto manifest = read_manifest_file(dir);
  if (!manifest) return manifest.error();
  BundleReport out;
  if (!public_key.empty()) {
    auto sealed = check_seal(dir, *manifest, public_key);
    if (!sealed) return sealed.error();
    out.signature_checked = true;
    out.seal = fmt::format("signed by the key in {}", public_key);
  } else {
    out.seal = unchecked_seal(dir);
  }
  auto text = read_sealed_file(dir, *manifest, name);
  if (!text) return text.error();
  const std::string file = (dir / name).string();
  auto report = parse_checked_report(*text, file);
  if (!report) return report.error();
  out.report = std::move(report).value();
  out.text = std::move(text).value();
  return out;
}

}  // namespace gpuvet::bundle
