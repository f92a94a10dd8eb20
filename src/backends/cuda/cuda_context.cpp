// Primary contexts, module loading and device information through the driver API.
#include "backends/cuda/cuda_context.hpp"

#include <fmt/format.h>

#include "backends/cuda/embedded_kernels.hpp"

namespace gpuvet::cuda {

Gpu::~Gpu() {
  if (context_ == nullptr) return;
  const auto& api = driver_->api();
  if (module_ != nullptr && api.ctx_set_current(context_) == driver::kSuccess) api.module_unload(module_);
  api.ctx_set_current(nullptr);
  api.primary_ctx_release(device_);
}

core::Result<driver::CUcontext> Gpu::context() {
  std::lock_guard lock(mutex_);
  if (context_ == nullptr) {
    if (const auto rc = driver_->api().primary_ctx_retain(&context_, device_); rc != driver::kSuccess) {
      context_ = nullptr;
      return driver_->error(fmt::format("GPU {}: retain the primary context", ordinal_), rc);
    }
  }
  return context_;
}

std::optional<core::Error> Gpu::make_current() {
  auto ctx = context();
  if (!ctx) return ctx.error();
  if (const auto rc = driver_->api().ctx_set_current(*ctx); rc != driver::kSuccess) {
    return driver_->error(fmt::format("GPU {}: make its context current", ordinal_), rc);
  }
  return std::nullopt;
}

core::Result<driver::CUfunction> Gpu::kernel(const char* name) {
  std::lock_guard lock(mutex_);
  const auto& api = driver_->api();
  if (module_ == nullptr) {
    if (const auto rc = api.module_load_data(&module_, embedded_fatbin()); rc != driver::kSuccess) {
      module_ = nullptr;
      int major = 0;
      int minor = 0;
      api.device_get_attribute(&major, driver::kAttrComputeCapabilityMajor, device_);
      api.device_get_attribute(&minor, driver::kAttrComputeCapabilityMinor, device_);
      auto error = driver_->error(
          fmt::format("GPU {} (compute capability {}.{}): load gpuvet's kernels ({}, built with CUDA {}) into the {}",
                      ordinal_, major, minor, describe_fatbin(list_fatbin(embedded_fatbin(), embedded_fatbin_size())),
                      kernel_toolkit_version(), driver_->describe_version()),
          rc);
      // Why: a GPU without SASS in the fatbin needs the PTX JIT-compiled, and the driver only
      // accepts PTX from toolkits no newer than itself (CUDA 13's PTX needs a 580 driver).
      if (rc == driver::kErrorNoBinaryForGpu || rc == driver::kErrorUnsupportedPtxVersion) {
        error.message += "\n  hint: this GPU has no SASS in the binary and the driver cannot compile its PTX; update "
                         "the driver, or rebuild gpuvet with this architecture in GPUVET_CUDA_SASS_ARCHS "
                         "(docs/compatibility.md)";
      }
      return error;
    }
  }
  if (auto it = functions_.find(name); it != functions_.end()) return it->second;
  driver::CUfunction function = nullptr;
  if (const auto rc = api.module_get_function(&function, module_, name); rc != driver::kSuccess) {
    return driver_->error(fmt::format("GPU {}: kernel {} in the embedded module", ordinal_, name), rc);
  }
  functions_[name] = function;
  return function;
}

core::Error Gpu::launch_error(const char* name, driver::CUresult rc) const {
  return driver_->error(fmt::format("GPU {}: launch {}", ordinal_, name), rc);
}

core::Result<std::shared_ptr<Gpus>> Gpus::open() {
  auto opened = driver::Driver::open();
  if (!opened) return opened.error();
  std::shared_ptr<Gpus> gpus(new Gpus(std::move(opened).value()));
  const auto& api = gpus->api();
  int count = 0;
  if (const auto rc = api.device_get_count(&count); rc != driver::kSuccess) {
    return gpus->driver_->error("count GPUs (cuDeviceGetCount)", rc);
  }
  for (int ordinal = 0; ordinal < count; ++ordinal) {
    driver::CUdevice device = 0;
    if (const auto rc = api.device_get(&device, ordinal); rc != driver::kSuccess) {
      return gpus->driver_->error(fmt::format("GPU {}: cuDeviceGet", ordinal), rc);
    }
    gpus->gpus_.push_back(std::make_unique<Gpu>(gpus->driver_, ordinal, device));
  }
  return gpus;
}

core::Result<Gpu*> Gpus::get(int ordinal) {
  if (ordinal < 0 || ordinal >= count()) {
    return core::environment_error(fmt::format("no CUDA device {} ({} visible; check CUDA_VISIBLE_DEVICES)", ordinal, count()));
  }
  return gpus_[static_cast<std::size_t>(ordinal)].get();
}

std::optional<core::Error> Gpus::use(int ordinal) {
  auto gpu = get(ordinal);
  if (!gpu) return gpu.error();
  return (*gpu)->make_current();
}

core::Result<api::DeviceInfo> Gpus::info(int ordinal) const {
  if (ordinal < 0 || ordinal >= count()) return core::environment_error(fmt::format("no CUDA device {}", ordinal));
  const auto& api = driver_->api();
  const driver::CUdevice device = gpus_[static_cast<std::size_t>(ordinal)]->device();
  char name[256] = {};
  if (const auto rc = api.device_get_name(name, sizeof name - 1, device); rc != driver::kSuccess) {
    return driver_->error(fmt::format("GPU {}: name", ordinal), rc);
  }
  int domain = 0;
  int bus = 0;
  int dev = 0;
  for (auto [value, attribute] : {std::pair{&domain, driver::kAttrPciDomainId}, std::pair{&bus, driver::kAttrPciBusId},
                                  std::pair{&dev, driver::kAttrPciDeviceId}}) {
    if (const auto rc = api.device_get_attribute(value, attribute, device); rc != driver::kSuccess) {
      return driver_->error(fmt::format("GPU {}: PCI address", ordinal), rc);
    }
  }
  return api::DeviceInfo{ordinal, name, fmt::format("{:04x}:{:02x}:{:02x}.0", domain, bus, dev), -1};
}

std::string Gpus::describe() const {
  return fmt::format("CUDA {}, {}", driver_->describe_version(), driver_->name());
}

}  // namespace gpuvet::cuda
