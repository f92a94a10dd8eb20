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
#include "core/vram.hpp"

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
  // NUMA node ids host buffers can be bound to (one entry on a single-socket machine).
  virtual core::Result<std::vector<int>> host_numa_nodes() = 0;
  virtual core::Result<bool> can_access_peer(int a, int b) = 0;
  // GB/s (1e9 B/s) per stream, in request order, for one sample.
  virtual core::Result<std::vector<double>> copy_sample(const CopyRequest& request) = 0;
  // Nanoseconds per dependent access, one sample.
  virtual core::Result<double> latency_sample(const LatencyRequest& request) = 0;
  // Fills total/tested bytes, patterns, miscompares and seconds; `error` when it stopped early
  // after testing part of the memory (what was tested is kept).
  virtual core::Result<core::VramCheck> verify_vram(const VramRequest& request) = 0;
};

}  // namespace gpuvet::api
