// accept_stage_providers: one Target's backends handed to the accept stages.
#include "cli/accept_stage_wiring.hpp"

#include "accept/burnin_stage.hpp"
#include "accept/clauses.hpp"
#include "accept/collective_stage.hpp"
#include "accept/copy_stages.hpp"
#include "bundle/bundle_dir.hpp"
#include "bundle/evidence_bundle.hpp"
#include "cli/interrupt_guard.hpp"
#include "platform/environment.hpp"

namespace gpuvet::cli {
namespace {

// One copy backend for both stages: the VRAM check frees the buffers the bandwidth stage cached
// (it wants every byte), which only works on the same backend.
void add_copy_stages(Target& target, const AcceptWiring& w, accept::StageProviders& providers) {
  auto copies = target.copies();
  if (!copies) {
    providers.bandwidth = std::make_unique<accept::UnavailableStage>("bandwidth", "Copy bandwidth (host<->device, GPU pairs)",
                                                                     accept::bandwidth_clauses, copies.error().message);
    providers.vram = std::make_unique<accept::UnavailableStage>("vram", "VRAM: allocate and verify all memory",
                                                                accept::vram_clauses, copies.error().message);
    return;
  }
  probes::BandwidthOptions options;
  if (w.quick) {  // a first look that fits a Slurm prolog: fewer, smaller samples
    options.samples = 3;
    options.repeats = 8;
    options.bytes = 256ull << 20;
  }
  providers.bandwidth = accept::make_bandwidth_stage(*copies, options);
  providers.vram = accept::make_vram_stage(*copies);
}

std::unique_ptr<accept::Stage> collectives_provider(Target& target, const AcceptWiring& w) {
  auto backend = target.collectives();
  if (!backend) {
    return std::make_unique<accept::UnavailableStage>("collectives", "NCCL collectives and scaling", accept::collectives_clauses,
                                                      backend.error().message);
  }
  accept::CollectiveStageOptions options;
  options.quick = w.quick;
  if (w.live) options.on_row = w.live->collective_rows();
  return accept::make_collectives_stage(std::move(backend).value(), std::move(options));
}

std::unique_ptr<accept::Stage> burnin_provider(Target& target, const AcceptWiring& w) {
  auto backends = target.burnin("bf16");
  if (!backends) {
    return std::make_unique<accept::UnavailableStage>("burnin", "Burn-in under full load", accept::burnin_clauses,
                                                      backends.error().message, true);
  }
  const bool simulated = target.simulated();
  accept::BurninStageSetup setup;
  setup.telemetry = std::move(backends.value().telemetry);
  setup.stress = std::move(backends.value().stress);
  setup.traffic = std::move(backends.value().traffic);
  setup.wall = std::make_unique<platform::SteadyClock>();
  if (simulated) {
    setup.clock = std::make_unique<platform::ManualClock>(setup.wall->unix_ms());
  } else {
    setup.clock = std::make_unique<platform::SteadyClock>();
  }
  setup.run.source = target.source();
  setup.run.simulated = simulated;
  setup.run.hostname = simulated ? "simulated" : platform::hostname();
  setup.run.faults = target.options().faults;
  if (w.live) setup.observer = w.live->burnin();  // the table on a terminal (paced on wall time); else none
  setup.cancel = InterruptGuard::flag();
  // Ctrl-C and SIGTERM end a live soak cleanly (everything recorded stays); before and after it
  // they stop gpuvet as usual.
  if (!simulated) setup.guard_interrupts = [] { return std::static_pointer_cast<void>(std::make_shared<InterruptGuard>()); };
  const std::string out_dir = w.out_dir;
  // The database lives in the bundle; an earlier attempt's database is kept beside it. Both are
  // recorded (digests in state.json), so only they are sealed.
  setup.db_path = [out_dir, recorded = w.recorded]() -> core::Result<std::string> {
    if (out_dir.empty()) return std::string(":memory:");
    return bundle::fresh_file(out_dir, bundle::kTelemetryDatabase, recorded);
  };
  return accept::make_burnin_stage(std::move(setup));
}

}  // namespace

accept::StageProviders accept_stage_providers(Target& target, const AcceptWiring& wiring) {
  accept::StageProviders providers;
  add_copy_stages(target, wiring, providers);
  providers.collectives = collectives_provider(target, wiring);
  providers.burnin = burnin_provider(target, wiring);
  return providers;
}

}  // namespace gpuvet::cli
