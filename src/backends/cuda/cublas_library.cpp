// Loads cuBLAS and resolves its symbol table.
#include "backends/cuda/cublas_library.hpp"

#include <fmt/format.h>

#include <vector>

namespace gpuvet::cuda::cublas {

core::Result<std::shared_ptr<Library>> Library::load(int driver_cuda_version) {
  std::string tried;
  std::vector<const char*> sonames = {"libcublas.so.13", "libcublas.so.12"};
  if (driver_cuda_version > 0 && driver_cuda_version < 13000) sonames.erase(sonames.begin());
  for (const char* soname : sonames) {
    auto opened = platform::DynamicLibrary::open(soname);
    if (!opened) {
      tried += (tried.empty() ? "" : "; ") + opened.error().message;
      continue;
    }
    std::shared_ptr<Library> lib(new Library(std::move(opened).value()));
#define GPUVET_CUBLAS_RESOLVE(member, signature, exported)                                                 \
  lib->api_.member = reinterpret_cast<std::add_pointer_t<signature>>(lib->library_->symbol(exported));    \
  if (!lib->api_.member) {                                                                                 \
    return core::environment_error(fmt::format("{} does not export {} (cuBLAS too old?)", soname, exported)); \
  }
    GPUVET_CUBLAS_SYMBOLS(GPUVET_CUBLAS_RESOLVE)
#undef GPUVET_CUBLAS_RESOLVE
    return lib;
  }
  return core::environment_error("cuBLAS not found (install the CUDA toolkit's libcublas): " + tried);
}

std::string Library::version() const {
  int major = 0;
  int minor = 0;
  int patch = 0;
  // libraryPropertyType: MAJOR_VERSION 0, MINOR_VERSION 1, PATCH_LEVEL 2.
  if (api_.get_property(0, &major) != kSuccess || api_.get_property(1, &minor) != kSuccess ||
      api_.get_property(2, &patch) != kSuccess) {
    return "unknown";
  }
  return fmt::format("{}.{}.{}", major, minor, patch);
}

std::string status_name(Status status) {
  switch (status) {
    case 0: return "CUBLAS_STATUS_SUCCESS";
    case 1: return "CUBLAS_STATUS_NOT_INITIALIZED";
    case 3: return "CUBLAS_STATUS_ALLOC_FAILED";
    case 7: return "CUBLAS_STATUS_INVALID_VALUE";
    case 8: return "CUBLAS_STATUS_ARCH_MISMATCH";
    case 11: return "CUBLAS_STATUS_MAPPING_ERROR";
    case 13: return "CUBLAS_STATUS_EXECUTION_FAILED";
    case 14: return "CUBLAS_STATUS_INTERNAL_ERROR";
    case 15: return "CUBLAS_STATUS_NOT_SUPPORTED";
    case 16: return "CUBLAS_STATUS_LICENSE_ERROR";
    default: return fmt::format("cuBLAS status {}", status);
  }
}

}  // namespace gpuvet::cuda::cublas
