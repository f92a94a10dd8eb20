// The evidence files of an accept run.
#include "bundle/evidence_bundle.hpp"

#include "accept/accept_json.hpp"
#include "bundle/bundle_dir.hpp"
#include "bundle/out_dir.hpp"
#include "bundle/topology_text.hpp"
#include "report/html_report.hpp"
#include "report/junit_report.hpp"
#include "report/machine_report.hpp"
#include "report/markdown_report.hpp"

namespace gpuvet::bundle {

core::Result<std::vector<std::string>> write_evidence(const std::filesystem::path& dir, const Evidence& e) {
  const report::MachineReport machine_report{"accept", e.machine, e.assessment,
                                             core::verdict_of(e.assessment.findings, e.assessment.unverified)};
  const std::vector<std::pair<std::string, std::string>> files = {
      {"machine.json", report::render_json(machine_report)},
      {"topology.txt", render_topology_text(e.machine)},
      {"spec.yaml", e.spec_text},
      {"versions.json", accept::render_versions_json(e.report)},
      {"report.json", accept::render_report_json(e.report)},
      {"report.md", report::render_accept_markdown(e.report)},
      {"junit.xml", report::render_accept_junit(e.report)},
      {"report.html", report::render_accept_html(e.report, &e.machine)},
  };
  std::vector<std::string> written;
  for (const auto& [name, content] : files) {
    auto ok = write_file(dir, name, content);
    if (!ok) return ok.error();
    written.push_back(name);
  }
  auto ok = seal_bundle(dir);  // only what gpuvet wrote: a user's stray file is never sealed
  if (!ok) return ok.error();
  written.emplace_back(kManifestName);
  return written;
}

}  // namespace gpuvet::bundle
