// What a backend must offer to measure NCCL-style collectives: the devices, and one timed sample
// of one collective on a set of GPUs (every GPU one rank, driven from this process), or across
// processes (one per node, joined through a ProcessGroup such as MPI's). Implemented
// by backends/cuda (NCCL loaded with dlopen) and backends/sim (an analytic model of the simulated
// machine). The probes in src/probes choose sizes, subsets and repeats, take medians and compute
// algbw/busbw; backends only time iterations and count wrong elements.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "backends/api/copy_backend.hpp"
#include "core/error.hpp"

namespace gpuvet::api {

// The collectives gpuvet runs, named as nccl-tests names its binaries (all_reduce_perf, ...).
enum class CollectiveOp { all_reduce, all_gather, reduce_scatter, alltoall, broadcast, sendrecv };

inline constexpr std::string_view to_string(CollectiveOp op) {
  switch (op) {
    case CollectiveOp::all_reduce: return "all_reduce";
    case CollectiveOp::all_gather: return "all_gather";
    case CollectiveOp::reduce_scatter: return "reduce_scatter";
    case CollectiveOp::alltoall: return "alltoall";
    case CollectiveOp::broadcast: return "broadcast";
    case CollectiveOp::sendrecv: return "sendrecv";
  }
  return "all_reduce";
}

inline std::optional<CollectiveOp> parse_collective_op(std::string_view name) {
  for (auto op : {CollectiveOp::all_reduce, CollectiveOp::all_gather, CollectiveOp::reduce_scatter,
                  CollectiveOp::alltoall, CollectiveOp::broadcast, CollectiveOp::sendrecv}) {
    if (name == to_string(op)) return op;
  }
  return std::nullopt;
}

// One sample. `bytes` is the size nccl-tests prints for the op: the whole buffer for
// all_reduce/broadcast/sendrecv, the gathered output for all_gather, the scattered input for
// reduce_scatter, each rank's send buffer for alltoall. Elements are float (4 bytes); the probe
// rounds `bytes` so every rank gets whole elements. Data type float, reduction sum, root 0.
struct CollectiveRequest {
  CollectiveOp op = CollectiveOp::all_reduce;
  std::vector<int> gpus;      // backend device ordinals (DeviceInfo::ordinal), rank order
  std::uint64_t bytes = 0;
  bool in_place = false;      // output buffer is the input buffer (nccl-tests' in-place column)
  int warmup = 5;             // iterations run first and not timed
  int iterations = 20;        // timed iterations, each timed on its own
  bool check = true;          // count wrong elements after the timed iterations
  std::chrono::milliseconds timeout{60000};  // for the whole sample; a hang never blocks past it
  // NVLS (NVLink SHARP): nullopt = NCCL's choice; false/true = NCCL_NVLS_ENABLE=0/1, each setting on
  // communicators of its own. Where NVLS cannot run, true behaves as NCCL's choice (ring).
  std::optional<bool> nvls;
};

// The processes of a multi-node run, one per node (gpuvet nccl under mpirun: MPI_COMM_WORLD).
// Every call is collective: all processes make it, in the same order, from their main thread.
class ProcessGroup {
 public:
  virtual ~ProcessGroup() = default;
  [[nodiscard]] virtual int rank() const = 0;
  [[nodiscard]] virtual int size() const = 0;
  // Every process receives every process's bytes, in rank order.
  virtual core::Result<std::vector<std::string>> all_gather(const std::string& bytes) = 0;
  // Every process receives rank 0's bytes (the others' argument is ignored).
  virtual core::Result<std::string> broadcast(const std::string& bytes) = 0;
};

// A collective that did not complete within the timeout: the communicator was aborted.
struct CollectiveHang {
  std::vector<int> pending_gpus;  // ordinals whose work had not completed when the time ran out
  std::string detail;             // what the backend saw (NCCL's async error, if any)
};

struct CollectiveSample {
  std::vector<double> iteration_us;  // microseconds per timed iteration, in order
  std::optional<std::int64_t> wrong; // wrong elements summed over ranks; nullopt when not checked
  std::optional<CollectiveHang> hang;  // set when the sample timed out (iteration_us then empty)
};

class CollectiveBackend {
 public:
  virtual ~CollectiveBackend() = default;
  // Where the numbers come from, for reports: "NCCL 2.21.5, CUDA 13.0" or "simulated ...".
  [[nodiscard]] virtual std::string describe() const = 0;
  [[nodiscard]] virtual bool simulated() const = 0;
  // The GPUs this backend can drive, by ordinal, with bus ids to match NVML's numbering.
  virtual core::Result<std::vector<DeviceInfo>> devices() = 0;
  // Bytes of device memory per GPU the backend may allocate for buffers (smallest GPU).
  virtual core::Result<std::uint64_t> memory_per_gpu() = 0;
  // One sample. Errors are tool or environment failures (library missing, allocation failed);
  // a collective that hangs is not an error but a sample with `hang` set.
  virtual core::Result<CollectiveSample> run(const CollectiveRequest& request) = 0;
  // Whether one process can run with NVLS off and then on (request.nvls). NCCL caches
  // NCCL_NVLS_ENABLE at its first read; releases that honour NCCL_NO_CACHE re-read it.
  [[nodiscard]] virtual bool can_switch_nvls() const { return true; }
  // Frees communicators and buffers (the next run sets them up again), so work that follows in
  // the same process (accept's burn-in) gets the GPUs' memory back.
  virtual void release() {}
  // One sample of a collective spanning every process of `group`: this process's `request.gpus`
  // are its ranks, after those of lower processes (global rank = ranks before + position). Every
  // process calls it with the same op, size and settings. The sample holds this process's
  // iteration times and wrong elements; the probe combines the processes'. Backends that cannot
  // span processes return an environment error (the default).
  virtual core::Result<CollectiveSample> run_across(const CollectiveRequest& request, ProcessGroup& group) {
    (void)request;
    (void)group;
    return core::environment_error(describe() + " cannot run collectives across processes");
  }
};

}  // namespace gpuvet::api
