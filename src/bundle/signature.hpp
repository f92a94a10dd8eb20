// Ed25519 signatures over a bundle's MANIFEST (OpenSSL libcrypto EVP), so a bundle holds against
// whoever holds the files: editing a report and regenerating the MANIFEST breaks the signature.
// Keys are PEM files (PKCS#8 private, SubjectPublicKeyInfo public), the signature is the raw
// 64-byte Ed25519 signature in MANIFEST.sig, which `openssl pkeyutl -verify -rawin` also checks.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include "core/error.hpp"

namespace gpuvet::bundle {

inline constexpr std::string_view kSignatureName = "MANIFEST.sig";

// Writes a new key pair: `private_path` (mode 0600, created exclusively) and `private_path`.pub.
// Refuses to overwrite either (usage error). Returns the public key file's path.
core::Result<std::string> generate_key_pair(const std::filesystem::path& private_path);

// Whether `key_path` holds an Ed25519 private key, checked before a run so a wrong --sign fails
// before hours of measuring, not after.
core::Result<bool> check_signing_key(const std::filesystem::path& key_path);

// Signs dir/MANIFEST with the private key in `key_path`, writing dir/MANIFEST.sig. Errors name
// the key file (bad_input: not an Ed25519 private key) or the bundle.
core::Result<bool> sign_manifest(const std::filesystem::path& dir, const std::filesystem::path& key_path);

enum class SignatureCheck { valid, invalid, unsigned_bundle };

// Checks dir/MANIFEST.sig against dir/MANIFEST with the public key in `public_key_path`.
core::Result<SignatureCheck> check_manifest_signature(const std::filesystem::path& dir,
                                                      const std::filesystem::path& public_key_path);
// The same over `manifest_text`, the MANIFEST as the caller read it (bundle_dir.hpp read_manifest_file).
core::Result<SignatureCheck> check_signature_of(const std::filesystem::path& dir, std::string_view manifest_text,
                                                const std::filesystem::path& public_key_path);

// What a bundle's seal says when no key checked it, for `verify` and every reader of bundles:
// "has a MANIFEST.sig, not checked: pass --key to check it", or "unsigned: anyone can regenerate
// this MANIFEST" (its digests only show that the files match a MANIFEST, not who wrote it).
std::string unchecked_seal(const std::filesystem::path& dir);

// SHA-256 of dir/MANIFEST: one line that identifies every byte of the bundle, to paste in an
// e-mail or ticket and compare later.
core::Result<std::string> bundle_digest(const std::filesystem::path& dir);

}  // namespace gpuvet::bundle
