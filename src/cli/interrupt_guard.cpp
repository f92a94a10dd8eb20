// Burn-in backends for the CLI, and the interrupt flag.
#include "cli/burnin_backends.hpp"

#include <csignal>

#include "backends/cuda/gemm_stress.hpp"
#include "backends/nvml/nvml_telemetry.hpp"
#include "backends/sim/burnin_sim_backends.hpp"
#include "probes/live_machine.hpp"

namespace gpuvet::cli {
namespace {

std::atomic<bool> g_interrupted{false};
extern "C" void on_interrupt(int) { g_interrupted.store(true); }

}  // namespace

core::Result<BurninBackends> open_burnin_backends(const std::string& sim_profile, const std::vector<std::string>& faults,
                                                  std::uint64_t seed, const std::string& dtype) {
  BurninBackends b;
  if (!sim_profile.empty()) {
    std::vector<sim::FaultSpec> parsed;
    for (const auto& text : faults) {
      auto fault = sim::parse_fault(text);
      if (!fault) return fault.error();
      parsed.push_back(std::move(fault).value());
    }
    auto simulated = sim::make_sim_burnin(sim_profile, parsed, seed, dtype);
    if (!simulated) return simulated.error();
    b.telemetry = std::move(simulated.value().telemetry);
    b.stress = std::move(simulated.value().stress);
    return b;
  }
  if (!faults.empty()) return core::usage_error("--fault needs --sim PROFILE: faults are overlays on a simulated machine");
  auto telemetry = nvml::open_nvml_telemetry(probes::default_nvml_library());
  if (!telemetry) return telemetry.error().with_context("cannot watch this machine's GPUs");
  auto stress = cuda::make_gemm_stress_backend();
  if (!stress) return stress.error().with_context("cannot load this machine's GPUs");
  b.telemetry = std::move(telemetry).value();
  b.stress = std::move(stress).value();
  return b;
}

InterruptGuard::InterruptGuard() {
  g_interrupted.store(false);
  previous_int_ = std::signal(SIGINT, on_interrupt);
  previous_term_ = std::signal(SIGTERM, on_interrupt);
}

InterruptGuard::~InterruptGuard() {
  std::signal(SIGINT, previous_int_);
  std::signal(SIGTERM, previous_term_);
}

const std::atomic<bool>* InterruptGuard::flag() { return &g_interrupted; }

}  // namespace gpuvet::cli
