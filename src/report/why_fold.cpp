// fold_why: the failing clauses' why lines rebuilt from their reason parts (accept::ClauseResult),
// with the parts that quote a culprit or the GPU sets it explains folded; no text is searched.
#include "report/why_fold.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "core/finding_codes.hpp"
#include "report/finding_fold.hpp"

namespace gpuvet::report {

namespace {

std::string gpus_text(const std::vector<int>& gpus) { return fmt::format("{}", fmt::join(gpus, ",")); }

bool is_culprit(const core::Finding& f) {
  return (f.code == core::code::straggler_gpu || f.code == core::code::slow_link) && !f.gpus.empty();
}

std::vector<FoldedFinding> culprits_of(const accept::AcceptReport& r) {
  std::vector<core::Finding> all;
  for (const auto& s : r.stages) all.insert(all.end(), s.findings.begin(), s.findings.end());
  std::vector<FoldedFinding> culprits;
  for (auto& entry : fold_findings(all)) {
    if (is_culprit(entry.finding)) culprits.push_back(std::move(entry));
  }
  return culprits;
}

// Where `text` is one of `parts`; parts.size() when it is not.
std::size_t part_of(const std::vector<std::string>& parts, const std::string& text) {
  return static_cast<std::size_t>(std::find(parts.begin(), parts.end(), text) - parts.begin());
}

// One clause's parts with culprit `c` folded: quoted again, it points back; two or more of the
// sets it explains are counted in place of the first one quoted.
void fold_culprit(std::vector<std::string>& parts, const FoldedFinding& culprit, bool& stated) {
  const auto& f = culprit.finding;
  const std::size_t at = part_of(parts, f.message);
  if (at == parts.size()) return;
  const std::string who = fmt::format("GPU{} {}", f.gpus.size() == 1 ? "" : "s", gpus_text(f.gpus));
  if (stated) parts[at] = fmt::format("{} again ({}, as above)", who, f.code);
  stated = true;
  std::vector<std::size_t> quoted;
  std::vector<std::string> sets;
  for (const auto& set : culprit.folded) {
    const std::size_t p = part_of(parts, set.message);
    if (p == parts.size() || std::find(quoted.begin(), quoted.end(), p) != quoted.end()) continue;
    quoted.push_back(p);
    sets.push_back(gpus_text(gpu_set_of(set)));
  }
  if (quoted.size() < 2) return;
  std::sort(quoted.begin(), quoted.end());
  parts[quoted.front()] =
      fmt::format("{} GPU sets that include {} fall short too (GPUs {})", sets.size(), who, fmt::join(sets, "; "));
  for (auto p = quoted.rbegin(); p + 1 != quoted.rend(); ++p) parts.erase(parts.begin() + static_cast<std::ptrdiff_t>(*p));
}

}  // namespace

std::vector<std::string> fold_why(const accept::AcceptReport& r) {
  const auto culprits = culprits_of(r);
  std::vector<std::string> failed;
  std::vector<bool> stated(culprits.size(), false);
  bool as_decided = true;  // r.why starts with these clauses' lines, as accept::decide writes them
  for (const auto& stage : r.stages) {
    for (const auto& clause : stage.clauses) {
      if (clause.status != accept::ClauseStatus::fail) continue;
      const std::size_t line = failed.size();
      as_decided = as_decided && line < r.why.size() && r.why[line] == fmt::format("{} failed: {}", clause.id, clause.reason);
      auto parts = clause.reason_parts.empty() ? std::vector<std::string>{clause.reason} : clause.reason_parts;
      for (std::size_t c = 0; c < culprits.size(); ++c) {
        bool was_stated = stated[c];
        fold_culprit(parts, culprits[c], was_stated);
        stated[c] = was_stated;
      }
      failed.push_back(fmt::format("{} failed: {}", clause.id, fmt::join(parts, "; ")));
    }
  }
  // A report whose why lines are not those of its clauses (written by hand, or damaged) is shown as it is.
  if (culprits.empty() || !as_decided) return r.why;
  std::vector<std::string> out = std::move(failed);
  out.insert(out.end(), r.why.begin() + static_cast<std::ptrdiff_t>(out.size()), r.why.end());
  return out;
}

}  // namespace gpuvet::report
