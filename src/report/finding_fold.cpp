// fold_findings: culprits first (a straggler GPU or slow link explains every GPU set that holds
// it), then findings equal but for their numbers.
#include "report/finding_fold.hpp"

#include <algorithm>
#include <cctype>
#include <map>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/finding_codes.hpp"

namespace gpuvet::report {

namespace {

namespace code = core::code;

bool names_culprit(const core::Finding& f) {
  return (f.code == code::straggler_gpu || f.code == code::slow_link) && !f.gpus.empty();
}

// Measurements of a GPU set that one slow member explains.
bool measured_per_set(const core::Finding& f) {
  return f.code == code::busbw_below_expected || f.code == code::bandwidth_below_expected;
}

int rank(core::Severity s) { return s == core::Severity::fail ? 2 : s == core::Severity::warn ? 1 : 0; }

// The message with every run of digits replaced by '#': "all_reduce on # ranks (GPUs #,#)".
std::string shape_of(const std::string& message) {
  std::string out;
  for (size_t i = 0; i < message.size(); ++i) {
    if (std::isdigit(static_cast<unsigned char>(message[i])) != 0) {
      while (i + 1 < message.size() && (std::isdigit(static_cast<unsigned char>(message[i + 1])) != 0 || message[i + 1] == '.')) ++i;
      out += '#';
    } else {
      out += message[i];
    }
  }
  return out;
}

// "all_reduce on 2 ranks (gpuvet accept, GPUs 0,3): ..." -> "all_reduce on 2 ranks".
std::string what_of(const std::string& message) {
  const auto end = std::min(message.find(" ("), message.find(": "));
  return message.substr(0, std::min(end, message.size()));
}

std::string gpus_text(const std::vector<int>& gpus) { return fmt::format("{}", fmt::join(gpus, ",")); }

}  // namespace

std::vector<int> gpu_set_of(const core::Finding& f) {
  if (!f.gpus.empty()) return f.gpus;
  const auto at = f.message.find("GPUs ");
  if (at == std::string::npos) return {};
  std::vector<int> out;
  size_t i = at + 5;
  while (i < f.message.size() && std::isdigit(static_cast<unsigned char>(f.message[i])) != 0) {
    int from = 0;
    while (i < f.message.size() && std::isdigit(static_cast<unsigned char>(f.message[i])) != 0) from = from * 10 + (f.message[i++] - '0');
    int to = from;
    if (i + 1 < f.message.size() && f.message[i] == '-' && std::isdigit(static_cast<unsigned char>(f.message[i + 1])) != 0) {
      to = 0;
      ++i;
      while (i < f.message.size() && std::isdigit(static_cast<unsigned char>(f.message[i])) != 0) to = to * 10 + (f.message[i++] - '0');
    }
    for (int g = from; g <= to && g - from < 1024; ++g) out.push_back(g);
    // "0,3", "0, 3": another number follows a comma; anything else ends the list.
    if (i < f.message.size() && f.message[i] == ',') {
      size_t j = i + 1;
      while (j < f.message.size() && f.message[j] == ' ') ++j;
      if (j < f.message.size() && std::isdigit(static_cast<unsigned char>(f.message[j])) != 0) {
        i = j;
        continue;
      }
    }
    break;
  }
  return out;
}

std::vector<FoldedFinding> fold_findings(const std::vector<core::Finding>& findings) {
  std::vector<FoldedFinding> out;
  std::vector<int> slot(findings.size(), -1);  // where each finding went in `out`
  // Culprits keep their place; a per-set measurement whose set holds a culprit goes under it.
  std::vector<size_t> culprits;
  for (size_t i = 0; i < findings.size(); ++i) {
    if (names_culprit(findings[i])) culprits.push_back(i);
  }
  std::vector<int> explained_by(findings.size(), -1);
  for (size_t i = 0; i < findings.size(); ++i) {
    if (!measured_per_set(findings[i])) continue;
    const auto set = gpu_set_of(findings[i]);
    if (set.size() < 2) continue;
    for (size_t c : culprits) {
      const auto& culprit = findings[c];
      if (rank(culprit.severity) < rank(findings[i].severity)) continue;
      const bool holds = std::all_of(culprit.gpus.begin(), culprit.gpus.end(),
                                     [&](int g) { return std::find(set.begin(), set.end(), g) != set.end(); });
      if (holds) {
        explained_by[i] = static_cast<int>(c);
        break;
      }
    }
  }
  // The rest: one entry per (code, severity, message shape).
  std::map<std::string, int> by_shape;
  for (size_t i = 0; i < findings.size(); ++i) {
    const auto& f = findings[i];
    if (explained_by[i] >= 0) continue;
    const std::string key = f.code + '\x1f' + std::string(core::to_string(f.severity)) + '\x1f' + shape_of(f.message);
    if (!names_culprit(f)) {
      if (const auto it = by_shape.find(key); it != by_shape.end()) {
        out[static_cast<size_t>(it->second)].folded.push_back(f);
        continue;
      }
      by_shape[key] = static_cast<int>(out.size());
    }
    slot[i] = static_cast<int>(out.size());
    out.push_back({f, {}, {}});
  }
  for (auto& entry : out) {
    if (entry.folded.empty()) continue;
    std::vector<std::string> sets;
    for (const auto& f : entry.folded) {
      const auto set = gpu_set_of(f);
      sets.push_back(set.empty() ? what_of(f.message) : gpus_text(set));
    }
    const size_t shown = std::min<size_t>(sets.size(), 8);
    entry.summary = fmt::format("and {} more like it{}{}{}", entry.folded.size(), shown > 0 ? " (" : "",
                                fmt::join(sets.begin(), sets.begin() + static_cast<long>(shown), "; "),
                                shown == 0 ? "" : shown < sets.size() ? "; ...)" : ")");
  }
  // The measurements each culprit explains, counted per kind of run.
  for (size_t c : culprits) {
    std::vector<std::pair<std::string, int>> kinds;
    std::vector<core::Finding> folded;
    for (size_t i = 0; i < findings.size(); ++i) {
      if (explained_by[i] != static_cast<int>(c)) continue;
      folded.push_back(findings[i]);
      const std::string what = findings[i].code + ": " + what_of(findings[i].message);
      auto it = std::find_if(kinds.begin(), kinds.end(), [&](const auto& k) { return k.first == what; });
      if (it == kinds.end()) kinds.emplace_back(what, 1);
      else ++it->second;
    }
    if (folded.empty()) continue;
    std::vector<std::string> parts;
    for (const auto& [what, n] : kinds) parts.push_back(fmt::format("{} ({} set{})", what, n, n == 1 ? "" : "s"));
    auto& entry = out[static_cast<size_t>(slot[c])];
    entry.folded = folded;
    entry.summary = fmt::format("explains {} more finding{} on GPU sets that include GPU {}: {}", folded.size(),
                                folded.size() == 1 ? "" : "s", gpus_text(findings[c].gpus), fmt::join(parts, "; "));
  }
  return out;
}

}  // namespace gpuvet::report
