// fold_why: string surgery on the why lines, guided by the findings fold_findings pairs with
// their culprits (the reason of a clause is its findings' messages joined by "; ").
#include "report/why_fold.hpp"

#include "report/finding_fold.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

namespace gpuvet::report {

namespace {

// Removes `part` from a "; "-joined line with one of its separators; false when absent.
bool remove_part(std::string& line, const std::string& part) {
  const auto at = line.find(part);
  if (at == std::string::npos || part.empty()) return false;
  size_t from = at;
  size_t to = at + part.size();
  if (line.compare(to, 2, "; ") == 0) {
    to += 2;
  } else if (from >= 2 && line.compare(from - 2, 2, "; ") == 0) {
    from -= 2;
  }
  line.erase(from, to - from);
  return true;
}

std::string gpus_text(const std::vector<int>& gpus) { return fmt::format("{}", fmt::join(gpus, ",")); }

}  // namespace

std::vector<std::string> fold_why(const accept::AcceptReport& r) {
  std::vector<core::Finding> all;
  for (const auto& s : r.stages) all.insert(all.end(), s.findings.begin(), s.findings.end());
  std::vector<FoldedFinding> culprits;
  for (auto& entry : fold_findings(all)) {
    const auto& f = entry.finding;
    if ((f.code == "straggler_gpu" || f.code == "slow_link") && !f.gpus.empty()) culprits.push_back(std::move(entry));
  }
  std::vector<std::string> out;
  std::vector<bool> stated(culprits.size(), false);
  for (std::string line : r.why) {
    for (size_t c = 0; c < culprits.size(); ++c) {
      const auto& culprit = culprits[c].finding;
      const auto at = line.find(culprit.message);
      if (at == std::string::npos) continue;
      const std::string who = fmt::format("GPU{} {}", culprit.gpus.size() == 1 ? "" : "s", gpus_text(culprit.gpus));
      if (stated[c]) {
        line.replace(at, culprit.message.size(), fmt::format("{} again ({}, as above)", who, culprit.code));
      }
      stated[c] = true;
      // Two or more quoted measurements of sets that hold the culprit: counted, not quoted.
      std::vector<std::string> sets;
      for (const auto& f : culprits[c].folded) {
        if (line.find(f.message) != std::string::npos) sets.push_back(gpus_text(gpu_set_of(f)));
      }
      if (sets.size() < 2) continue;
      size_t insert_at = std::string::npos;
      for (const auto& f : culprits[c].folded) {
        const auto pos = line.find(f.message);
        if (pos == std::string::npos) continue;
        insert_at = std::min(insert_at, pos);
      }
      for (const auto& f : culprits[c].folded) remove_part(line, f.message);
      const std::string counted = fmt::format("{} GPU sets that include {} fall short too (GPUs {})", sets.size(), who,
                                              fmt::join(sets, "; "));
      // Where the first quoted one was (the line's end when it was the last part).
      insert_at = std::min(insert_at, line.size());
      const bool at_end = insert_at == line.size();
      line.insert(insert_at, at_end ? "; " + counted : counted + "; ");
    }
    out.push_back(std::move(line));
  }
  return out;
}

}  // namespace gpuvet::report
