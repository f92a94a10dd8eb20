// Resolves the NCCL symbol table.
#include "backends/cuda/nccl_library.hpp"

#include <fmt/format.h>

namespace gpuvet::cuda::nccl {

core::Result<std::unique_ptr<Library>> Library::load(const std::string& name) {
  auto opened = platform::DynamicLibrary::open(name);
  if (!opened) return opened.error().with_context("NCCL unavailable (install libnccl2 or set GPUVET_NCCL_LIBRARY)");
  std::unique_ptr<Library> lib(new Library(std::move(opened).value()));
#define GPUVET_NCCL_RESOLVE(member, signature, required, symbol_name)                                         \
  lib->api_.member = reinterpret_cast<std::add_pointer_t<signature>>(lib->library_->symbol(symbol_name));     \
  if (lib->api_.member == nullptr && (required)) {                                                            \
    return core::environment_error(fmt::format("NCCL symbol {} not exported by {} (NCCL too old?)", symbol_name, \
                                               lib->library_->name()));                                       \
  }
  GPUVET_NCCL_SYMBOLS(GPUVET_NCCL_RESOLVE)
#undef GPUVET_NCCL_RESOLVE
  return lib;
}

std::string Library::version() const {
  int code = 0;
  if (api_.get_version(&code) != ncclSuccess) return "unknown";
  // NCCL_VERSION_CODE: major*10000 + minor*100 + patch from 2.9 on, major*1000 + minor*100 + patch before.
  if (code >= 20900) return fmt::format("{}.{}.{}", code / 10000, (code % 10000) / 100, code % 100);
  return fmt::format("{}.{}.{}", code / 1000, (code % 1000) / 100, code % 100);
}

std::string Library::describe(ncclResult_t code) const {
  const char* words = api_.get_error_string(code);
  return fmt::format("NCCL error {}: {}", static_cast<int>(code), words != nullptr ? words : "no description");
}

}  // namespace gpuvet::cuda::nccl
