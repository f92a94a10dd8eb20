// Buffers of the copy probes, kept across samples (allocation is slow; copies are what is
// timed): device memory per GPU, pinned host memory per NUMA node (registered portable and
// mapped, so every GPU's context can reach it). Internal to backends/cuda; main thread only.
#pragma once

#include <map>
#include <memory>
#include <tuple>

#include "backends/api/copy_backend.hpp"
#include "backends/cuda/cuda_context.hpp"
#include "platform/numa_memory.hpp"

namespace gpuvet::cuda {

class CopyBuffers {
 public:
  explicit CopyBuffers(std::shared_ptr<Gpus> gpus) : gpus_(std::move(gpus)) {}
  CopyBuffers(const CopyBuffers&) = delete;
  CopyBuffers& operator=(const CopyBuffers&) = delete;
  ~CopyBuffers();

  // The buffer for `end` in role `slot` (streams of one sample use distinct slots), `bytes` long,
  // as an address every GPU can use (unified addressing).
  core::Result<driver::CUdeviceptr> get(const api::CopyEndpoint& end, int slot, std::size_t bytes);
  // Frees everything (before a VRAM check that needs the whole memory).
  void clear();

 private:
  using Key = std::tuple<bool, int, int, int, std::size_t>;  // host, gpu, node, slot, bytes
  struct Host {
    platform::NumaBuffer memory;
    driver::CUdeviceptr device_pointer = 0;
  };
  std::shared_ptr<Gpus> gpus_;
  std::map<Key, driver::CUdeviceptr> device_;
  std::map<Key, std::unique_ptr<Host>> host_;
};

}  // namespace gpuvet::cuda
