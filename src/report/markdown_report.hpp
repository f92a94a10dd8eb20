// The acceptance report as Markdown (report.md) and the JUnit XML CI systems read (junit.xml:
// one test case per spec clause; not run is an <error>, so a CI run never shows it green).
// Pure.
#pragma once

#include <string>

#include "accept/accept_model.hpp"

namespace gpuvet::report {

std::string render_accept_markdown(const accept::AcceptReport& report);

}  // namespace gpuvet::report
