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
  if (!runs.collectives.empty()) analysis::judge_collectives(runs.collectives, machine, catalog::gpu_catalog(), assessment);
  if (!runs.bandwidth.empty()) analysis::judge_bandwidth(runs.bandwidth, machine, catalog::gpu_catalog(), assessment);
  const auto verdict = core::verdict_of(assessment.findings, assessment.unverified);
  const report::MachineReport report{command, machine, assessment, verdict};
  if (json) {
    streams.out << report::render_json(report);
  } else {
    streams.out << report::render_text(report, {streams.out_is_terminal});
  }
  return core::exit_code_for(verdict);
}

}  // namespace gpuvet::cli
