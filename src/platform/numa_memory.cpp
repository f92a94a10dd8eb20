// mbind(2) through syscall(2): no libnuma dependency. Constants from <linux/mempolicy.h>.
#include "platform/numa_memory.hpp"

#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

namespace gpuvet::platform {
namespace {
constexpr int kMpolBind = 2;
constexpr unsigned kMpolMfStrict = 1u << 0;
constexpr unsigned kMpolMfMove = 1u << 1;
}  // namespace

core::Result<NumaBuffer> NumaBuffer::allocate(std::size_t bytes, int node) {
  if (bytes == 0) return core::usage_error("host buffer of 0 bytes");
  void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) {
    return core::environment_error("mmap of " + std::to_string(bytes >> 20) + " MiB host memory: " + std::strerror(errno));
  }
  NumaBuffer buffer(p, bytes);
  if (node >= 0) {
    const std::size_t bits = 8 * sizeof(unsigned long);
    std::vector<unsigned long> mask(static_cast<std::size_t>(node) / bits + 1, 0);
    mask[static_cast<std::size_t>(node) / bits] |= 1ul << (static_cast<std::size_t>(node) % bits);
    const long rc = syscall(SYS_mbind, p, bytes, kMpolBind, mask.data(), mask.size() * bits + 1, kMpolMfStrict | kMpolMfMove);
    if (rc != 0) {
      return core::environment_error("mbind of host memory to NUMA node " + std::to_string(node) + ": " + std::strerror(errno));
    }
  }
  std::memset(p, 0, bytes);  // fault the pages in on the bound node
  return buffer;
}

NumaBuffer::NumaBuffer(NumaBuffer&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)) {}

NumaBuffer& NumaBuffer::operator=(NumaBuffer&& other) noexcept {
  if (this != &other) {
    if (data_ != nullptr) munmap(data_, size_);
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
  }
  return *this;
}

NumaBuffer::~NumaBuffer() {
  if (data_ != nullptr) munmap(data_, size_);
}

}  // namespace gpuvet::platform
