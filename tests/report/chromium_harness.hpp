// Drives headless Chromium (Debian package `chromium`) for the HTML report tests: one bounded run
// per call (timeout, a throw-away profile directory, every host unresolvable, --no-sandbox only as
// root), a layout probe (layout_probe.js) appended to the page, and its JSON read back from the
// dumped DOM (screen) or from the printed PDF's title (print).
#pragma once

#include <nlohmann/json.hpp>

#include <cstdlib>
#include <optional>
#include <string>

namespace gpuvet::testing::chromium {

// The chromium executable on PATH, or empty when absent.
std::string executable();

// Call first in a test: GTEST_SKIP (workstation) or FAIL (CI=true) when chromium is absent.
#define GPUVET_REQUIRE_CHROMIUM()                                                                               \
  do {                                                                                                         \
    if (::gpuvet::testing::chromium::executable().empty()) {                                                   \
      const char* ci_ = std::getenv("CI");                                                                     \
      if (ci_ != nullptr && std::string(ci_) == "true") FAIL() << "chromium not installed (scripts/install-deps.sh installs it)"; \
      GTEST_SKIP() << "chromium not on PATH (Debian package chromium, /usr/bin/chromium); CI runs this test"; \
    }                                                                                                          \
  } while (false)

// The page with the probe appended before </body> and the report's Content-Security-Policy (which
// forbids scripts) widened by script-src 'unsafe-inline'; nothing else of the page changes.
std::string with_layout_probe(std::string html);

struct Result {
  int exit_code = -1;
  std::string output;  // --dump-dom: the DOM; --print-to-pdf: the PDF's bytes
  std::string log;     // chromium's stderr, for failure messages
};

// The page rendered in a window `width` px wide and its DOM after the load scripts ran.
Result dump_dom(const std::string& html, int width = 1280, int height = 900);

// The page printed as Chromium prints it (paper from the page's @page rule), without header and
// footer, with the heading outline.
Result print_to_pdf(const std::string& html);

// The probe's JSON from a dumped DOM, or nullopt when the probe did not run.
std::optional<nlohmann::json> screen_layout(const std::string& dom);
// The probe's JSON from the printed document title (see pdf_reader.hpp), or nullopt.
std::optional<nlohmann::json> print_layout(const std::string& pdf_title);

// "element: why" lines of a probe result, for assertion messages.
std::string problems_text(const nlohmann::json& layout);

}  // namespace gpuvet::testing::chromium
