// The evidence files of an accept run.
#include "bundle/evidence_bundle.hpp"

#include "accept/accept_json.hpp"
#include "bundle/bundle_dir.hpp"
#include "report/topology_text.hpp"
#include "report/html_report.hpp"
#include "report/junit_report.hpp"
#include "report/machine_report.hpp"
#include "report/markdown_report.hpp"

namespace gpuvet::bundle {

core::Result<std::vector<std::string>> write_evidence(const std::filesystem::path& dir, const Evidence& e,
                                                      const SealPlan& seal) {
  const report::MachineReport machine_report{"accept", e.machine, e.assessment,
                                             core::verdict_of(e.assessment.findings, e.assessment.unverified)};
  // In the order of kEvidenceFiles.
  const std::array<std::string, kEvidenceFiles.size()> contents = {
      report::render_json(machine_report),
      report::render_topology_text(e.machine),
      e.spec_text,
      accept::render_versions_json(e.report),
      accept::render_report_json(e.report),
      report::render_accept_markdown(e.report),
      report::render_accept_junit(e.report),
      report::render_accept_html(e.report, &e.machine),
  };
  std::vector<std::string> written;
  for (std::size_t i = 0; i < kEvidenceFiles.size(); ++i) {
    const std::string name(kEvidenceFiles[i]);
    auto ok = write_file(dir, name, contents[i]);
    if (!ok) return ok.error();
    written.push_back(name);
  }
  auto ok = seal_bundle(dir, seal);  // only what gpuvet wrote: a user's stray file is never sealed
  if (!ok) return ok.error();
  written.emplace_back(kManifestName);
  return written;
}

}  // namespace gpuvet::bundle
