// gpuvet accept --spec FILE [--out DIR] [--quick] [--fail-fast] [--sim P --fault F]: the machine
// against the contract. Quick gates first, measuring stages after, burn-in last; live progress
// per stage on stderr; the verdict (pass/fail/incomplete) on stdout and in the evidence bundle.
#include <chrono>
#include <filesystem>
#include <ctime>
#include <ostream>

#include <fmt/chrono.h>
#include <fmt/format.h>

#include "accept/accept_json.hpp"
#include "accept/clauses.hpp"
#include "accept/burnin_stage.hpp"
#include "accept/collective_stage.hpp"
#include "accept/copy_stages.hpp"
#include "backends/cuda/nccl_backend.hpp"
#include "backends/sim/collective_sim_backend.hpp"
#include "cli/burnin_backends.hpp"
#include "platform/environment.hpp"
#include "probes/burnin_progress.hpp"
#include "backends/cuda/cuda_backends.hpp"
#include "backends/sim/copy_model.hpp"
#include "cli/target_options.hpp"
#include "accept/registry.hpp"
#include "accept/runner.hpp"
#include "backends/sim/simulator.hpp"
#include "bundle/bundle_dir.hpp"
#include "bundle/evidence_bundle.hpp"
#include "bundle/out_dir.hpp"
#include "bundle/signature.hpp"
#include "bundle/sha256.hpp"
#include "catalog/gpu_catalog.hpp"
#include "cli/commands.hpp"
#include "platform/user_file.hpp"
#include "probes/live_machine.hpp"
#include "report/text_table.hpp"
#include "spec/spec.hpp"

namespace gpuvet::cli {

namespace {

struct AcceptOptions {
  std::string spec_file;
  std::string out_dir;
  bool quick = false;
  bool fail_fast = false;
  std::string sim_profile;
  std::vector<std::string> faults;
  std::string sysfs_root = "/";
  std::string sign_key;  // Ed25519 private key: MANIFEST.sig in the bundle
};

std::string utc_now() {
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm utc{};
  gmtime_r(&now, &utc);
  return fmt::format("{:%Y-%m-%dT%H:%M:%SZ}", utc);
}

core::Result<core::Machine> read_machine(const AcceptOptions& o) {
  if (o.sim_profile.empty()) {
    if (!o.faults.empty()) return core::usage_error("--fault needs --sim PROFILE: faults are overlays on a simulated machine");
    auto m = probes::read_live_machine({platform::FsRoot(o.sysfs_root), probes::default_nvml_library()});
    if (!m && m.error().kind == core::ErrorKind::environment) {
      auto e = m.error().with_context("cannot read this machine");
      e.message += "\n  hint: `gpuvet accept --spec FILE --sim hgx-h100-8x` runs against the built-in simulated 8x H100 server";
      return e;
    }
    return m;
  }
  std::vector<sim::FaultSpec> faults;
  for (const auto& text : o.faults) {
    auto f = sim::parse_fault(text);
    if (!f) return f.error();
    faults.push_back(std::move(f).value());
  }
  return sim::simulate_machine(o.sim_profile, faults);
}

// Builds the measuring stages for this machine: live CUDA/NCCL/NVML backends, or the simulator
// with --sim. A backend that cannot open leaves its stage's clauses not run, with its error as
// the reason (so the verdict is incomplete, never pass).
struct StageSetup {
  const AcceptOptions& options;
  probes::BurninObserver* progress;
};

// One copy backend for both stages: the VRAM check frees the buffers the bandwidth stage cached
// (it wants every byte), which only works on the same backend.
void add_copy_stages(const AcceptOptions& o, accept::StageProviders& providers) {
  std::shared_ptr<api::CopyBackend> copies;
  std::string unavailable;
  if (!o.sim_profile.empty()) {
    auto state = simulated_state(o.sim_profile, o.faults);  // already parsed once by read_machine
    if (state) {
      const std::uint64_t seed = state->profile.seed;
      copies = sim::make_copy_backend(std::move(state).value(), seed);
    } else {
      unavailable = state.error().message;
    }
  } else if (auto backend = cuda::make_copy_backend()) {
    copies = std::move(backend).value();
  } else {
    unavailable = backend.error().message;
  }
  if (!copies) {
    providers.bandwidth = std::make_unique<accept::UnavailableStage>("bandwidth", "Copy bandwidth (host<->device, GPU pairs)",
                                                                     accept::bandwidth_clauses, unavailable);
    providers.vram = std::make_unique<accept::UnavailableStage>("vram", "VRAM: allocate and verify all memory",
                                                                accept::vram_clauses, unavailable);
    return;
  }
  probes::BandwidthOptions options;
  if (o.quick) {  // a first look that fits a Slurm prolog: fewer, smaller samples
    options.samples = 3;
    options.repeats = 8;
    options.bytes = 256ull << 20;
  }
  providers.bandwidth = accept::make_bandwidth_stage(copies, options);
  providers.vram = accept::make_vram_stage(copies);
}

std::unique_ptr<accept::Stage> collectives_provider(const AcceptOptions& o) {
  std::shared_ptr<api::CollectiveBackend> backend;
  std::string unavailable;
  if (!o.sim_profile.empty()) {
    auto state = simulated_state(o.sim_profile, o.faults);
    if (state) {
      backend = sim::make_collective_backend(*state, state->profile.seed);
    } else {
      unavailable = state.error().message;
    }
  } else {
    auto nccl = cuda::make_nccl_backend(platform::env("GPUVET_NCCL_LIBRARY").value_or("libnccl.so.2"));
    if (nccl) {
      backend = std::move(nccl).value();
    } else {
      unavailable = nccl.error().message;
    }
  }
  if (!backend) {
    return std::make_unique<accept::UnavailableStage>("collectives", "NCCL collectives and scaling", accept::collectives_clauses,
                                                      unavailable);
  }
  return accept::make_collectives_stage(std::move(backend), {o.quick});
}

std::unique_ptr<accept::Stage> burnin_provider(const AcceptOptions& o, probes::BurninObserver* progress) {
  auto backends = open_burnin_backends(o.sim_profile, o.faults, 1, "bf16");
  if (!backends) {
    return std::make_unique<accept::UnavailableStage>("burnin", "Burn-in under full load", accept::burnin_clauses,
                                                      backends.error().message, true);
  }
  const bool simulated = !o.sim_profile.empty();
  accept::BurninStageSetup setup;
  setup.telemetry = std::move(backends.value().telemetry);
  setup.stress = std::move(backends.value().stress);
  setup.wall = std::make_unique<platform::SteadyClock>();
  if (simulated) {
    setup.clock = std::make_unique<platform::ManualClock>(setup.wall->unix_ms());
  } else {
    setup.clock = std::make_unique<platform::SteadyClock>();
  }
  setup.run.source = simulated ? "simulated: " + o.sim_profile : "live (NVML + CUDA)";
  setup.run.simulated = simulated;
  setup.run.hostname = simulated ? "simulated" : platform::hostname();
  setup.run.faults = o.faults;
  if (!simulated) setup.observer = progress;  // a simulated soak takes seconds: no progress lines
  setup.cancel = InterruptGuard::flag();
  // Ctrl-C and SIGTERM end a live soak cleanly (everything recorded stays); before and after it
  // they stop gpuvet as usual.
  if (!simulated) setup.guard_interrupts = [] { return std::static_pointer_cast<void>(std::make_shared<InterruptGuard>()); };
  const std::string out_dir = o.out_dir;
  // The database lives in the bundle; an earlier attempt's database is kept beside it.
  setup.db_path = [out_dir]() -> core::Result<std::string> {
    if (out_dir.empty()) return std::string(":memory:");
    return bundle::fresh_file(out_dir, bundle::kTelemetryDatabase);
  };
  return accept::make_burnin_stage(std::move(setup));
}

accept::StageProviders stage_providers(const AcceptOptions& o, probes::BurninObserver* progress) {
  accept::StageProviders providers;
  add_copy_stages(o, providers);
  providers.collectives = collectives_provider(o);
  providers.burnin = burnin_provider(o, progress);
  return providers;
}

// Identifies a run for resuming: the spec text, the gpuvet that runs it, and the machine it runs
// against down to each GPU's identity, so a stage measured on other GPUs is never taken over.
std::string run_key(const std::string& spec_text, const AcceptOptions& o, const core::Machine& m) {
  std::string id = fmt::format("gpuvet {}\n{}\n{}\ndriver {}\n{} GPUs\n", GPUVET_VERSION, m.source,
                               m.hostname.value_or(""), m.driver_version.value_or("?"), m.gpus.size());
  for (const auto& g : m.gpus) {
    id += fmt::format("{} {} {} {}\n", g.pci_bus_id.value_or("?"), g.uuid.value_or("?"), g.serial.value_or("?"),
                      g.name.value_or("?"));
  }
  for (const auto& f : o.faults) id += f + "\n";
  if (o.quick) id += "--quick\n";  // a quick run's sampled stages never stand in for a full run's
  return bundle::sha256_hex(spec_text + "\n--\n" + id);
}

// Readies --out before stage 1 (bundle::prepare_out_dir) and returns the stages an earlier
// attempt of this very run finished. What happened to earlier files goes into `notes`.
core::Result<std::vector<accept::StageRecord>> prepare_bundle(const std::string& out_dir, const std::string& key,
                                                             std::vector<std::string>& notes, Streams& streams) {
  if (out_dir.empty()) return std::vector<accept::StageRecord>{};
  auto classify = [&key](const std::string& state_text) {
    auto earlier_key = accept::state_key(state_text);
    if (!earlier_key) return bundle::EarlierRun::not_gpuvet;
    return *earlier_key == key ? bundle::EarlierRun::same_run : bundle::EarlierRun::other_run;
  };
  auto prepared = bundle::prepare_out_dir(out_dir, classify);
  if (!prepared) return prepared.error();
  if (!prepared->moved_aside.empty()) {
    notes.push_back(fmt::format("{} held the bundle of another run (other spec, machine, GPUs or gpuvet version); it was "
                                "moved to {} and this run started afresh",
                                out_dir, prepared->moved_aside));
  }
  if (!prepared->foreign.empty()) {
    std::string names;
    for (const auto& n : prepared->foreign) names += (names.empty() ? "" : ", ") + n;
    notes.push_back(fmt::format("{} also holds files gpuvet did not write ({}): they are not sealed in the MANIFEST, and "
                                "`gpuvet verify` lists them as added",
                                out_dir, names));
  }
  for (const auto& n : notes) streams.err << "gpuvet accept: " << n << "\n";
  if (!prepared->resume) return std::vector<accept::StageRecord>{};
  const std::string state_file = out_dir + "/" + bundle::kStateFile;
  auto state = bundle::read_file(out_dir, bundle::kStateFile);
  if (!state) return state.error();
  auto resumed = accept::parse_state(*state, key, state_file);
  if (!resumed) return resumed.error();
  streams.err << fmt::format("gpuvet accept: resuming from {} ({} stages done; the quick gates are observed again)\n",
                             out_dir, resumed->size());
  return resumed;
}

const char* status_word(accept::ClauseStatus s) {
  return s == accept::ClauseStatus::pass ? "PASS" : s == accept::ClauseStatus::fail ? "FAIL" : "NOT RUN";
}

std::string summary_text(const accept::AcceptReport& r, const std::string& out_dir) {
  std::string out = fmt::format("Acceptance of {} against spec {}{}\n\n", r.machine_source,
                                r.spec_name.empty() ? r.spec_file : r.spec_name, r.simulated ? " (SIMULATED machine)" : "");
  report::TextTable table({"Result", "Clause", "Promised", "Observed"});
  for (const auto* c : accept::all_clauses(r)) table.add_row({status_word(c->status), c->id, c->expected, c->observed});
  out += table.render(2);
  const char* v = r.verdict == core::Verdict::pass ? "PASS" : r.verdict == core::Verdict::fail ? "FAIL" : "INCOMPLETE";
  out += fmt::format("\nVerdict: {}\n", v);
  for (const auto& w : r.why) out += "  - " + w + "\n";
  bool header = false;
  for (const auto& f : r.other_findings) {
    if (f.severity == core::Severity::info) continue;
    if (!header) out += "\nOutside the spec (no effect on the verdict):\n";
    header = true;
    out += fmt::format("  - {} {}: {}\n", core::to_string(f.severity), f.code, f.message);
  }
  for (const auto& n : r.notes) out += "\nNote: " + n + "\n";
  if (!out_dir.empty()) out += fmt::format("\nEvidence bundle: {} (check it with `gpuvet verify {}`)\n", out_dir, out_dir);
  return out;
}

// Seals what the run wrote, signs the MANIFEST with --sign (an earlier signature that no longer
// matches is removed), and returns the bundle digest to print.
core::Result<std::string> finish_bundle(const AcceptOptions& o, const bundle::Evidence& evidence) {
  auto written = bundle::write_evidence(o.out_dir, evidence);
  if (!written) return written.error();
  if (!o.sign_key.empty()) {
    auto signed_ok = bundle::sign_manifest(o.out_dir, o.sign_key);
    if (!signed_ok) return signed_ok.error();
  } else {
    std::error_code ec;
    std::filesystem::remove(std::filesystem::path(o.out_dir) / bundle::kSignatureName, ec);
  }
  return bundle::bundle_digest(o.out_dir);
}

core::Result<core::ExitCode> run_accept(const AcceptOptions& o, Streams& streams) {
  if (!o.sign_key.empty()) {
    if (o.out_dir.empty()) return core::usage_error("--sign needs --out DIR: it signs the bundle's MANIFEST");
    auto key = bundle::check_signing_key(o.sign_key);
    if (!key) return key.error();
  }
  auto spec_text = platform::read_user_file(o.spec_file);
  if (!spec_text) return spec_text.error();
  auto spec = spec::parse_spec(*spec_text, o.spec_file, catalog::gpu_catalog());
  if (!spec) return spec.error();
  auto machine = read_machine(o);
  if (!machine) return machine.error();

  accept::AcceptReport report;
  report.tool_version = GPUVET_VERSION;
  report.started_utc = utc_now();
  report.spec_name = spec->name;
  report.spec_file = o.spec_file;
  report.machine_source = machine->source;
  report.simulated = machine->simulated;
  report.hostname = machine->hostname.value_or("n/a");
  report.driver_version = machine->driver_version.value_or("n/a");
  report.cuda_version = machine->cuda_version.value_or("n/a");
  report.quick = o.quick;
  report.fail_fast = o.fail_fast;

  const auto& catalog = catalog::gpu_catalog();
  const auto assessment = analysis::judge_machine(*machine, catalog, accept::expectations_of(*spec));
  const accept::StageContext ctx{*machine, *spec, catalog, assessment, o.quick};
  probes::ProgressOptions progress_options;
  progress_options.terminal = false;  // the stage lines share stderr: plain lines only
  progress_options.plain_every_s = 60;
  probes::BurninProgress progress(streams.err, progress_options);
  const auto stages = accept::make_stages(stage_providers(o, &progress));


  const std::string key = run_key(*spec_text, o, *machine);
  auto resumed = prepare_bundle(o.out_dir, key, report.notes, streams);
  if (!resumed) return resumed.error();

  std::vector<accept::StageRecord> done;
  std::optional<core::Error> save_error;
  const auto t0 = std::chrono::steady_clock::now();
  accept::RunHooks hooks;
  hooks.seconds_now = [t0] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
  hooks.started = [&](const accept::Stage& stage, size_t i, size_t n) {
    streams.err << fmt::format("[{}/{}] {:<12} {} ... ", i + 1, n, stage.id(), stage.title()) << std::flush;
  };
  hooks.finished = [&](const accept::StageRecord& r) {
    int pass = 0, fail = 0, not_run = 0;
    for (const auto& c : r.clauses) {
      (c.status == accept::ClauseStatus::pass ? pass : c.status == accept::ClauseStatus::fail ? fail : not_run)++;
    }
    std::string line = r.status == accept::StageStatus::done
                           ? fmt::format("{} pass, {} fail, {} not run ({:.2f} s{})", pass, fail, not_run, r.seconds,
                                         r.resumed ? ", resumed" : "")
                           : fmt::format("{}: {}", accept::to_string(r.status), r.reason);
    streams.err << line << "\n";
    done.push_back(r);
    if (!o.out_dir.empty() && !save_error) {
      auto saved = bundle::write_file(o.out_dir, bundle::kStateFile, accept::render_state(key, done));
      if (!saved) save_error = saved.error();
    }
  };
  report.stages = accept::run_stages(stages, ctx, {o.quick, o.fail_fast}, *resumed, hooks);
  if (save_error) return *save_error;
  report.verdict = accept::decide(report.stages, report.why);
  report.other_findings = accept::findings_outside(assessment.findings, report.stages);
  report.finished_utc = utc_now();

  std::string digest;
  if (!o.out_dir.empty()) {
    auto finished = finish_bundle(o, {report, *machine, assessment, *spec_text});
    if (!finished) return finished.error();
    digest = std::move(finished).value();
  }
  streams.out << summary_text(report, o.out_dir);
  if (!digest.empty()) {
    streams.out << fmt::format("Bundle digest (SHA-256 of its MANIFEST): {}{}\n", digest,
                               o.sign_key.empty() ? "" : "; signed (MANIFEST.sig)");
  }
  return core::exit_code_for(report.verdict);
}

}  // namespace

void add_accept_command(CLI::App& app, Action& action) {
  auto o = std::make_shared<AcceptOptions>();
  auto* cmd = app.add_subcommand("accept", "Check the machine against an acceptance spec; write the evidence bundle");
  cmd->add_option("--spec", o->spec_file, "The acceptance spec (YAML; `gpuvet spec init --template NAME`)")->required();
  cmd->add_option("--out", o->out_dir, "Evidence bundle directory; a rerun with the same spec resumes (done stages are kept)");
  cmd->add_flag("--quick", o->quick,
                "A first look (Slurm prolog): fewer copy samples, collectives on disjoint GPU pairs and 4-GPU subsets only, "
                "no burn-in (not run, so the verdict is at best incomplete)");
  cmd->add_flag("--fail-fast", o->fail_fast, "Stop after the first stage with a failing clause (the rest: not run)");
  cmd->add_option("--sim", o->sim_profile, "Run against a built-in simulated machine (see `gpuvet sim list`)");
  cmd->add_option("--fault", o->faults, "Fault overlay on the simulated machine (repeatable)");
  cmd->add_option("--sysfs-root", o->sysfs_root, "Read sysfs under this root instead of /");
  cmd->add_option("--sign", o->sign_key, "Sign the bundle's MANIFEST with this Ed25519 private key (`gpuvet keygen`)");
  cmd->callback([o, &action] { action = [o](Streams& s) { return run_accept(*o, s); }; });
}

}  // namespace gpuvet::cli
