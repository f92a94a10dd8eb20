// gpuvet accept --spec FILE [--out DIR] [--quick] [--fail-fast] [--sim P --fault F]: the machine
// against the contract. Quick gates first, measuring stages after, burn-in last; live progress
// per stage on stderr; the verdict (pass/fail/incomplete) on stdout and in the evidence bundle.
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <ctime>
#include <ostream>

#include <fmt/chrono.h>
#include <fmt/format.h>

#include "accept/accept_json.hpp"
#include "accept/registry.hpp"
#include "accept/runner.hpp"
#include "bundle/bundle_dir.hpp"
#include "bundle/default_out_dir.hpp"
#include "bundle/evidence_bundle.hpp"
#include "bundle/out_dir.hpp"
#include "bundle/recorded_files.hpp"
#include "bundle/signature.hpp"
#include "bundle/sha256.hpp"
#include "catalog/gpu_catalog.hpp"
#include "cli/accept_progress.hpp"
#include "cli/accept_stage_wiring.hpp"
#include "cli/commands.hpp"
#include "cli/option_checks.hpp"
#include "cli/target.hpp"
#include "cli/identity_sources.hpp"
#include "platform/user_file.hpp"
#include "report/text_table.hpp"
#include "spec/spec.hpp"
#include "report/text_wrap.hpp"
#include "report/why_fold.hpp"

namespace gpuvet::cli {

namespace {

struct AcceptOptions {
  std::string spec_file;
  std::string out_dir;
  bool quick = false;
  bool fail_fast = false;
  TargetOptions target;  // --sim, --fault, --sysfs-root
  std::string sign_key;  // Ed25519 private key: MANIFEST.sig in the bundle
  bool no_bundle = false;  // --no-bundle: no --out and no dated default directory
};

std::string utc_now() {
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm utc{};
  gmtime_r(&now, &utc);
  return fmt::format("{:%Y-%m-%dT%H:%M:%SZ}", utc);
}

// The machine picture, read once for the whole run (the stages measure the same Target).
core::Result<core::Machine> read_machine(Target& target) {
  auto m = target.machine();
  if (!m && !target.simulated() && m.error().kind == core::ErrorKind::environment) {
    auto e = m.error().with_context("cannot read this machine");
    e.message += "\n  hint: `gpuvet accept --spec FILE --sim hgx-h100-8x` runs against the built-in simulated 8x H100 server";
    return e;
  }
  return m;
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
  for (const auto& f : o.target.faults) id += f + "\n";
  if (o.quick) id += "--quick\n";  // a quick run's sampled stages never stand in for a full run's
  return bundle::sha256_hex(spec_text + "\n--\n" + id);
}

// Readies --out before stage 1 (bundle::prepare_out_dir) and returns the stages an earlier
// attempt of this very run finished, and in `recorded` the files it recorded that are still as it
// left them. What happened to earlier files goes into `notes`.
core::Result<std::vector<accept::StageRecord>> prepare_bundle(const std::string& out_dir, const std::string& key,
                                                             bundle::RecordedFiles& recorded,
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
  std::vector<accept::StageRecord> stages;
  if (prepared->resume) {
    const std::string state_file = out_dir + "/" + bundle::kStateFile;
    auto state = bundle::read_file(out_dir, bundle::kStateFile);
    if (!state) return state.error();
    auto resumed = accept::parse_state(*state, key, state_file);
    if (!resumed) return resumed.error();
    auto files = accept::parse_state_files(*state, key, state_file);
    if (!files) return files.error();
    recorded = bundle::RecordedFiles(std::move(files).value());
    // Before anything opens a database of the bundle: a -wal nobody recorded is never replayed.
    auto vetted = bundle::vet_recorded_files(out_dir, recorded);
    if (!vetted) return vetted.error();
    for (auto& n : *vetted) notes.push_back(fmt::format("{}: {}", out_dir, n));
    stages = std::move(resumed).value();
  }
  for (const auto& n : notes) streams.err << "gpuvet accept: " << n << "\n";
  if (prepared->resume) {
    streams.err << fmt::format("gpuvet accept: resuming from {} ({} stages done; the quick gates are observed again)\n",
                               out_dir, stages.size());
  }
  return stages;
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
  for (const auto& w : report::fold_why(r)) out += "  - " + w + "\n";
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

// Seals what the run wrote (and the files state.json recorded), signs the MANIFEST with --sign (an
// earlier signature that no longer matches is removed), and returns the bundle digest to print.
// Anything else in the bundle is named in the report's notes and on stderr, and left unsealed.
core::Result<std::string> finish_bundle(const AcceptOptions& o, accept::AcceptReport& report, const core::Machine& machine,
                                        const core::Assessment& assessment, const std::string& spec_text,
                                        const bundle::RecordedFiles& recorded, Streams& streams) {
  auto plan = bundle::plan_seal(o.out_dir, recorded);
  if (!plan) return plan.error();
  if (!plan->foreign.empty()) {
    std::string names;
    for (const auto& n : plan->foreign) names += (names.empty() ? "" : ", ") + n;
    report.notes.push_back(fmt::format("{} also holds files gpuvet did not write ({}): they are not sealed in the MANIFEST "
                                       "(a telemetry file counts only with the digest state.json recorded when gpuvet "
                                       "wrote it), and `gpuvet verify` lists them as added",
                                       o.out_dir, names));
    streams.err << "gpuvet accept: " << report.notes.back() << "\n";
  }
  auto written = bundle::write_evidence(o.out_dir, {report, machine, assessment, spec_text}, *plan);
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

// Without --out (and without --no-bundle) the bundle goes to a new dated directory here, said on
// stderr before stage 1 (and in the summary at the end).
core::Result<std::string> default_bundle_dir(const core::Machine& m, Streams& streams) {
  auto dir = bundle::create_default_out_dir(".", m.hostname.value_or(m.simulated ? "simulated" : "unknown-host"),
                                            std::time(nullptr));
  if (!dir) return dir.error();
  const std::string name = dir->lexically_normal().string();
  streams.err << fmt::format("gpuvet accept: no --out given: writing the evidence bundle to {}\n", name);
  return name;
}

core::Result<core::ExitCode> run_accept(const AcceptOptions& options, Streams& streams) {
  if (options.no_bundle && !options.out_dir.empty()) return core::usage_error("--no-bundle and --out: choose one");
  if (options.no_bundle && !options.sign_key.empty()) return core::usage_error("--sign signs the bundle: not with --no-bundle");
  AcceptOptions o = options;  // out_dir may become the dated default below
  if (!o.sign_key.empty()) {
    auto key = bundle::check_signing_key(o.sign_key);
    if (!key) return key.error();
  }
  auto spec_text = platform::read_user_file(o.spec_file);
  if (!spec_text) return spec_text.error();
  auto spec = spec::parse_spec(*spec_text, o.spec_file, catalog::gpu_catalog());
  if (!spec) return spec.error();
  auto target = Target::open(o.target);
  if (!target) return target.error();
  auto machine = read_machine(target.value());
  if (!machine) return machine.error();
  if (o.out_dir.empty() && !o.no_bundle) {
    auto dir = default_bundle_dir(*machine, streams);
    if (!dir) return dir.error();
    o.out_dir = std::move(dir).value();
  }

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
  report.identity = gather_identity(*machine, o.target.sim_profile, o.target.sysfs_root);

  const auto& catalog = catalog::gpu_catalog();
  const auto assessment = analysis::judge_machine(*machine, catalog, accept::expectations_of(*spec));
  const accept::StageContext ctx{*machine, *spec, catalog, assessment, o.quick};
  // The burn-in table and the collective sweep, live below their stage line on a terminal only.
  AcceptLiveProgress live(streams.err, isatty(STDERR_FILENO) != 0);
  bundle::RecordedFiles recorded;  // the burn-in database and earlier attempts', with their digests
  const auto stages = accept::make_stages(accept_stage_providers(target.value(), {o.quick, o.out_dir, &live, &recorded}));

  const std::string key = run_key(*spec_text, o, *machine);
  auto resumed = prepare_bundle(o.out_dir, key, recorded, report.notes, streams);
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
    if (live.take_drawn()) streams.err << fmt::format("      {}: ", r.id);  // below the live lines
    streams.err << line << "\n";
    done.push_back(r);
    if (!o.out_dir.empty() && !save_error) {
      auto digested = recorded.record(o.out_dir);  // what the stage wrote, before anyone else can touch it
      auto saved = digested ? bundle::write_file(o.out_dir, bundle::kStateFile, accept::render_state(key, done, recorded.digests()))
                            : core::Result<bool>(digested.error());
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
    auto finished = finish_bundle(o, report, *machine, assessment, *spec_text, recorded, streams);
    if (!finished) return finished.error();
    digest = std::move(finished).value();
  }
  streams.out << report::fit_lines(summary_text(report, o.out_dir));
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
  cmd->add_option("--out", o->out_dir,
                  "Evidence bundle directory; a rerun with the same spec resumes (done stages are kept). Default: a new "
                  "gpuvet-accept-<host>-<UTC date-time> directory here")
      ->check(non_empty_path());
  cmd->add_flag("--no-bundle", o->no_bundle, "Write no evidence bundle (verdict on stdout only)");
  cmd->add_flag("--quick", o->quick,
                "A first look (Slurm prolog): fewer copy samples, collectives on disjoint GPU pairs and 4-GPU subsets only, "
                "no burn-in (not run, so the verdict is at best incomplete)");
  cmd->add_flag("--fail-fast", o->fail_fast, "Stop after the first stage with a failing clause (the rest: not run)");
  cmd->add_option("--sim", o->target.sim_profile, "Run against a built-in simulated machine (see `gpuvet sim list`)");
  cmd->add_option("--fault", o->target.faults, "Fault overlay on the simulated machine (repeatable)");
  cmd->add_option("--sysfs-root", o->target.sysfs_root, "Read sysfs under this root instead of /");
  cmd->add_option("--sign", o->sign_key, "Sign the bundle's MANIFEST with this Ed25519 private key (`gpuvet keygen`)");
  cmd->callback([o, &action] { action = [o](Streams& s) { return run_accept(*o, s); }; });
}

}  // namespace gpuvet::cli
