// The simulator's telemetry source and stress backend for burn-in: both read one shared
// BurninModel, so the load the stress backend starts heats the GPUs the telemetry source reports.
// Built from a profile and fault overlays (make_sim_burnin); called from the runner's thread.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "backends/api/stress_backend.hpp"
#include "backends/api/telemetry_source.hpp"
#include "backends/sim/burnin_model.hpp"
#include "backends/sim/traffic_sim_backend.hpp"
#include "backends/sim/simulator.hpp"

namespace gpuvet::sim {

class SimTelemetrySource final : public api::TelemetrySource {
 public:
  explicit SimTelemetrySource(std::shared_ptr<BurninModel> model, std::string profile)
      : model_(std::move(model)), profile_(std::move(profile)) {}
  [[nodiscard]] std::string describe() const override;
  [[nodiscard]] bool simulated() const override { return true; }
  core::Result<std::vector<core::BurninGpu>> gpus() override;
  std::vector<core::UnsupportedField> probe(int gpu) override;
  core::TelemetrySample sample(int gpu, double t_s) override;
  std::vector<core::TelemetryEvent> drain_events(double t_s) override;

 private:
  std::shared_ptr<BurninModel> model_;
  std::string profile_;
};

class SimStressBackend final : public api::StressBackend {
 public:
  explicit SimStressBackend(std::shared_ptr<BurninModel> model) : model_(std::move(model)) {}
  [[nodiscard]] std::string describe() const override;
  [[nodiscard]] bool simulated() const override { return true; }
  std::optional<core::Error> start(int gpu, const api::StressConfig& config, double t_s) override;
  void stop(int gpu, double t_s) override;
  api::StressStatus poll(int gpu, double t_s) override;
  core::Reading<std::uint64_t> cross_check(int gpu, std::uint64_t seed, double t_s) override;

 private:
  std::shared_ptr<BurninModel> model_;
};

struct SimBurnin {
  std::shared_ptr<BurninModel> model;
  std::unique_ptr<SimTelemetrySource> telemetry;
  std::unique_ptr<SimStressBackend> stress;
  std::unique_ptr<SimTrafficBackend> traffic;  // link traffic beside the load (burnin --traffic)
};

// The built-in profile with the faults applied, modelled for a burn-in in `dtype`.
core::Result<SimBurnin> make_sim_burnin(std::string_view profile, const std::vector<FaultSpec>& faults,
                                        std::uint64_t seed, const std::string& dtype);

// The same machine in production, for `gpuvet monitor --sim`: every GPU runs the tenant's
// training job (bf16 GEMM load, its collectives on the NVLinks) from run time 0; nothing starts or stops it.
core::Result<SimBurnin> make_sim_production(std::string_view profile, const std::vector<FaultSpec>& faults,
                                            std::uint64_t seed);

}  // namespace gpuvet::sim
