// The simulator's burn-in model: per GPU, a first-order thermal model driven by board power, a
// power-capped SM clock that the driver lowers when the GPU reaches its maximum operating
// temperature, GEMM throughput proportional to clock (times the straggler factor), cumulative
// counters (energy, ECC, NVLink CRC/replay) and the burn-in faults planted on the SimState. Pure
// and deterministic: time is what advance_to() is told (virtual seconds since the run started),
// noise comes from a seeded generator, so a 4 h run of 8 GPUs is the same every time and takes
// well under a second of model time. Not thread-safe: the sim backends call it from one thread.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "backends/sim/sim_state.hpp"
#include "core/telemetry.hpp"

namespace gpuvet::sim {

// Simulated thermal limits (°C), the values nvidia-smi -q prints for A100/H100 SXM boards.
inline constexpr double kSimShutdownTempC = 92;
inline constexpr double kSimSlowdownTempC = 89;
inline constexpr double kSimMaxOperatingTempC = 87;

struct BurninModelGpu {
  // Fixed at construction.
  int index = 0;                   // run index (position among present GPUs)
  int profile_index = 0;           // index into SimState::gpus
  const SimGpu* sim = nullptr;
  double power_limit_w = 300;
  double max_sm_clock_mhz = 1500;
  double mem_clock_mhz = 1500;
  double peak_tflops = 0;          // dense peak for the dtype, from the catalogue
  double thermal_offset_c = 0;     // board-to-board spread (seeded)
  double resistance_c_per_w = 0;   // heat-sink thermal resistance
  std::mt19937_64 rng;
  // Evolving state.
  bool loaded = false;
  bool lost = false;
  double temp_c = 0;
  double clock_factor = 0;         // SM clock / max SM clock
  double power_w = 0;
  double energy_j = 0;
  std::uint64_t reasons = 0;
  double ecc_corrected = 0;        // fractional accumulation; the counter reads floor()
  double pcie_replays = 0;         // likewise
  std::vector<double> crc;         // per link
  double work_tflop = 0;           // TFLOP done since the stress backend last polled
  double work_since_s = 0;
  double wrong_s = 0;              // seconds of load with wrong results (one per minute)
};

class BurninModel {
 public:
  // Models every present GPU of `state`. `dtype` picks the peak throughput from the catalogue
  // ("bf16", "fp16", "tf32", "fp32", "fp64", "fp8").
  BurninModel(std::shared_ptr<const SimState> state, std::uint64_t seed, const std::string& dtype);

  [[nodiscard]] int gpu_count() const { return static_cast<int>(gpus_.size()); }
  // The simulated machine (the traffic backend's topology) and a run index's place in it.
  [[nodiscard]] const SimState& state() const { return *state_; }
  [[nodiscard]] int profile_index(int gpu) const { return gpus_.at(static_cast<std::size_t>(gpu)).profile_index; }
  [[nodiscard]] core::BurninGpu gpu_info(int gpu) const;
  // Moves the model to run time t_s in steps of at most 1 s (never backwards).
  void advance_to(double t_s);
  [[nodiscard]] double now_s() const { return now_s_; }

  void set_load(int gpu, bool on);
  [[nodiscard]] bool loaded(int gpu) const { return gpus_.at(static_cast<std::size_t>(gpu)).loaded; }
  [[nodiscard]] bool lost(int gpu) const { return gpus_.at(static_cast<std::size_t>(gpu)).lost; }
  // The peak for the dtype is unknown in the catalogue: the load cannot be modelled.
  [[nodiscard]] bool dtype_known(int gpu) const { return gpus_.at(static_cast<std::size_t>(gpu)).peak_tflops > 0; }

  // Share of the time the NVLinks carry traffic: 0 (idle: a GEMM-only burn-in), the burn-in's
  // --traffic share, or 1 (a production job's collectives). A CRC fault counts errors only then.
  void set_traffic(double nvlink_share) { nvlink_share_ = nvlink_share; }
  // The GPU's link speed now as a share of its cold speed (busbw-heat at its temperature); 1 healthy.
  [[nodiscard]] double link_factor(int gpu) const;
  // The GPU's results are silently wrong now (sdc).
  [[nodiscard]] bool corrupts(int gpu) const;

  // Telemetry as NVML would report it now (everything absent once the GPU is lost).
  [[nodiscard]] core::TelemetrySample sample(int gpu) const;
  // TFLOP/s achieved since the previous call (absent when no time passed or the GPU is lost).
  core::Reading<double> take_tflops(int gpu);
  // Cumulative GEMM results that differ from the reference (gemm-miscompare).
  [[nodiscard]] std::uint64_t miscompares(int gpu) const;
  // Xid and lost events up to now, each returned once.
  std::vector<core::TelemetryEvent> drain_events();

 private:
  void step(BurninModelGpu& g, double dt);
  void fill_memory_and_pcie(const BurninModelGpu& g, core::TelemetrySample& s) const;
  void fill_memory_health(const BurninModelGpu& g, core::TelemetrySample& s) const;
  void fire_events(BurninModelGpu& g, double from_s, double to_s);

  std::shared_ptr<const SimState> state_;
  std::vector<BurninModelGpu> gpus_;
  std::vector<core::TelemetryEvent> pending_;
  double now_s_ = 0;
  double nvlink_share_ = 0;
  std::string dtype_;
};

}  // namespace gpuvet::sim
