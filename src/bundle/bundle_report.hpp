// The one reader of evidence bundles for `compare`, `plan --offer` and an offers file's `bundle:`,
// `trend --baseline` and `monitor --baseline`: report.json only once the whole bundle matches its
// MANIFEST and, with a public key (--key), only once the MANIFEST's signature verifies with it;
// then checked against its schema, and its numbers against what hardware can do.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include "accept/accept_model.hpp"
#include "bundle/checked_report.hpp"
#include "core/error.hpp"

namespace gpuvet::bundle {

struct BundleReport {
  accept::AcceptReport report;
  std::string text;              // the file as read (compare notes two copies of one run)
  bool signature_checked = false;  // a public key verified the MANIFEST's signature
  // What vouches for it: "signed by the key in KEY", or, without a key, unchecked_seal()'s words.
  std::string seal;
};

// dir/name (report.json unless told). `public_key` empty: the signature is not checked and `seal`
// says so. Errors are bad_input naming the bundle (or usage: `dir` is not a directory): it differs
// from its MANIFEST; with a key, its MANIFEST.sig is missing or does not verify; the file breaks its
// schema or holds an implausible number (checked_report.hpp).
core::Result<BundleReport> read_bundle_report(const std::filesystem::path& dir, const std::string& public_key,
                                              const std::string& name = "report.json");

}  // namespace gpuvet::bundle
