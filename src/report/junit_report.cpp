// junit.xml in the common JUnit/Ant schema (testsuites > testsuite > testcase).
#include "report/junit_report.hpp"

#include <fmt/format.h>

#include "report/html_escape.hpp"

namespace gpuvet::report {

std::string render_accept_junit(const accept::AcceptReport& r) {
  int tests = 0;
  int failures = 0;
  int errors = 0;
  for (const auto* c : accept::all_clauses(r)) {
    ++tests;
    failures += c->status == accept::ClauseStatus::fail ? 1 : 0;
    errors += c->status == accept::ClauseStatus::not_run ? 1 : 0;
  }
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out += fmt::format("<testsuites name=\"gpuvet accept\" tests=\"{}\" failures=\"{}\" errors=\"{}\">\n", tests, failures, errors);
  for (const auto& s : r.stages) {
    if (s.clauses.empty()) continue;
    int f = 0;
    int e = 0;
    for (const auto& c : s.clauses) {
      f += c.status == accept::ClauseStatus::fail ? 1 : 0;
      e += c.status == accept::ClauseStatus::not_run ? 1 : 0;
    }
    out += fmt::format("  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"{}\" time=\"{:.3f}\" timestamp=\"{}\">\n",
                       xml_escape(s.id), s.clauses.size(), f, e, s.seconds, xml_escape(r.started_utc));
    for (const auto& c : s.clauses) {
      out += fmt::format("    <testcase classname=\"gpuvet.accept.{}\" name=\"{}\"", xml_escape(s.id), xml_escape(c.id));
      const std::string detail = fmt::format("promised: {}\nobserved: {}\n{}", c.expected, c.observed, c.reason);
      if (c.status == accept::ClauseStatus::pass) {
        out += "/>\n";
      } else if (c.status == accept::ClauseStatus::fail) {
        out += fmt::format(">\n      <failure message=\"{}\" type=\"fail\">{}</failure>\n    </testcase>\n", xml_escape(c.reason),
                           xml_escape(detail));
      } else {
        out += fmt::format(">\n      <error message=\"not run: {}\" type=\"not_run\">{}</error>\n    </testcase>\n",
                           xml_escape(c.reason), xml_escape(detail));
      }
    }
    out += "  </testsuite>\n";
  }
  return out + "</testsuites>\n";
}

}  // namespace gpuvet::report
