// gpuvet analyze FILE...: the machine picture and findings from a vendor's pasted outputs.
#include <ostream>

#include "catalog/gpu_catalog.hpp"
#include "cli/analyze_inputs.hpp"
#include "cli/commands.hpp"
#include "cli/expect_options.hpp"
#include "cli/output.hpp"
#include "parsers/benchmark_machine.hpp"
#include "parsers/machine_merge.hpp"
#include "parsers/parse_input.hpp"
#include "platform/user_file.hpp"

namespace gpuvet::cli {

namespace {

struct AnalyzeOptions {
  std::vector<std::string> files;
  bool json = false;
  ExpectOptions expect;
};

core::Result<core::ExitCode> run_analyze(const AnalyzeOptions& options, Streams& streams) {
  auto expect = to_expectations(options.expect);
  if (!expect) return expect.error();
  std::vector<core::Machine> parts;
  Benchmarks runs;
  for (const auto& file : options.files) {
    auto text = platform::read_user_file(file);
    if (!text) return text.error();
    auto parsed = parsers::parse_file(*text, file == "-" ? "<stdin>" : file);
    if (!parsed) return parsed.error();
    if (parsed->machine) parts.push_back(std::move(*parsed.value().machine));
    if (parsed->collective) runs.collectives.push_back(std::move(*parsed.value().collective));
    for (auto& more : parsed.value().more_collectives) runs.collectives.push_back(std::move(more));
    if (parsed->bandwidth) runs.bandwidth.push_back(std::move(*parsed.value().bandwidth));
    for (auto& more : parsed.value().more_bandwidth) runs.bandwidth.push_back(std::move(more));
  }
  core::Machine machine;
  if (parts.empty()) {
    // The logs' own device lines give the GPU list (models, bus ids), nothing more.
    machine = parsers::machine_from_benchmarks(runs.collectives, runs.bandwidth);
    machine.source = machine.gpus.empty() ? "no machine description given (only benchmark logs)"
                                          : "no machine description given; GPUs from the " + machine.source;
    machine.notes.push_back("judged from benchmark logs only: the interconnect, memory, NUMA placement and health are "
                            "not judged; give nvidia-smi topo -m and nvidia-smi -q of the same machine to judge them");
    runs.machine_described = false;
  } else {
    auto merged = parsers::merge_machines(parts);
    if (!merged) return merged.error();
    machine = std::move(merged).value();
  }
  // Files of one machine, or refused naming both sides; the logs' device lines fill what is unknown.
  const auto logs = log_devices(runs);
  auto reconciled = reconcile_with_logs(std::move(machine), parts, logs, catalog::gpu_catalog());
  if (!reconciled) return reconciled.error();
  auto checked = check_nvlink_models(std::move(reconciled).value(), parts, logs, catalog::gpu_catalog());
  if (!checked) return checked.error();
  machine = std::move(checked).value();
  note_foreign_events(machine);
  return judge_and_render("analyze", machine, *expect, options.json, streams, runs);
}

}  // namespace

void add_analyze_command(CLI::App& app, Action& action) {
  auto options = std::make_shared<AnalyzeOptions>();
  auto* cmd = app.add_subcommand(
      "analyze",
      "Judge a machine from pasted outputs: nvidia-smi topo -m, nvidia-smi -q, nvidia-smi -q -x, "
      "nvidia-smi nvlink -s, and benchmark logs run on it (nccl-tests text or -J JSON, nvbandwidth, "
      "p2pBandwidthLatencyTest). Formats are detected; "
      "several files of one machine are merged");
  cmd->add_option("files", options->files, "Files with pasted tool output (- reads standard input)")
      ->required()
      ->check(CLI::Validator(
          [](std::string& path) { return path == "-" ? std::string() : CLI::ExistingFile(path); }, "FILE|-", "file"));
  cmd->add_flag("--json", options->json, "Print one JSON object (schema gpuvet.machine/1) instead of text");
  add_expect_options(*cmd, options->expect);
  cmd->callback([options, &action] {
    action = [options](Streams& streams) { return run_analyze(*options, streams); };
  });
}

}  // namespace gpuvet::cli
