// Buffers of the copy probes, kept across samples (allocation is slow; copies are what is
// timed): device memory per GPU, pinned host memory per NUMA node. Internal to backends/cuda.
#pragma once

#include <cuda_runtime.h>

#include <map>
#include <memory>
#include <tuple>

#include "backends/api/copy_backend.hpp"
#include "platform/numa_memory.hpp"

namespace gpuvet::cuda {

class CopyBuffers {
 public:
  CopyBuffers() = default;
  CopyBuffers(const CopyBuffers&) = delete;
  CopyBuffers& operator=(const CopyBuffers&) = delete;
  ~CopyBuffers();

  // The buffer for `end` in role `slot` (streams of one sample use distinct slots), `bytes` long.
  core::Result<void*> get(const api::CopyEndpoint& end, int slot, std::size_t bytes);
  // Frees everything (before a VRAM check that needs the whole memory).
  void clear();

 private:
  using Key = std::tuple<bool, int, int, int, std::size_t>;  // host, gpu, node, slot, bytes
  struct Host {
    platform::NumaBuffer memory;
    void* device_pointer = nullptr;
  };
  std::map<Key, void*> device_;
  std::map<Key, std::unique_ptr<Host>> host_;
};

}  // namespace gpuvet::cuda
