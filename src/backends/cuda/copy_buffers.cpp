// Allocation and release of the copy probes' buffers.
#include "backends/cuda/copy_buffers.hpp"

#include <fmt/format.h>

namespace gpuvet::cuda {

CopyBuffers::~CopyBuffers() { clear(); }

void CopyBuffers::clear() {
  const auto& api = gpus_->api();
  for (auto& [key, ptr] : device_) {
    if (!gpus_->use(std::get<1>(key))) api.mem_free(ptr);
  }
  device_.clear();
  for (auto& [key, host] : host_) api.mem_host_unregister(host->memory.data());
  host_.clear();
}

core::Result<driver::CUdeviceptr> CopyBuffers::get(const api::CopyEndpoint& end, int slot, std::size_t bytes) {
  const Key key{end.host, end.gpu, end.host ? end.numa_node : -1, slot, bytes};
  const auto& api = gpus_->api();
  const auto& driver = gpus_->driver();
  if (!end.host) {
    if (auto it = device_.find(key); it != device_.end()) return it->second;
    if (auto e = gpus_->use(end.gpu)) return *e;
    driver::CUdeviceptr ptr = 0;
    if (auto rc = api.mem_alloc(&ptr, bytes); rc != driver::kSuccess) {
      return driver.error(fmt::format("GPU {}: allocate {} MiB", end.gpu, bytes >> 20), rc);
    }
    api.memset_d8(ptr, 0, bytes);
    device_[key] = ptr;
    return ptr;
  }
  if (auto it = host_.find(key); it != host_.end()) return it->second->device_pointer;
  auto memory = platform::NumaBuffer::allocate(bytes, end.numa_node);
  if (!memory) return memory.error();
  auto host = std::make_unique<Host>(Host{std::move(memory).value(), 0});
  // Registration needs a current context (the last GPU used on this thread, else GPU 0, as the
  // runtime did); PORTABLE makes the pinning visible to every context.
  driver::CUcontext current = nullptr;
  if (api.ctx_get_current(&current) != driver::kSuccess || current == nullptr) {
    if (auto e = gpus_->use(0)) return *e;
  }
  if (auto rc = api.mem_host_register(host->memory.data(), bytes, driver::kMemHostRegisterPortable | driver::kMemHostRegisterDeviceMap);
      rc != driver::kSuccess) {
    return driver.error(fmt::format("pin {} MiB of host memory on NUMA node {}", bytes >> 20, end.numa_node), rc);
  }
  if (auto rc = api.mem_host_get_device_pointer(&host->device_pointer, host->memory.data(), 0); rc != driver::kSuccess) {
    api.mem_host_unregister(host->memory.data());
    return driver.error("map pinned host memory", rc);
  }
  const driver::CUdeviceptr out = host->device_pointer;
  host_[key] = std::move(host);
  return out;
}

}  // namespace gpuvet::cuda
