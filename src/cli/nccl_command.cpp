// gpuvet nccl: NCCL collectives on this machine (NCCL loaded at run time) or a simulated one:
// nccl-tests style size sweeps judged against the envelope (--nvls both: all_reduce with NVLS
// off and on), or --scaling: every pair, 4-GPU subsets and all GPUs, with the GPU or link to
// blame. Under mpirun/srun each rank is a node, and the nodes then run the sweep together.
#include <fmt/format.h>

#include <charconv>
#include <ostream>

#include "analysis/collective_judge.hpp"
#include "analysis/judge.hpp"
#include "catalog/gpu_catalog.hpp"
#include "cli/commands.hpp"
#include "cli/nccl_node.hpp"
#include "cli/target.hpp"
#include "cli/target_options.hpp"
#include "platform/environment.hpp"
#include "probes/collective_probe.hpp"
#include "probes/gpu_ordinals.hpp"
#include "core/verdict.hpp"
#include "report/machine_report.hpp"

namespace gpuvet::cli {
namespace {

struct NcclOptions {
  std::string ops = "all_reduce";
  std::string sweep;
  std::string nvls = "auto";  // auto (NCCL's choice), off, on, both
  bool scaling = false;
  std::string gpus;
  TargetOptions target;
  std::vector<std::string> node_faults;  // "RANK:FAULT", under mpirun with --sim
  bool json = false;
  int iterations = 20;
  int warmup = 5;
  double timeout_s = 120;
};

core::Result<std::uint64_t> parse_size(std::string_view text) {
  std::uint64_t value = 0;
  const auto* end = text.data() + text.size();
  auto [p, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || p == text.data()) return core::usage_error(fmt::format("size '{}' is not a number", text));
  std::uint64_t unit = 1;
  const std::string_view suffix(p, static_cast<std::size_t>(end - p));
  if (suffix == "K" || suffix == "k") unit = 1ull << 10;
  else if (suffix == "M" || suffix == "m") unit = 1ull << 20;
  else if (suffix == "G" || suffix == "g") unit = 1ull << 30;
  else if (!suffix.empty()) return core::usage_error(fmt::format("size '{}': unit must be K, M or G (powers of 1024)", text));
  return value * unit;
}

core::Result<std::vector<api::CollectiveOp>> parse_ops(const std::string& text) {
  std::vector<api::CollectiveOp> out;
  std::size_t start = 0;
  while (start <= text.size()) {
    const auto comma = std::min(text.find(',', start), text.size());
    const auto name = text.substr(start, comma - start);
    const auto op = api::parse_collective_op(name);
    if (!op) {
      return core::usage_error(fmt::format("--ops: unknown collective '{}' (known: all_reduce, all_gather, "
                                           "reduce_scatter, alltoall, broadcast, sendrecv)", name));
    }
    out.push_back(*op);
    start = comma + 1;
  }
  return out;
}

struct Opened {
  core::Machine machine;
  std::shared_ptr<api::CollectiveBackend> backend;
};

// NCCL first (the hint says how to try without it), then the machine picture it runs on.
core::Result<Opened> open_collectives(const TargetOptions& options) {
  auto target = Target::open(options);
  if (!target) return target.error();
  auto backend = target.value().collectives();
  if (!backend) {
    auto error = backend.error().with_context("cannot run NCCL collectives on this machine");
    error.message += "\n  hint: `gpuvet nccl --sim hgx-h100-8x` runs them on the built-in simulated 8x H100 SXM server";
    return error;
  }
  const auto& machine = target.value().machine();
  if (!machine) return machine.error().with_context("cannot read this machine's GPUs");
  return Opened{*machine, std::move(backend).value()};
}

core::Result<OrdinalMap> map_ordinals(const core::Machine& machine, api::CollectiveBackend& backend,
                                      const std::vector<int>& gpus) {
  auto devices = backend.devices();
  if (!devices) return devices.error();
  return probes::map_ordinals(machine, *devices, gpus, backend.describe());
}

core::Result<probes::CollectiveProbeOptions> probe_options(const NcclOptions& options) {
  auto ops = parse_ops(options.ops);
  if (!ops) return ops.error();
  probes::CollectiveProbeOptions probe;
  probe.ops = *ops;
  probe.iterations = options.iterations;
  probe.warmup = options.warmup;
  probe.timeout = std::chrono::milliseconds(static_cast<std::int64_t>(options.timeout_s * 1000));
  if (options.scaling) probe.max_bytes = 1ull << 30;  // the judge's plateau floor; pairs on PCIe stay quick
  if (!options.sweep.empty()) {
    const auto colon = options.sweep.find(':');
    if (colon == std::string::npos) return core::usage_error("--sweep: expected MIN:MAX, e.g. 32M:8G");
    auto lo = parse_size(options.sweep.substr(0, colon));
    if (!lo) return lo.error().with_context("--sweep");
    auto hi = parse_size(options.sweep.substr(colon + 1));
    if (!hi) return hi.error().with_context("--sweep");
    if (*lo == 0 || *hi < *lo) return core::usage_error("--sweep: MIN must be positive and not above MAX");
    probe.min_bytes = *lo;
    probe.max_bytes = *hi;
  }
  return probe;
}

// The sweeps of a node: one per op, all_reduce twice (NVLS off, then on) with --nvls both where
// NVLS can run; where it cannot, all_reduce runs once with NCCL's choice and a note says why.
std::optional<core::Error> sweep_node(const NcclOptions& options, const probes::CollectiveProbeOptions& probe,
                              api::CollectiveBackend& backend, const std::vector<int>& ordinals,
                              const std::string& nvls_unsupported, NcclResults& results) {
  for (const auto op : probe.ops) {
    std::vector<std::optional<bool>> settings{std::nullopt};
    if (op == api::CollectiveOp::all_reduce && options.nvls != "auto") {
      if (!nvls_unsupported.empty()) {
        results.notes.push_back(fmt::format("--nvls {}: not run: {}; all_reduce ran with NCCL's default", options.nvls,
                                            nvls_unsupported));
      } else if (options.nvls == "both" && !backend.can_switch_nvls()) {
        settings = {false};
        results.notes.push_back(fmt::format("--nvls both: NVLS on not run: {} caches NCCL_NVLS_ENABLE for the whole process "
                                            "(NCCL_NO_CACHE needs a newer NCCL); run `gpuvet nccl --nvls on` as a second command",
                                            backend.describe()));
      } else if (options.nvls == "both") {
        settings = {false, true};
      } else {
        settings = {options.nvls == "on"};
      }
    }
    for (const auto& nvls : settings) {
      auto one = probe;
      one.ops = {op};
      one.nvls = nvls;
      auto runs = probes::sweep_collectives(backend, ordinals, one);
      if (!runs) return runs.error();
      const bool hung = std::any_of(runs->begin(), runs->end(), [](const auto& m) { return m.hang.has_value(); });
      for (auto& m : *runs) results.sweeps.push_back(std::move(m));
      if (hung) return std::nullopt;  // the GPUs may still be busy with the aborted collective
    }
  }
  return std::nullopt;
}

// Measures and judges this node (or the simulated one). `rank` >= 0 under mpirun: a simulated
// node then gets its own noise seed and a hostname that names the rank.
core::Result<NodeOutcome> measure_node(const NcclOptions& options, int rank) {
  auto probe_result = probe_options(options);
  if (!probe_result) return probe_result.error();
  const probes::CollectiveProbeOptions& probe = *probe_result;
  const auto& ops = probe.ops;
  if (options.nvls != "auto" && options.nvls != "off" && options.nvls != "on" && options.nvls != "both") {
    return core::usage_error(fmt::format("--nvls '{}': expected auto, off, on or both", options.nvls));
  }
  if (options.nvls != "auto" && options.scaling) return core::usage_error("--nvls applies to sweeps, not to --scaling");
  NcclOptions node_options = options;
  if (rank > 0) node_options.target.seed += static_cast<std::uint64_t>(rank);
  if (!options.node_faults.empty() && (rank < 0 || options.target.sim_profile.empty())) {
    return core::usage_error("--node-fault needs --sim PROFILE and several ranks (mpirun -np N)");
  }
  for (const auto& text : options.node_faults) {
    const auto colon = text.find(':');
    int fault_rank = -1;
    const auto parsed = std::from_chars(text.data(), text.data() + (colon == std::string::npos ? 0 : colon), fault_rank);
    if (colon == std::string::npos || parsed.ec != std::errc() || parsed.ptr != text.data() + colon || fault_rank < 0) {
      return core::usage_error(fmt::format("--node-fault '{}': expected RANK:FAULT, e.g. 1:gpu-missing:gpu=3", text));
    }
    if (fault_rank == rank) node_options.target.faults.push_back(text.substr(colon + 1));
  }
  auto target = open_collectives(node_options.target);
  if (!target) return target.error();
  if (rank >= 0 && target->machine.simulated && target->machine.hostname) {
    target.value().machine.hostname = fmt::format("{}-node{}", *target->machine.hostname, rank);
  }
  const core::Machine& machine = target.value().machine;
  auto chosen = select_gpus(options.gpus, machine);
  if (!chosen) return chosen.error();
  const std::vector<int> gpus = std::move(chosen).value();
  if (gpus.empty()) return core::environment_error("no GPUs to run collectives on");
  auto map = map_ordinals(machine, *target->backend, gpus);
  if (!map) return map.error();

  const auto& catalog = catalog::gpu_catalog();
  auto assessment = analysis::judge_machine(machine, catalog, {});
  NcclResults results;
  results.backend = target->backend->describe();
  results.simulated = target->backend->simulated();
  if (options.scaling) {
    if (gpus.size() < 2) return core::usage_error("--scaling needs at least 2 GPUs");
    for (const auto op : ops) {
      auto scaling = probes::measure_scaling(*target->backend, map->ordinals(gpus), op, probe);
      if (!scaling) return scaling.error();
      results.scaling.push_back(std::move(scaling).value());
    }
  } else {
    const std::string unsupported =
        analysis::nvls_unsupported(machine, static_cast<int>(gpus.size()), catalog, assessment.interconnect);
    if (auto e = sweep_node(options, probe, *target->backend, map->ordinals(gpus), unsupported, results)) return *e;
  }
  const accept::CollectiveJudgeContext judge{machine, catalog, assessment.interconnect, *map, options.timeout_s,
                                             nccl_run_namer(results.simulated)};
  accept::judge_collective_observation(results, judge, assessment);
  const auto verdict = core::verdict_of(assessment.findings, assessment.unverified);
  auto ordinals = map->ordinals(gpus);
  return NodeOutcome{std::move(target.value().machine), std::move(assessment), verdict, std::move(results),
                     std::move(map).value(), std::move(target.value().backend), std::move(ordinals)};
}

// The sweep across nodes: the same ops and sizes as each node's own (NVLS left to NCCL: between
// nodes the real backend asks NCCL for rings, which measure the NICs).
core::Result<std::vector<probes::CollectiveMeasurement>> sweep_across(const NcclOptions& options, NodeOutcome& node,
                                                                      api::ProcessGroup& group) {
  auto probe = probe_options(options);
  if (!probe) return probe.error();
  if (!node.backend) return core::internal_error("the node's collective backend is gone");
  return probes::sweep_collectives_across(*node.backend, node.ordinals, group, *probe);
}

// Ranks the process manager started (mpirun, srun); 1 when gpuvet runs on its own.
int launched_ranks() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "SLURM_STEP_NUM_TASKS"}) {
    const auto value = platform::env(name);
    int n = 0;
    if (value && std::from_chars(value->data(), value->data() + value->size(), n).ec == std::errc() && n > 0) return n;
  }
  return 1;
}

core::Result<core::ExitCode> run_nccl(const NcclOptions& options, Streams& streams) {
  if (launched_ranks() > 1) {
    return run_nccl_cluster([&options](int rank) { return measure_node(options, rank); },
                            [&options](NodeOutcome& node, api::ProcessGroup& group) { return sweep_across(options, node, group); },
                            options.json, streams);
  }
  auto node = measure_node(options, -1);
  if (!node) return node.error();
  const report::MachineReport report{"nccl", node->machine, node->assessment, node->verdict};
  if (options.json) {
    streams.out << report::render_json(report);
  } else {
    streams.out << report::render_nccl_tables(nccl_tables(node->results, node->map), node->machine) << "\n"
                << report::render_text(report, {streams.color});
  }
  return core::exit_code_for(node->verdict);
}

}  // namespace

void add_nccl_command(CLI::App& app, Action& action) {
  auto options = std::make_shared<NcclOptions>();
  auto* cmd = app.add_subcommand(
      "nccl",
      "NCCL collectives (nccl-tests vocabulary: algbw, busbw, #wrong) on this machine's GPUs or a simulated "
      "machine, judged against the busbw healthy machines reach; --scaling names the slow GPU or link");
  cmd->add_option("--ops", options->ops,
                  "Comma-separated collectives: all_reduce, all_gather, reduce_scatter, alltoall, broadcast, sendrecv")
      ->capture_default_str();
  cmd->add_option("--sweep", options->sweep, "Message sizes MIN:MAX, doubling (K/M/G = 1024^n); default 32M:8G, "
                                             "capped by GPU memory; --scaling runs MAX only (default 1G)");
  cmd->add_option("--nvls", options->nvls,
                  "all_reduce with NVLink SHARP: auto (NCCL's choice), off, on, or both (NVLS off then on, each judged "
                  "against its own envelope; where the GPUs support it: NVSwitch, Hopper or later, more than 4 GPUs)")
      ->capture_default_str();
  cmd->add_flag("--scaling", options->scaling,
                "Run every GPU pair, the 4-GPU subsets and all GPUs, and name the GPU or link common to slow ones");
  cmd->add_option("--gpus", options->gpus, "GPU indices as nvidia-smi numbers them, e.g. 0-3 or 0,2,4 (default all)");
  cmd->add_option("--sim", options->target.sim_profile, "Run on a built-in simulated machine instead (see `gpuvet sim list`)");
  cmd->add_option("--fault", options->target.faults, "Fault overlay on the simulated machine, e.g. straggler:gpu=3,factor=0.6 (repeatable)");
  cmd->add_option("--node-fault", options->node_faults,
                  "Under mpirun with --sim: a fault on one rank's simulated node only, RANK:FAULT (repeatable)");
  cmd->add_option("--iters", options->iterations, "Timed iterations per size (median reported)")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  cmd->add_option("--warmup", options->warmup, "Untimed iterations before each size")->check(CLI::Range(0, 100000))->capture_default_str();
  cmd->add_option("--timeout", options->timeout_s, "Seconds one size may take before the collective counts as hung")
      ->check(CLI::Range(0.001, 86400.0))
      ->capture_default_str();
  cmd->add_option("--seed", options->target.seed, "Seed of the simulator's noise (with --sim)")->capture_default_str();
  cmd->add_flag("--json", options->json, "Print one JSON object (schema gpuvet.machine/1) instead of text");
  cmd->callback([options, &action] {
    action = [options](Streams& streams) { return run_nccl(*options, streams); };
  });
}

}  // namespace gpuvet::cli
