// The overall verdict of a run and how it maps to the process exit code.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/exit_code.hpp"
#include "core/finding.hpp"

namespace gpuvet::core {

enum class Verdict { pass, fail, incomplete };

constexpr std::string_view to_string(Verdict verdict) {
  switch (verdict) {
    case Verdict::pass: return "pass";
    case Verdict::fail: return "fail";
    case Verdict::incomplete: return "incomplete";
  }
  return "incomplete";
}

// A failing finding fails the machine; warnings and information do not. Fail-closed: when
// nothing failed but something the user required could not be checked, there is no pass.
inline Verdict verdict_of(const std::vector<Finding>& findings, const std::vector<std::string>& unverified = {}) {
  if (worst(findings) == Severity::fail) return Verdict::fail;
  return unverified.empty() ? Verdict::pass : Verdict::incomplete;
}

constexpr ExitCode exit_code_for(Verdict verdict) {
  switch (verdict) {
    case Verdict::pass: return ExitCode::pass;
    case Verdict::fail: return ExitCode::fail;
    case Verdict::incomplete: return ExitCode::incomplete;
  }
  return ExitCode::internal;
}

}  // namespace gpuvet::core
