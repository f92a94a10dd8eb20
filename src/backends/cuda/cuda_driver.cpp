// Loads libcuda.so.1, resolves the driver symbol table and applies the version gate.
#include "backends/cuda/cuda_driver.hpp"

#include <dlfcn.h>
#include <fmt/format.h>

#include <climits>
#include <cstdlib>
#include <map>
#include <mutex>

#include "platform/environment.hpp"

namespace gpuvet::cuda::driver {
namespace {

// One handle per library name for the life of the process: the driver cannot be initialised
// twice, and NCCL and cuBLAS (which find libcuda.so.1 themselves) must share it.
core::Result<std::shared_ptr<platform::DynamicLibrary>> open_once(const std::string& name) {
  static std::mutex mutex;
  static std::map<std::string, std::shared_ptr<platform::DynamicLibrary>> opened;
  std::lock_guard lock(mutex);
  if (auto it = opened.find(name); it != opened.end()) return it->second;
  auto library = platform::DynamicLibrary::open(name);
  if (!library) return library.error();
  opened[name] = library.value();
  return library;
}

// libcuda.so.1 is a link to libcuda.so.<driver release> in NVIDIA's packages and runfiles (and in
// containers, which mount the same files): the release is the tail of the file the symbol came from.
std::string release_of(void* symbol) {
  Dl_info info{};
  if (symbol == nullptr || dladdr(symbol, &info) == 0 || info.dli_fname == nullptr) return {};
  char resolved[PATH_MAX];
  if (realpath(info.dli_fname, resolved) == nullptr) return {};
  const std::string path(resolved);
  const auto at = path.rfind(".so.");
  if (at == std::string::npos) return {};
  const std::string tail = path.substr(at + 4);
  // "535.183.01": digits and dots with at least one dot ("1" is only the soname's major).
  if (tail.find('.') == std::string::npos || tail.find_first_not_of("0123456789.") != std::string::npos) return {};
  return tail;
}

}  // namespace

std::string cuda_version_text(int version) { return fmt::format("{}.{}", version / 1000, version % 1000 / 10); }

std::string default_library_name() { return platform::env("GPUVET_CUDA_LIBRARY").value_or("libcuda.so.1"); }

core::Result<std::shared_ptr<Driver>> Driver::load(const std::string& library_name) {
  auto opened = open_once(library_name);
  if (!opened) {
    return opened.error().with_context(
        "CUDA driver unavailable (is the NVIDIA driver installed? GPUVET_CUDA_LIBRARY names another libcuda)");
  }
  std::shared_ptr<Driver> driver(new Driver(std::move(opened).value()));
#define GPUVET_CUDA_DRIVER_RESOLVE(member, signature, required, ...)                                          \
  for (const char* exported : {__VA_ARGS__}) {                                                               \
    driver->api_.member = reinterpret_cast<std::add_pointer_t<signature>>(driver->library_->symbol(exported)); \
    if (driver->api_.member != nullptr) break;                                                               \
  }                                                                                                          \
  if (driver->api_.member == nullptr && (required)) {                                                        \
    return core::environment_error(fmt::format("CUDA driver symbol {} not exported by {} (driver too old?)",   \
                                               std::initializer_list<const char*>{__VA_ARGS__}.begin()[0],   \
                                               library_name));                                               \
  }
  GPUVET_CUDA_DRIVER_SYMBOLS(GPUVET_CUDA_DRIVER_RESOLVE)
#undef GPUVET_CUDA_DRIVER_RESOLVE
  // cuDriverGetVersion needs no cuInit, so --version never initialises the driver.
  if (const CUresult rc = driver->api_.driver_get_version(&driver->cuda_version_); rc != kSuccess) {
    return driver->error(fmt::format("{}: cuDriverGetVersion", library_name), rc);
  }
  driver->release_ = release_of(reinterpret_cast<void*>(driver->api_.init));
  return driver;
}

core::Result<std::shared_ptr<Driver>> Driver::open(const std::string& library_name) {
  auto loaded = load(library_name);
  if (!loaded) return loaded;
  auto driver = std::move(loaded).value();
  if (driver->cuda_version_ < kMinimumCudaVersion) {
    return core::environment_error(fmt::format(
        "the NVIDIA {} ({}) is too old: gpuvet's CUDA probes need CUDA {} or later (driver {} or later); "
        "update the driver, or use --sim PROFILE",
        driver->describe_version(), driver->name(), cuda_version_text(kMinimumCudaVersion), kMinimumDriver));
  }
  // Number GPUs in PCI order, as NVML and nvidia-smi do, unless the user chose otherwise. The
  // driver reads this at cuInit; NCCL and cuBLAS in this process see the same numbering.
  setenv("CUDA_DEVICE_ORDER", "PCI_BUS_ID", 0);
  if (const CUresult rc = driver->api_.init(0); rc != kSuccess) {
    return driver->error(fmt::format("cuInit ({}, {})", driver->name(), driver->describe_version()), rc);
  }
  return driver;
}

std::string Driver::describe_version() const {
  const std::string cuda = "CUDA " + cuda_version_text(cuda_version_);
  if (release_.empty()) return "driver of unknown release (" + cuda + ")";
  return "driver " + release_ + " (" + cuda + ")";
}

std::string Driver::describe(CUresult code) const {
  const char* name = nullptr;
  const char* words = nullptr;
  if (api_.get_error_name(code, &name) != kSuccess || name == nullptr) return fmt::format("CUDA driver error {}", code);
  if (api_.get_error_string(code, &words) != kSuccess || words == nullptr) return name;
  return fmt::format("{} ({})", name, words);
}

core::Error Driver::error(const std::string& what, CUresult code) const {
  return core::environment_error(what + ": " + describe(code));
}

}  // namespace gpuvet::cuda::driver
