// Host memory placed on one NUMA node (mmap + mbind), for copy measurements that must know
// where their host buffer lives. Page-aligned, touched so the pages exist before any copy.
#pragma once

#include <cstddef>

#include "core/error.hpp"

namespace gpuvet::platform {

class NumaBuffer {
 public:
  // node < 0: no binding (the kernel's default policy). Error kind: environment.
  static core::Result<NumaBuffer> allocate(std::size_t bytes, int node);
  NumaBuffer(NumaBuffer&& other) noexcept;
  NumaBuffer& operator=(NumaBuffer&& other) noexcept;
  NumaBuffer(const NumaBuffer&) = delete;
  NumaBuffer& operator=(const NumaBuffer&) = delete;
  ~NumaBuffer();

  [[nodiscard]] void* data() const { return data_; }
  [[nodiscard]] std::size_t size() const { return size_; }

 private:
  NumaBuffer(void* data, std::size_t size) : data_(data), size_(size) {}
  void* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace gpuvet::platform
