// gpuvet bench host|p2p|memory|vram|all: copy bandwidth and VRAM measured on this machine (CUDA)
// or produced by the simulator's model of a profile, judged against the envelope of the machine.
#include <unistd.h>

#include <iostream>
#include <ostream>

#include "accept/copy_pipeline.hpp"
#include "analysis/judge.hpp"
#include "catalog/gpu_catalog.hpp"
#include "cli/commands.hpp"
#include "cli/target.hpp"
#include "cli/target_options.hpp"
#include "report/machine_report.hpp"

namespace gpuvet::cli {
namespace {

struct BenchOptions {
  std::string suite;
  std::string gpus;
  TargetOptions target;
  bool json = false;
  int samples = 5;
  std::uint64_t size_mib = 512;
};

struct Opened {
  core::Machine machine;
  std::shared_ptr<api::CopyBackend> backend;
};

// The copy backend first (without it there is nothing to measure), then the picture, which here
// only sets expectations: live without NVML they come from the GPU names alone.
core::Result<Opened> open_copies(const TargetOptions& options) {
  auto target = Target::open(options);
  if (!target) return target.error();
  auto backend = target.value().copies();
  if (!backend) return backend.error().with_context("cannot measure this machine");
  const auto& machine = target.value().machine();
  Opened out{core::Machine{}, std::move(backend).value()};
  if (machine) {
    out.machine = *machine;
  } else {
    out.machine.source = "live (machine picture unavailable)";
    out.machine.notes.push_back("NVML could not be read (" + machine.error().message + "): expectations come from the GPU names only");
  }
  return out;
}

core::Result<core::ExitCode> run_bench(const BenchOptions& options, Streams& streams) {
  auto gpus = parse_gpu_list(options.gpus);
  if (!gpus) return gpus.error();
  auto target = open_copies(options.target);
  if (!target) return target.error();
  const bool progress = isatty(STDERR_FILENO) != 0;
  report::Measurements measured;
  probes::BandwidthOptions bw;
  bw.gpus = *gpus;
  bw.samples = options.samples;
  bw.bytes = options.size_mib << 20;
  bw.on_testcase = [&](const std::string& key) {
    if (progress) streams.err << "gpuvet bench: " << key << "\n";
  };
  // The picture only sets expectations here: its own findings belong to `gpuvet inspect`.
  const auto& catalog = catalog::gpu_catalog();
  auto assessment = analysis::judge_machine(target->machine, catalog, {});
  assessment.findings.clear();
  assessment.unverified.clear();
  const std::vector<std::pair<std::string, probes::BandwidthSuite>> suites = {
      {"host", probes::BandwidthSuite::host}, {"p2p", probes::BandwidthSuite::p2p}, {"memory", probes::BandwidthSuite::memory}};
  std::vector<probes::BandwidthSuite> chosen;
  for (const auto& [name, suite] : suites) {
    if (options.suite == name || options.suite == "all") chosen.push_back(suite);
  }
  // The same observe-and-judge pipeline as accept's bandwidth and VRAM stages.
  auto judged = accept::observe_copies(*target->backend, chosen, bw, target->machine, catalog, assessment.interconnect);
  if (!judged) return judged.error();
  for (auto& s : judged.value()) {
    measured.bandwidth.push_back(std::move(s.run));
    assessment.findings.insert(assessment.findings.end(), s.judged.findings.begin(), s.judged.findings.end());
    assessment.bandwidth.insert(assessment.bandwidth.end(), s.judged.bandwidth.begin(), s.judged.bandwidth.end());
  }
  if (options.suite == "vram" || options.suite == "all") {
    probes::VramOptions vo;
    vo.gpus = *gpus;
    vo.on_gpu = [&](int g) {
      if (progress) streams.err << "gpuvet bench: VRAM check of GPU " << g << "\n";
    };
    auto vram = accept::observe_vram(*target->backend, vo);
    if (!vram) return vram.error();
    const auto& v = vram->judged;
    assessment.findings.insert(assessment.findings.end(), v.findings.begin(), v.findings.end());
    assessment.unverified.insert(assessment.unverified.end(), v.unverified.begin(), v.unverified.end());
    measured.vram = std::move(vram.value().run);
  }
  const auto verdict = core::verdict_of(assessment.findings, assessment.unverified);
  const report::MachineReport report{"bench", target->machine, assessment, verdict, &measured};
  streams.out << (options.json ? report::render_json(report) : report::render_bench_text(report, {streams.color}));
  return core::exit_code_for(verdict);
}

}  // namespace

void add_bench_command(CLI::App& app, Action& action) {
  auto options = std::make_shared<BenchOptions>();
  auto* cmd = app.add_subcommand(
      "bench",
      "Measure copy bandwidth and memory: host (H2D/D2H per GPU, own and far NUMA node), p2p (every GPU "
      "pair, CE and SM, read/write, bidirectional, latency), memory (device-local copies), vram (allocate "
      "and verify all memory), all. Judged against what the machine's links should deliver");
  cmd->add_option("suite", options->suite, "host | p2p | memory | vram | all")
      ->required()
      ->check(CLI::IsMember({"host", "p2p", "memory", "vram", "all"}));
  cmd->add_option("--gpus", options->gpus, "Only these GPUs (CUDA ordinals in PCI order, e.g. 0,1,4)");
  cmd->add_option("--sim", options->target.sim_profile, "Use a built-in simulated machine (see `gpuvet sim list`)");
  cmd->add_option("--fault", options->target.faults, "Fault overlay on the simulated machine, e.g. p2p-disabled:gpu=3 (repeatable)");
  cmd->add_option("--samples", options->samples, "Samples per cell; the median is reported")->check(CLI::Range(1, 1000));
  cmd->add_option("--size", options->size_mib, "MiB per copy")->check(CLI::Range(1, 65536));
  cmd->add_option("--seed", options->target.seed, "Seed of the simulator's noise");
  cmd->add_flag("--json", options->json, "Print one JSON object (schema gpuvet.machine/1 with measurements)");
  cmd->callback([options, &action] {
    action = [options](Streams& streams) { return run_bench(*options, streams); };
  });
}

}  // namespace gpuvet::cli
