// Ed25519 key pairs, MANIFEST signatures and the bundle digest.
#include "bundle/signature.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/evp.h>
#include <openssl/pem.h>

#include <cstdio>
#include <memory>
#include <optional>
#include <vector>
#include <system_error>

#include <fmt/format.h>

#include "bundle/bundle_dir.hpp"
#include "bundle/manifest.hpp"
#include "bundle/sha256.hpp"

namespace gpuvet::bundle {

namespace fs = std::filesystem;

namespace {

struct KeyFree {
  void operator()(EVP_PKEY* k) const { EVP_PKEY_free(k); }
};
struct CtxFree {
  void operator()(EVP_PKEY_CTX* c) const { EVP_PKEY_CTX_free(c); }
};
struct MdFree {
  void operator()(EVP_MD_CTX* c) const { EVP_MD_CTX_free(c); }
};
struct FileClose {
  void operator()(std::FILE* f) const { std::fclose(f); }
};
using Key = std::unique_ptr<EVP_PKEY, KeyFree>;

std::string os_reason() { return std::generic_category().message(errno); }

// A new file with `mode`, opened for writing only when nothing is there yet.
core::Result<std::unique_ptr<std::FILE, FileClose>> create_exclusive(const fs::path& path, mode_t mode) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
  if (fd < 0) {
    if (errno == EEXIST) return core::usage_error(fmt::format("{} already exists: gpuvet never overwrites a key", path.string()));
    return core::environment_error(fmt::format("cannot create {}: {}", path.string(), os_reason()));
  }
  std::unique_ptr<std::FILE, FileClose> file(::fdopen(fd, "w"));
  if (!file) {
    ::close(fd);
    return core::environment_error(fmt::format("cannot write {}: {}", path.string(), os_reason()));
  }
  return file;
}

// A private key others can read signs for whoever reads it: refused, as ssh refuses such a key.
std::optional<core::Error> too_open(const fs::path& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0 || (st.st_mode & 077) == 0) return std::nullopt;  // unreadable: read_key says why
  return core::input_error(fmt::format("{}: the private key is open to {} (mode {:04o}): whoever can read it can sign "
                                       "bundles as you; run `chmod 600 {}`",
                                       path.string(),
                                       (st.st_mode & 070) == 0   ? "other users"
                                       : (st.st_mode & 07) == 0 ? "its group"
                                                                : "its group and other users",
                                       st.st_mode & 07777, path.string()));
}

core::Result<Key> read_key(const fs::path& path, bool private_key) {
  const auto kind = private_key ? "an Ed25519 private key (PEM, from `gpuvet keygen`)" : "an Ed25519 public key (PEM, KEY.pub)";
  auto text = read_file(path.parent_path().empty() ? "." : path.parent_path(), path.filename().string());
  if (!text) return core::input_error(fmt::format("{}: cannot read the key: {}", path.string(), text.error().message));
  std::unique_ptr<BIO, decltype(&BIO_free)> bio(BIO_new_mem_buf(text->data(), static_cast<int>(text->size())), &BIO_free);
  Key key(private_key ? PEM_read_bio_PrivateKey(bio.get(), nullptr, nullptr, nullptr)
                      : PEM_read_bio_PUBKEY(bio.get(), nullptr, nullptr, nullptr));
  if (!key || EVP_PKEY_get_id(key.get()) != EVP_PKEY_ED25519) {
    return core::input_error(fmt::format("{}: not {}", path.string(), kind));
  }
  if (private_key) {
    if (auto e = too_open(path)) return *e;
  }
  return key;
}

}  // namespace

core::Result<std::string> generate_key_pair(const fs::path& private_path) {
  fs::path public_path = private_path;
  public_path += ".pub";
  std::error_code ec;
  for (const auto& path : {private_path, public_path}) {
    // symlink_status: a dangling link is there too (creating through it is refused below).
    if (fs::exists(fs::symlink_status(path, ec))) {
      return core::usage_error(fmt::format("{} already exists: gpuvet never overwrites a key", path.string()));
    }
  }
  std::unique_ptr<EVP_PKEY_CTX, CtxFree> ctx(EVP_PKEY_CTX_new_id(EVP_PKEY_ED25519, nullptr));
  EVP_PKEY* raw = nullptr;
  if (!ctx || EVP_PKEY_keygen_init(ctx.get()) != 1 || EVP_PKEY_keygen(ctx.get(), &raw) != 1) {
    return core::environment_error("OpenSSL could not generate an Ed25519 key");
  }
  const Key key(raw);
  // Both files are created before either is written, and whatever fails after the first one
  // exists removes what this call created: a refused keygen leaves no key behind.
  std::vector<fs::path> created;
  const auto undo = [&](core::Error e) {
    for (const auto& path : created) fs::remove(path, ec);
    return e;
  };
  auto secret = create_exclusive(private_path, 0600);
  if (!secret) return secret.error();
  created.push_back(private_path);
  auto secret_file = std::move(secret).value();
  auto open = create_exclusive(public_path, 0644);
  if (!open) {
    secret_file.reset();
    return undo(open.error());
  }
  created.push_back(public_path);
  auto open_file = std::move(open).value();
  const bool secret_written = PEM_write_PrivateKey(secret_file.get(), key.get(), nullptr, nullptr, 0, nullptr, nullptr) == 1 &&
                              std::fclose(secret_file.release()) == 0;
  const bool open_written = PEM_write_PUBKEY(open_file.get(), key.get()) == 1 && std::fclose(open_file.release()) == 0;
  if (!secret_written || !open_written) {
    secret_file.reset();
    open_file.reset();
    return undo(core::environment_error(fmt::format("cannot write {}", (secret_written ? public_path : private_path).string())));
  }
  return public_path.string();
}

core::Result<bool> check_signing_key(const fs::path& key_path) {
  auto key = read_key(key_path, true);
  if (!key) return key.error();
  return true;
}

core::Result<bool> sign_manifest(const fs::path& dir, const fs::path& key_path) {
  auto key = read_key(key_path, true);
  if (!key) return key.error();
  auto manifest = read_file(dir, std::string(kManifestName));
  if (!manifest) return manifest.error();
  std::unique_ptr<EVP_MD_CTX, MdFree> md(EVP_MD_CTX_new());
  std::string signature(64, '\0');
  std::size_t length = signature.size();
  if (!md || EVP_DigestSignInit(md.get(), nullptr, nullptr, nullptr, key->get()) != 1 ||
      EVP_DigestSign(md.get(), reinterpret_cast<unsigned char*>(signature.data()), &length,
                     reinterpret_cast<const unsigned char*>(manifest->data()), manifest->size()) != 1) {
    return core::environment_error(fmt::format("OpenSSL could not sign {}/MANIFEST", dir.string()));
  }
  signature.resize(length);
  return write_file(dir, std::string(kSignatureName), signature);
}

core::Result<SignatureCheck> check_manifest_signature(const fs::path& dir, const fs::path& public_key_path) {
  auto manifest = read_file(dir, std::string(kManifestName));
  if (!manifest) return manifest.error();
  return check_signature_of(dir, *manifest, public_key_path);
}

core::Result<SignatureCheck> check_signature_of(const fs::path& dir, std::string_view manifest,
                                                const fs::path& public_key_path) {
  auto key = read_key(public_key_path, false);
  if (!key) return key.error();
  std::error_code ec;
  if (!fs::exists(fs::symlink_status(dir / kSignatureName, ec))) return SignatureCheck::unsigned_bundle;
  auto signature = read_file(dir, std::string(kSignatureName));
  if (!signature) return signature.error();
  std::unique_ptr<EVP_MD_CTX, MdFree> md(EVP_MD_CTX_new());
  if (!md || EVP_DigestVerifyInit(md.get(), nullptr, nullptr, nullptr, key->get()) != 1) {
    return core::environment_error("OpenSSL could not start an Ed25519 verification");
  }
  const int ok = EVP_DigestVerify(md.get(), reinterpret_cast<const unsigned char*>(signature->data()), signature->size(),
                                  reinterpret_cast<const unsigned char*>(manifest.data()), manifest.size());
  return ok == 1 ? SignatureCheck::valid : SignatureCheck::invalid;
}

std::string unchecked_seal(const fs::path& dir) {
  std::error_code ec;
  if (fs::exists(fs::symlink_status(dir / kSignatureName, ec))) {
    return fmt::format("has a {}, not checked: pass --key to check it", kSignatureName);
  }
  return fmt::format("unsigned: anyone can regenerate this {}", kManifestName);
}

core::Result<std::string> bundle_digest(const fs::path& dir) { return sha256_file(dir / kManifestName); }

}  // namespace gpuvet::bundle
