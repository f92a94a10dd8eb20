// judge_and_render: the tail shared by inspect and analyze.
#include "cli/output.hpp"

#include <ostream>

#include "catalog/gpu_catalog.hpp"
#include "core/verdict.hpp"
#include "report/machine_report.hpp"

namespace gpuvet::cli {

core::ExitCode judge_and_render(const std::string& command, const core::Machine& machine,
                                const analysis::Expectations& expect, bool json, Streams& streams,
                                const Benchmarks& runs) {
  auto assessment = analysis::judge_machine(machine, catalog::gpu_catalog(), expect);
  // Peer copies measured faster than PCIe can say what the machine picture could not.
  if (!runs.bandwidth.empty()) {
    analysis::infer_interconnect_from_peer_bandwidth(runs.bandwidth, machine, catalog::gpu_catalog(), assessment);
  }
  // Multi-node logs are judged against the NICs between the nodes, the others against the machine.
  // A machine known only from the logs' own device lines is no description: the logs infer their
  // fabric from those lines themselves.
  const core::Machine none;
  const core::Machine& described = runs.machine_described ? machine : none;
  std::vector<core::CollectiveRun> local, across;
  for (const auto& run : runs.collectives) (run.nodes && *run.nodes > 1 ? across : local).push_back(run);
  if (!local.empty()) analysis::judge_collectives(local, described, catalog::gpu_catalog(), assessment);
  if (!across.empty()) analysis::judge_multi_node_collectives(across, described, expect, catalog::gpu_catalog(), assessment);
  if (!runs.bandwidth.empty()) analysis::judge_bandwidth(runs.bandwidth, described, catalog::gpu_catalog(), assessment);
  if (!runs.collectives.empty() || !runs.bandwidth.empty()) {
    analysis::judge_benchmark_coverage(runs.collectives, runs.bandwidth, runs.machine_described, assessment);
  }
  // A description that shows nothing the rules judge (only NVLink traffic or firmware) is no pass.
  if (runs.collectives.empty() && runs.bandwidth.empty()) analysis::judge_machine_coverage(machine, assessment);
  const auto verdict = core::verdict_of(assessment.findings, assessment.unverified);
  const report::MachineReport report{command, machine, assessment, verdict};
  if (json) {
    streams.out << report::render_json(report);
  } else {
    streams.out << report::render_text(report, {streams.color});
  }
  return core::exit_code_for(verdict);
}

}  // namespace gpuvet::cli
