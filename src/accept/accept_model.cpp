// Names of the accept statuses and the fail-closed verdict over the clauses.
#include "accept/accept_model.hpp"

#include <fmt/format.h>

namespace gpuvet::accept {

std::string_view to_string(ClauseStatus status) {
  switch (status) {
    case ClauseStatus::pass: return "pass";
    case ClauseStatus::fail: return "fail";
    case ClauseStatus::not_run: return "not_run";
  }
  return "not_run";
}

std::string_view to_string(StageStatus status) {
  switch (status) {
    case StageStatus::done: return "done";
    case StageStatus::not_run: return "not_run";
    case StageStatus::waived: return "waived";
    case StageStatus::error: return "error";
  }
  return "error";
}

bool parse_clause_status(std::string_view text, ClauseStatus& out) {
  for (auto s : {ClauseStatus::pass, ClauseStatus::fail, ClauseStatus::not_run}) {
    if (to_string(s) == text) {
      out = s;
      return true;
    }
  }
  return false;
}

bool parse_stage_status(std::string_view text, StageStatus& out) {
  for (auto s : {StageStatus::done, StageStatus::not_run, StageStatus::waived, StageStatus::error}) {
    if (to_string(s) == text) {
      out = s;
      return true;
    }
  }
  return false;
}

core::Verdict decide(const std::vector<StageRecord>& stages, std::vector<std::string>& why) {
  why.clear();
  std::vector<std::string> not_run;
  size_t clauses = 0;
  for (const auto& stage : stages) {
    for (const auto& c : stage.clauses) {
      ++clauses;
      if (c.status == ClauseStatus::fail) why.push_back(fmt::format("{} failed: {}", c.id, c.reason));
      if (c.status == ClauseStatus::not_run) not_run.push_back(fmt::format("{} not run: {}", c.id, c.reason));
    }
  }
  const bool failed = !why.empty();
  why.insert(why.end(), not_run.begin(), not_run.end());
  if (failed) return core::Verdict::fail;
  if (clauses == 0) {
    why.push_back("the spec states nothing to check");
    return core::Verdict::incomplete;
  }
  return not_run.empty() ? core::Verdict::pass : core::Verdict::incomplete;
}

std::vector<core::Finding> findings_outside(const std::vector<core::Finding>& all, const std::vector<StageRecord>& stages) {
  std::vector<core::Finding> out;
  for (const auto& f : all) {
    bool carried = false;
    for (const auto& s : stages) {
      for (const auto& g : s.findings) carried = carried || (g.code == f.code && g.message == f.message);
    }
    if (!carried) out.push_back(f);
  }
  return out;
}

std::vector<const ClauseResult*> all_clauses(const AcceptReport& report) {
  std::vector<const ClauseResult*> out;
  for (const auto& stage : report.stages) {
    for (const auto& c : stage.clauses) out.push_back(&c);
  }
  return out;
}

}  // namespace gpuvet::accept
