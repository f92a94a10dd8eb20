// The evidence bundle on disk (OUT DIR): files written atomically, the MANIFEST over every file,
// and the check `gpuvet verify` runs. The only filesystem code of accept; the CLI passes the path.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include "bundle/manifest.hpp"
#include "core/error.hpp"

namespace gpuvet::bundle {

// Creates `dir` (and parents) when missing. Errors (environment) name the path and the reason.
core::Result<bool> ensure_directory(const std::filesystem::path& dir);
// Writes dir/name through a temporary file and a rename, so an interrupted run never leaves a
// half-written file behind (the state file is read back to resume).
core::Result<bool> write_file(const std::filesystem::path& dir, const std::string& name, std::string_view content);
// dir/name, or nullopt-like absence: Result error (bad_input) when it exists but cannot be read.
core::Result<std::string> read_file(const std::filesystem::path& dir, const std::string& name);

class RecordedFiles;

// The path of dir/name for a file about to be created there: when one exists already (an earlier
// attempt's) it is kept, renamed to name.earlier-N with the first free N, with its SQLite -wal,
// -shm and -journal files (a -wal or -journal without its database too: SQLite would replay it into
// the new one). `recorded`, when given, learns of each rename and of the file to be created.
core::Result<std::string> fresh_file(const std::filesystem::path& dir, const std::string& name,
                                     RecordedFiles* recorded = nullptr);

// SHA-256 of every regular file under dir (relative paths, '/'-separated), MANIFEST and
// MANIFEST.sig excluded.
// Anything that is not a regular file or directory (a symlink, a device) is an error.
core::Result<Digests> digest_directory(const std::filesystem::path& dir);
// Writes dir/MANIFEST over everything digest_directory() finds.
core::Result<bool> write_manifest(const std::filesystem::path& dir);
// Compares dir/MANIFEST with the directory, reading each file once as a stream; a directory that
// holds no listed file (an empty one too) is added ("name/"), as a file would be. `dir` not a
// directory: usage; no MANIFEST, or one that is malformed or larger than kMaxManifestBytes: bad_input.
core::Result<VerifyResult> verify_directory(const std::filesystem::path& dir);
// The bytes of dir/MANIFEST (at most kMaxManifestBytes), read once: a signature is checked over
// these, and read_sealed_file() verifies against these, whatever dir/MANIFEST holds by then.
core::Result<std::string> read_manifest_file(const std::filesystem::path& dir);

// dir/name for a reader of evidence (compare): only after the whole bundle matched its MANIFEST,
// and only bytes whose digest is the one the MANIFEST lists for `name`. Errors (bad_input) name
// the bundle and the files that differ; a file over `max_bytes` is refused.
core::Result<std::string> read_verified_file(const std::filesystem::path& dir, const std::string& name,
                                             std::size_t max_bytes = 64u << 20);
// The same against `manifest_text` (read_manifest_file) rather than dir/MANIFEST as it is now.
core::Result<std::string> read_sealed_file(const std::filesystem::path& dir, std::string_view manifest_text,
                                           const std::string& name, std::size_t max_bytes = 64u << 20);

}  // namespace gpuvet::bundle
