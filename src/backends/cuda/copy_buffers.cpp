// Allocation and release of the copy probes' buffers.
#include "backends/cuda/copy_buffers.hpp"

#include <fmt/format.h>

#include "backends/cuda/cuda_status.hpp"

namespace gpuvet::cuda {

CopyBuffers::~CopyBuffers() { clear(); }

void CopyBuffers::clear() {
  for (auto& [key, ptr] : device_) {
    cudaSetDevice(std::get<1>(key));
    cudaFree(ptr);
  }
  device_.clear();
  for (auto& [key, host] : host_) cudaHostUnregister(host->memory.data());
  host_.clear();
}

core::Result<void*> CopyBuffers::get(const api::CopyEndpoint& end, int slot, std::size_t bytes) {
  const Key key{end.host, end.gpu, end.host ? end.numa_node : -1, slot, bytes};
  if (!end.host) {
    if (auto it = device_.find(key); it != device_.end()) return it->second;
    if (auto rc = cudaSetDevice(end.gpu); rc != cudaSuccess) return cuda_error(fmt::format("GPU {}: select", end.gpu), rc);
    void* ptr = nullptr;
    if (auto rc = cudaMalloc(&ptr, bytes); rc != cudaSuccess) {
      return cuda_error(fmt::format("GPU {}: allocate {} MiB", end.gpu, bytes >> 20), rc);
    }
    cudaMemset(ptr, 0, bytes);
    device_[key] = ptr;
    return ptr;
  }
  if (auto it = host_.find(key); it != host_.end()) return it->second->device_pointer;
  auto memory = platform::NumaBuffer::allocate(bytes, end.numa_node);
  if (!memory) return memory.error();
  auto host = std::make_unique<Host>(Host{std::move(memory).value(), nullptr});
  if (auto rc = cudaHostRegister(host->memory.data(), bytes, cudaHostRegisterPortable | cudaHostRegisterMapped);
      rc != cudaSuccess) {
    return cuda_error(fmt::format("pin {} MiB of host memory on NUMA node {}", bytes >> 20, end.numa_node), rc);
  }
  if (auto rc = cudaHostGetDevicePointer(&host->device_pointer, host->memory.data(), 0); rc != cudaSuccess) {
    cudaHostUnregister(host->memory.data());
    return cuda_error("map pinned host memory", rc);
  }
  void* out = host->device_pointer;
  host_[key] = std::move(host);
  return out;
}

}  // namespace gpuvet::cuda
