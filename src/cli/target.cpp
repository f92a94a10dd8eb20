// Target: the simulated machine composed once, or this machine read once, and its backends.
#include "cli/target.hpp"

#include "backends/cuda/cuda_backends.hpp"
#include "backends/cuda/gemm_stress.hpp"
#include "backends/cuda/nccl_backend.hpp"
#include "backends/nvml/nvml_telemetry.hpp"
#include "backends/sim/burnin_sim_backends.hpp"
#include "backends/sim/collective_sim_backend.hpp"
#include "backends/sim/copy_model.hpp"
#include "backends/sim/sim_state.hpp"
#include "platform/environment.hpp"
#include "probes/live_machine.hpp"

namespace gpuvet::cli {

Target::Target(Target&&) noexcept = default;
Target& Target::operator=(Target&&) noexcept = default;
Target::~Target() = default;

core::Result<Target> Target::open(const TargetOptions& options) {
  Target t;
  t.options_ = options;
  if (options.sim_profile.empty()) {
    if (!options.faults.empty()) return core::usage_error("--fault needs --sim PROFILE: faults are overlays on a simulated machine");
    return t;
  }
  std::vector<sim::FaultSpec> faults;
  for (const auto& text : options.faults) {
    auto fault = sim::parse_fault(text);
    if (!fault) return fault.error();
    faults.push_back(std::move(fault).value());
  }
  auto state = sim::build_simulation(options.sim_profile, faults);
  if (!state) return state.error();
  t.state_ = std::make_shared<const sim::SimState>(std::move(state).value());
  t.machine_.emplace(sim::render_machine(*t.state_));
  return t;
}

std::string Target::source() const {
  return simulated() ? "simulated: " + options_.sim_profile : "live (NVML + CUDA)";
}

const core::Result<core::Machine>& Target::machine() {
  if (!machine_) {
    machine_.emplace(probes::read_live_machine({platform::FsRoot(options_.sysfs_root), probes::default_nvml_library()}));
  }
  return *machine_;
}

std::uint64_t Target::noise_seed() const { return state_ ? state_->profile.seed ^ options_.seed : options_.seed; }

core::Result<std::shared_ptr<api::CopyBackend>> Target::copies() {
  if (copies_) return copies_;
  if (state_) {
    copies_ = sim::make_copy_backend(*state_, noise_seed());
    return copies_;
  }
  auto backend = cuda::make_copy_backend();
  if (!backend) return backend.error();
  copies_ = std::move(backend).value();
  return copies_;
}

core::Result<std::shared_ptr<api::CollectiveBackend>> Target::collectives() {
  if (collectives_) return collectives_;
  if (state_) {
    collectives_ = sim::make_collective_backend(*state_, noise_seed());
    return collectives_;
  }
  auto backend = cuda::make_nccl_backend(platform::env("GPUVET_NCCL_LIBRARY").value_or("libnccl.so.2"));
  if (!backend) return backend.error();
  collectives_ = std::move(backend).value();
  return collectives_;
}

core::Result<BurninBackends> Target::burnin(const std::string& dtype) {
  BurninBackends b;
  if (state_) {
    auto model = std::make_shared<sim::BurninModel>(state_, options_.seed, dtype);
    b.telemetry = std::make_unique<sim::SimTelemetrySource>(model, options_.sim_profile);
    b.stress = std::make_unique<sim::SimStressBackend>(model);
    b.traffic = std::make_unique<sim::SimTrafficBackend>(model, options_.seed);
    return b;
  }
  auto telemetry = nvml::open_nvml_telemetry(probes::default_nvml_library());
  if (!telemetry) return telemetry.error().with_context("cannot watch this machine's GPUs");
  auto stress = cuda::make_gemm_stress_backend();
  if (!stress) return stress.error().with_context("cannot load this machine's GPUs");
  b.telemetry = std::move(telemetry).value();
  b.stress = std::move(stress).value();
  return b;
}

}  // namespace gpuvet::cli
