// The "What was accepted" section of report.md and report.html: every GPU's identity and the
// software versions, unknown values with their reason (never blank), HTML escaped, and a report
// read back without identity says it was not recorded.
#include <gtest/gtest.h>

#include "report/identity_section.hpp"

namespace gpuvet::report {
namespace {

accept::AcceptReport with_identity() {
  accept::AcceptReport r;
  core::MachineIdentity id;
  id.source = "live (NVML + sysfs)";
  id.hostname = std::string("node<7>");
  id.software.push_back({"driver", "NVIDIA driver", std::string("570.124.06"), "NVML"});
  id.software.push_back({"fabric_manager", "NVIDIA fabric manager",
                         core::Reading<std::string>::absent("no fabric manager found"), "/var/lib/dpkg/status"});
  core::GpuIdentity g;
  g.index = 0;
  g.name = std::string("NVIDIA H100 80GB HBM3");
  g.serial = std::string("1652823054321");
  g.uuid = std::string("GPU-11111111-2222-3333-4444-555555555555");
  g.pci_bus_id = std::string("0000:18:00.0");
  g.vbios = std::string("96.00.74.00.01");
  g.board_part_number = core::Reading<std::string>::absent("not reported by NVML");
  id.gpus.push_back(g);
  r.identity = id;
  return r;
}

TEST(IdentitySection, MarkdownNamesEveryFieldAndWhyOneIsUnknown) {
  const auto md = render_identity_markdown(with_identity());
  EXPECT_NE(md.find("## What was accepted"), std::string::npos);
  EXPECT_NE(md.find("| NVIDIA driver | 570.124.06 | NVML |"), std::string::npos) << md;
  EXPECT_NE(md.find("| NVIDIA fabric manager | unknown (no fabric manager found) | /var/lib/dpkg/status |"), std::string::npos) << md;
  EXPECT_NE(md.find("| 0 | NVIDIA H100 80GB HBM3 | 1652823054321 | GPU-11111111-2222-3333-4444-555555555555 | 0000:18:00.0 | "
                    "96.00.74.00.01 | unknown (not reported by NVML) |"),
            std::string::npos)
      << md;
  EXPECT_EQ(md.find("SIMULATED"), std::string::npos);
}

TEST(IdentitySection, HtmlEscapesAndMarksUnknowns) {
  const auto html = render_identity_html(with_identity());
  EXPECT_NE(html.find("<h2 id=\"identity\">"), std::string::npos);
  EXPECT_NE(html.find("node&lt;7&gt;"), std::string::npos);
  EXPECT_EQ(html.find("node<7>"), std::string::npos);
  EXPECT_NE(html.find("class=\"na\" style=\"color:#777\">unknown (not reported by NVML)</td>"), std::string::npos) << html;
  auto sim = with_identity();
  sim.identity->simulated = true;
  EXPECT_NE(render_identity_html(sim).find("Simulated machine"), std::string::npos);
}

TEST(IdentitySection, AnOlderReportSaysItWasNotRecorded) {
  const accept::AcceptReport old;
  EXPECT_NE(render_identity_markdown(old).find("Not recorded"), std::string::npos);
  EXPECT_NE(render_identity_html(old).find("Not recorded"), std::string::npos);
}

}  // namespace
}  // namespace gpuvet::report
