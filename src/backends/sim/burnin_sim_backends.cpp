// Simulated telemetry and GEMM load over the burn-in model.
#include "backends/sim/burnin_sim_backends.hpp"

#include <fmt/format.h>
#include <functional>

#include "backends/sim/sim_state.hpp"

namespace gpuvet::sim {

std::string SimTelemetrySource::describe() const { return fmt::format("simulated telemetry ({})", profile_); }

core::Result<std::vector<core::BurninGpu>> SimTelemetrySource::gpus() {
  std::vector<core::BurninGpu> out;
  for (int g = 0; g < model_->gpu_count(); ++g) out.push_back(model_->gpu_info(g));
  if (out.empty()) return core::environment_error("the simulated machine has no GPUs");
  return out;
}

std::vector<core::UnsupportedField> SimTelemetrySource::probe(int gpu) {
  // Like NVML on a GPU without NVLink: the per-link counters are not supported.
  core::TelemetrySample s = model_->sample(gpu);
  std::vector<core::UnsupportedField> out;
  if (s.nvlink.known() && s.nvlink->empty()) out.push_back({gpu, "nvlink", "the GPU has no active NVLink (simulated)"});
  // Pre-Ampere GPUs retire pages instead of remapping rows, newer ones remap rows instead of
  // retiring pages: the other family is NOT_SUPPORTED for the run, as NVML says.
  if (!s.remap_failed.known()) {
    for (const char* field : {"remapped_rows_correctable", "remapped_rows_uncorrectable", "remap_pending", "remap_failed"}) {
      out.push_back({gpu, field, s.remap_failed.reason()});
    }
  }
  if (!s.retired_pages_pending.known()) {
    for (const char* field : {"retired_pages_sbe", "retired_pages_dbe", "retired_pages_pending"}) {
      out.push_back({gpu, field, s.retired_pages_pending.reason()});
    }
  }
  return out;
}

core::TelemetrySample SimTelemetrySource::sample(int gpu, double t_s) {
  model_->advance_to(t_s);
  core::TelemetrySample s = model_->sample(gpu);
  s.t_s = t_s;
  if (s.nvlink.known() && s.nvlink->empty()) s.nvlink = core::Absent{"the GPU has no active NVLink (simulated)"};
  s.tflops = core::Absent{"no GEMM load reported"};
  s.miscompares = core::Absent{"no GEMM load reported"};
  return s;
}

std::vector<core::TelemetryEvent> SimTelemetrySource::drain_events(double t_s) {
  model_->advance_to(t_s);
  return model_->drain_events();
}

std::string SimStressBackend::describe() const { return "simulated GEMM load (burn-in model)"; }

std::optional<core::Error> SimStressBackend::start(int gpu, const api::StressConfig& config, double t_s) {
  model_->advance_to(t_s);
  if (gpu < 0 || gpu >= model_->gpu_count()) return core::usage_error(fmt::format("no GPU {} in the simulation", gpu));
  if (!model_->dtype_known(gpu)) {
    return core::environment_error(
        fmt::format("GPU {}: the catalogue has no {} throughput for this model", gpu, api::to_string(config.dtype)));
  }
  if (model_->lost(gpu)) return core::environment_error(fmt::format("GPU {} is lost", gpu));
  model_->set_load(gpu, true);
  (void)model_->take_tflops(gpu);  // the throughput window starts now
  return std::nullopt;
}

void SimStressBackend::stop(int gpu, double t_s) {
  model_->advance_to(t_s);
  model_->set_load(gpu, false);
}

api::StressStatus SimStressBackend::poll(int gpu, double t_s) {
  model_->advance_to(t_s);
  api::StressStatus status;
  status.running = model_->loaded(gpu);
  if (model_->lost(gpu)) {
    status.error = "GPU is lost (simulated)";
    status.tflops = core::Absent{"GPU is lost (simulated)"};
    return status;
  }
  status.tflops = model_->take_tflops(gpu);
  status.miscompares = model_->miscompares(gpu);
  return status;
}

// The same product on every GPU of a model gives the same bits; an sdc GPU's differ, the same
// wrong bits every time (so its own reference check passes).
core::Reading<std::uint64_t> SimStressBackend::cross_check(int gpu, std::uint64_t seed, double t_s) {
  model_->advance_to(t_s);
  if (model_->lost(gpu)) return core::Reading<std::uint64_t>::absent("GPU is lost (simulated)");
  std::uint64_t x = seed * 0x9e3779b97f4a7c15ULL + std::hash<std::string>{}(model_->gpu_info(gpu).name.value_or(""));
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  x ^= x >> 31;
  return model_->corrupts(gpu) ? x ^ 0x5dc0ffeeULL : x;
}

core::Result<SimBurnin> make_sim_burnin(std::string_view profile, const std::vector<FaultSpec>& faults,
                                        std::uint64_t seed, const std::string& dtype) {
  auto state = build_simulation(profile, faults);
  if (!state) return state.error();
  SimBurnin out;
  out.model = std::make_shared<BurninModel>(std::make_shared<const SimState>(std::move(state).value()), seed, dtype);
  out.telemetry = std::make_unique<SimTelemetrySource>(out.model, std::string(profile));
  out.stress = std::make_unique<SimStressBackend>(out.model);
  out.traffic = std::make_unique<SimTrafficBackend>(out.model, seed);
  return out;
}

core::Result<SimBurnin> make_sim_production(std::string_view profile, const std::vector<FaultSpec>& faults,
                                            std::uint64_t seed) {
  auto simulated = make_sim_burnin(profile, faults, seed, "bf16");
  if (!simulated) return simulated.error();
  for (int g = 0; g < simulated.value().model->gpu_count(); ++g) simulated.value().model->set_load(g, true);
  simulated.value().model->set_traffic(1.0);
  return simulated;
}

}  // namespace gpuvet::sim
