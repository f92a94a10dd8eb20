// What a backend must offer to load GPUs for a burn-in: start and stop a GEMM load per GPU and
// report, per poll, the TFLOP/s achieved since the previous poll and the cumulative number of
// result miscompares (results checked against a reference). Implemented by backends/cuda
// (cuBLAS, loaded with dlopen) and backends/sim (the burn-in model). Called by the burn-in runner
// from its sampling thread; the load itself runs on the backend's own threads or streams.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.hpp"
#include "core/reading.hpp"

namespace gpuvet::api {

// Element types the GEMM can run in; names as the command line spells them.
enum class GemmDtype { bf16, fp16, tf32, fp32, fp64, fp8 };

constexpr std::string_view to_string(GemmDtype dtype) {
  switch (dtype) {
    case GemmDtype::bf16: return "bf16";
    case GemmDtype::fp16: return "fp16";
    case GemmDtype::tf32: return "tf32";
    case GemmDtype::fp32: return "fp32";
    case GemmDtype::fp64: return "fp64";
    case GemmDtype::fp8: return "fp8";
  }
  return "bf16";
}

inline bool parse_gemm_dtype(std::string_view text, GemmDtype& out) {
  for (auto d : {GemmDtype::bf16, GemmDtype::fp16, GemmDtype::tf32, GemmDtype::fp32, GemmDtype::fp64, GemmDtype::fp8}) {
    if (to_string(d) == text) {
      out = d;
      return true;
    }
  }
  return false;
}

struct StressConfig {
  GemmDtype dtype = GemmDtype::bf16;
  int matrix_n = 8192;              // square GEMM size (m = n = k)
  double memory_fraction = 0.8;     // share of free memory the buffer ring may take
  int verify_every = 64;            // check one result against the reference every N GEMMs
  std::string pci_bus_id;           // the GPU's bus id, to find its CUDA device (empty: index = ordinal)
};

struct StressStatus {
  bool running = false;
  core::Reading<double> tflops;      // achieved since the previous poll
  std::uint64_t miscompares = 0;     // cumulative
  std::uint64_t gemms = 0;           // cumulative
  std::string error;                 // why the load stopped, when it stopped by itself
};

class StressBackend {
 public:
  virtual ~StressBackend() = default;
  [[nodiscard]] virtual std::string describe() const = 0;
  [[nodiscard]] virtual bool simulated() const = 0;
  // Starts the load on `gpu` at run time `t_s`. Environment error when the GPU or library cannot
  // run it (e.g. the dtype is not supported there).
  virtual std::optional<core::Error> start(int gpu, const StressConfig& config, double t_s) = 0;
  // Stops the load on `gpu` (idempotent); returns when the GPU is idle.
  virtual void stop(int gpu, double t_s) = 0;
  virtual StressStatus poll(int gpu, double t_s) = 0;
  // Runs one GEMM of inputs generated from `seed` (the same on every GPU) beside the load and
  // returns a digest of its result, so results can be compared across GPUs of one model (silent
  // data corruption: a GPU consistently wrong passes its own reference check). Called once per
  // traffic interval. Absent with the reason when the backend cannot (the default).
  virtual core::Reading<std::uint64_t> cross_check(int gpu, std::uint64_t seed, double t_s) {
    (void)gpu;
    (void)seed;
    (void)t_s;
    return core::Reading<std::uint64_t>::absent(describe() + " has no cross-GPU GEMM check");
  }
};

}  // namespace gpuvet::api
