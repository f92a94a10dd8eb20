// observe_copies / observe_vram: the probe, then the judge, per suite.
#include "accept/copy_pipeline.hpp"

#include "analysis/judge.hpp"

namespace gpuvet::accept {

core::Result<std::vector<JudgedSuite>> observe_copies(api::CopyBackend& backend,
                                                      const std::vector<probes::BandwidthSuite>& suites,
                                                      const probes::BandwidthOptions& options, const core::Machine& machine,
                                                      const core::Catalog& catalog, const core::InterconnectSummary& interconnect) {
  std::vector<JudgedSuite> out;
  for (const auto suite : suites) {
    auto run = probes::run_bandwidth_suite(backend, suite, options);
    if (!run) return run.error();
    JudgedSuite s{suite, std::move(run).value(), {}};
    s.judged.interconnect = interconnect;
    analysis::judge_bandwidth({s.run}, machine, catalog, s.judged);
    out.push_back(std::move(s));
  }
  return out;
}

core::Result<JudgedVram> observe_vram(api::CopyBackend& backend, const probes::VramOptions& options) {
  auto run = probes::run_vram_check(backend, options);
  if (!run) return run.error();
  JudgedVram out{std::move(run).value(), {}};
  analysis::judge_vram(out.run, out.judged);
  return out;
}

}  // namespace gpuvet::accept
