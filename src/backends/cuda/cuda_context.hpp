// The GPUs as the CUDA driver numbers them (PCI order), each with its primary context, and the
// embedded kernels loaded into that context. Primary contexts are the ones the CUDA runtime uses,
// so memory and streams made here work with NCCL and cuBLAS (which use the runtime) in the same
// process. Internal to backends/cuda. A context is current per thread: every thread calls
// Gpu::make_current() before it touches that GPU.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "backends/api/copy_backend.hpp"
#include "backends/cuda/cuda_driver.hpp"

namespace gpuvet::cuda {

class Gpu {
 public:
  Gpu(std::shared_ptr<driver::Driver> driver, int ordinal, driver::CUdevice device)
      : driver_(std::move(driver)), ordinal_(ordinal), device_(device) {}
  // Unloads the kernels and releases the primary context if this object retained it.
  ~Gpu();
  Gpu(const Gpu&) = delete;
  Gpu& operator=(const Gpu&) = delete;

  [[nodiscard]] int ordinal() const { return ordinal_; }
  [[nodiscard]] driver::CUdevice device() const { return device_; }
  [[nodiscard]] const driver::Driver& driver() const { return *driver_; }
  [[nodiscard]] const driver::Api& api() const { return driver_->api(); }
  // Retains the primary context on first use (creating it costs a few hundred MiB of the GPU's
  // memory, so it is done only for GPUs that are used) and makes it current on this thread.
  std::optional<core::Error> make_current();
  // The retained primary context (retaining it if needed); does not change the current one.
  core::Result<driver::CUcontext> context();
  // A kernel of the embedded fatbin. Loads the module into this GPU's context on first use; the
  // context must be current on the calling thread. The error names the GPU, its compute capability,
  // what the fatbin holds and the driver's words.
  core::Result<driver::CUfunction> kernel(const char* name);
  // kernel(name), then cuLaunchKernel on a 1-D grid; the error names the GPU and the kernel. Each
  // argument is passed by value and must have exactly the size of the kernel's parameter
  // (kernel_abi.hpp; device pointers as CUdeviceptr or pointers): the driver copies those bytes.
  template <class... Args>
  std::optional<core::Error> launch(const char* name, unsigned grid, unsigned block, driver::CUstream stream, Args... args) {
    auto function = kernel(name);
    if (!function) return function.error();
    void* params[] = {static_cast<void*>(&args)..., nullptr};
    const auto rc = api().launch_kernel(*function, grid, 1, 1, block, 1, 1, 0, stream, params, nullptr);
    if (rc != driver::kSuccess) return launch_error(name, rc);
    return std::nullopt;
  }

 private:
  [[nodiscard]] core::Error launch_error(const char* name, driver::CUresult rc) const;
  std::shared_ptr<driver::Driver> driver_;
  int ordinal_;
  driver::CUdevice device_;
  std::mutex mutex_;
  driver::CUcontext context_ = nullptr;
  driver::CUmodule module_ = nullptr;
  std::map<std::string, driver::CUfunction> functions_;
};

class Gpus {
 public:
  // Every GPU the driver sees, after Driver::open's version gate. Environment error when the
  // driver cannot count them; zero GPUs is not an error here (callers decide).
  static core::Result<std::shared_ptr<Gpus>> open();

  [[nodiscard]] const driver::Driver& driver() const { return *driver_; }
  [[nodiscard]] const driver::Api& api() const { return driver_->api(); }
  [[nodiscard]] int count() const { return static_cast<int>(gpus_.size()); }
  // Environment error "no CUDA device N" for an ordinal out of range.
  core::Result<Gpu*> get(int ordinal);
  // get(ordinal)->make_current().
  std::optional<core::Error> use(int ordinal);
  // Name and PCI bus id ("0000:1b:00.0", NVML's spelling) of a GPU; numa_node -1.
  core::Result<api::DeviceInfo> info(int ordinal) const;
  // "CUDA driver 570.124.06 (CUDA 12.8), libcuda.so.1"
  [[nodiscard]] std::string describe() const;

 private:
  explicit Gpus(std::shared_ptr<driver::Driver> driver) : driver_(std::move(driver)) {}
  std::shared_ptr<driver::Driver> driver_;
  std::vector<std::unique_ptr<Gpu>> gpus_;
};

}  // namespace gpuvet::cuda
