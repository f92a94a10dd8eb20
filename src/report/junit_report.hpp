// junit.xml for CI systems: one <testcase> per spec clause, grouped by stage. pass: an empty
// test case; fail: <failure>; not run: <error type="not_run"> (fail-closed: never green). Pure.
#pragma once

#include <string>

#include "accept/accept_model.hpp"

namespace gpuvet::report {

std::string render_accept_junit(const accept::AcceptReport& report);

}  // namespace gpuvet::report
