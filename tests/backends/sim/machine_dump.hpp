// Test helper: a core::Machine flattened to "key=value" lines, so tests can compare two machines
// and say exactly which fields differ (core::Machine has no equality on purpose).
#pragma once

#include <map>
#include <string>

#include "core/machine.hpp"

namespace gpuvet::sim::testing {

// Every field, absent ones as "absent(<reason>)". Keys like "gpu[3].pcie.gen_current", "links[0][1]".
std::map<std::string, std::string> dump(const core::Machine& machine);

// Keys whose values differ (or exist in only one of the two dumps).
std::map<std::string, std::pair<std::string, std::string>> diff(const core::Machine& a, const core::Machine& b);

}  // namespace gpuvet::sim::testing
