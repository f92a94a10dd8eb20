// What a backend must offer to measure copies and memory: one timed sample of a set of
// concurrent copies, one latency sample, peer access, and a VRAM pattern check. Implemented by
// backends/cuda (real GPUs) and backends/sim (the envelope of a simulated machine). The probes
// in src/probes choose sizes, repeat samples, take medians and assemble matrices.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "core/error.hpp"

namespace gpuvet::api {

// Who moves the bytes: the copy engines (cudaMemcpyAsync) or SMs running a copy kernel.
enum class CopyEngine { ce, sm };

// One end of a copy: pinned host memory on a NUMA node, or a GPU's memory (CUDA ordinal).
struct CopyEndpoint {
  bool host = false;
  int gpu = -1;        // device memory owner; for host memory, the GPU whose NUMA node is meant
  int numa_node = -1;  // host memory: the node the pinned buffer is bound to (-1: no binding)

  static CopyEndpoint device(int g) { return {false, g, -1}; }
  static CopyEndpoint host_memory(int near_gpu, int node) { return {true, near_gpu, node}; }
};

// One copy stream of a sample. `executor` is the GPU whose copy engine or SMs do the work
// (for a peer "read" the destination, for a "write" the source; nvbandwidth's convention).
struct CopyStream {
  CopyEndpoint src;
  CopyEndpoint dst;
  int executor = -1;
};

// All streams start together (held by a spin kernel until every copy is queued) and are
// timed separately with events.
struct CopyRequest {
  std::vector<CopyStream> streams;
  CopyEngine engine = CopyEngine::ce;
  std::uint64_t bytes = 0;   // per copy
  int repeats = 1;           // copies queued back to back per stream in one sample
  std::chrono::milliseconds timeout{10000};
};

struct LatencyRequest {
  int executor = 0;          // GPU running the pointer-chase kernel
  CopyEndpoint memory;       // where the chased buffer lives
  std::chrono::milliseconds timeout{10000};
};

struct VramRequest {
  int gpu = 0;
  std::uint64_t seed = 1;
  std::uint64_t reserve_bytes = 512ull << 20;  // left free for the driver and context
  std::chrono::milliseconds timeout{600000};
};

struct VramMiscompare {
  std::string pattern;            // "address", "walking-ones", "random"
  std::uint64_t first_offset = 0; // byte offset of the first bad word in the tested range
  std::uint64_t last_offset = 0;
  std::uint64_t words = 0;        // bad 8-byte words
};

struct VramResult {
  std::uint64_t total_bytes = 0;      // what the driver reports as total
  std::uint64_t tested_bytes = 0;     // allocated, written and read back
  std::vector<std::string> patterns;  // patterns run over tested_bytes
  std::vector<VramMiscompare> miscompares;
  double seconds = 0;
};

struct DeviceInfo {
  int ordinal = 0;
  std::string name;
  std::string pci_bus_id;  // "0000:18:00.0", to match NVML's numbering
  int numa_node = -1;      // host node nearest the GPU, -1 unknown
};

class CopyBackend {
 public:
  virtual ~CopyBackend() = default;
  // Where the numbers come from, for reports: "CUDA 13.0, driver 580.65" or "simulated ...".
  [[nodiscard]] virtual std::string describe() const = 0;
  [[nodiscard]] virtual bool simulated() const = 0;
  virtual core::Result<std::vector<DeviceInfo>> devices() = 0;
  virtual core::Result<bool> can_access_peer(int a, int b) = 0;
  // GB/s (1e9 B/s) per stream, in request order, for one sample.
  virtual core::Result<std::vector<double>> copy_sample(const CopyRequest& request) = 0;
  // Nanoseconds per dependent access, one sample.
  virtual core::Result<double> latency_sample(const LatencyRequest& request) = 0;
  virtual core::Result<VramResult> verify_vram(const VramRequest& request) = 0;
};

}  // namespace gpuvet::api
