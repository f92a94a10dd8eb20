// junit.xml: one test case per clause, not run as an error (never green); report.md escapes
// table cells.
#include <gtest/gtest.h>
#include <pugixml.hpp>

#include "report/junit_report.hpp"
#include "report/markdown_report.hpp"
#include "report_test_data.hpp"

namespace gpuvet::report {
namespace {

TEST(JunitReport, OneTestCasePerClause) {
  const auto xml = render_accept_junit(testing::sample_report());
  pugi::xml_document doc;
  ASSERT_TRUE(doc.load_string(xml.c_str())) << xml;
  const auto suites = doc.child("testsuites");
  EXPECT_STREQ(suites.attribute("tests").value(), "3");
  EXPECT_STREQ(suites.attribute("failures").value(), "1");
  EXPECT_STREQ(suites.attribute("errors").value(), "1");
  EXPECT_EQ(doc.select_nodes("//testcase").size(), 3u);
  EXPECT_STREQ(doc.select_node("//testcase[@name='gpu.same_batch']/failure").node().attribute("type").value(), "fail");
  EXPECT_STREQ(doc.select_node("//testcase[@name='bandwidth.h2d']/error").node().attribute("type").value(), "not_run");
  EXPECT_TRUE(doc.select_node("//testcase[@name='gpu.count']").node().first_child().empty());
}

TEST(MarkdownReport, VerdictClausesAndEscapedCells) {
  const auto md = render_accept_markdown(testing::sample_report());
  EXPECT_EQ(md.rfind("# gpuvet acceptance report\n\n**Verdict: FAIL**", 0), 0u);
  EXPECT_NE(md.find("| `gpu.same_batch` Same batch | 8 GPUs | 8 GPUs | **FAIL** | vbios differs: <96.00.74> on GPU 0,1 \\| "
                    "96.00.61 on GPU 5 |"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("| `bandwidth.h2d` GPU count | 8 GPUs | 8 GPUs | NOT RUN | not built into this binary yet |"), std::string::npos);
}

}  // namespace
}  // namespace gpuvet::report
