// The GPU or link common to the slow GPU sets of a scaling run: every pair (and 4-GPU subset) is
// compared with the upper quartile of the sets joined by the same kind of path; a GPU whose sets are
// nearly all slow is a straggler, a slow pair no straggler explains is a slow link.
#include "analysis/collective_attribution.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "analysis/finding_codes.hpp"
#include "analysis/rule_support.hpp"
#include "analysis/scaling_paths.hpp"
#include "core/statistics.hpp"

namespace gpuvet::analysis {
namespace {

constexpr double kSlowRatio = 0.90;       // a set below 90 % of its comparable reference is slow
constexpr double kFailRatio = 0.80;       // below 80 %: fails the machine (as busbw_below_expected)
constexpr double kStragglerShare = 0.75;  // a straggler's sets are (nearly) all slow
constexpr double kCommonShare = 0.90;     // a link shared by (nearly) all unexplained slow subsets
constexpr std::size_t kMinComparable = 3; // sets needed to form a reference

struct Judged {
  const SubsetBusbw* set = nullptr;
  double busbw = 0;
  double reference = 0;  // upper-quartile busbw of the sets with the same path class
  std::string path;
  bool slow = false;
};

// The reference a set is compared with: the upper quartile of its group (linear interpolation).
// Half of all 4-GPU subsets hold any one GPU, so a straggler drags the median down with it; the
// upper quartile stays with the healthy sets as long as fewer than a quarter of the sets are
// slow for one reason, or half for a straggler in 4-GPU subsets (35 of 70).
double upper_quartile(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const double pos = 0.75 * static_cast<double>(v.size() - 1);
  const auto lo = static_cast<std::size_t>(pos);
  const std::size_t hi = std::min(lo + 1, v.size() - 1);
  return v[lo] + (v[hi] - v[lo]) * (pos - static_cast<double>(lo));
}

std::vector<Judged> judge_sets(const std::vector<SubsetBusbw>& sets, const core::Machine& machine) {
  std::map<std::string, std::vector<const SubsetBusbw*>> groups;
  for (const auto& s : sets) {
    if (s.busbw_gbps) groups[path_key(worst_path(machine, s.gpus))].push_back(&s);
  }
  std::vector<Judged> out;
  for (const auto& [key, members] : groups) {
    if (members.size() < kMinComparable) continue;
    std::vector<double> values;
    for (const auto* m : members) values.push_back(*m->busbw_gbps);
    const double ref = upper_quartile(values);
    for (const auto* m : members) out.push_back({m, *m->busbw_gbps, ref, key, *m->busbw_gbps < kSlowRatio * ref});
  }
  return out;
}

struct GpuShare {
  std::vector<double> busbw;      // of the sets that include the GPU
  std::vector<double> reference;  // their comparable references
  std::size_t slow = 0;
};

std::map<int, GpuShare> shares(const std::vector<Judged>& judged) {
  std::map<int, GpuShare> out;
  for (const auto& j : judged) {
    for (int g : j.set->gpus) {
      auto& s = out[g];
      s.busbw.push_back(j.busbw);
      s.reference.push_back(j.reference);
      s.slow += j.slow ? 1 : 0;
    }
  }
  return out;
}

std::set<int> stragglers_in(const std::map<int, GpuShare>& by_gpu) {
  std::set<int> out;
  for (const auto& [g, s] : by_gpu) {
    const auto n = s.busbw.size();
    if (n >= 2 && s.slow >= 2 && static_cast<double>(s.slow) >= kStragglerShare * static_cast<double>(n)) out.insert(g);
  }
  return out;
}

core::Severity severity_for(double ratio) { return ratio < kFailRatio ? core::Severity::fail : core::Severity::warn; }

void add_straggler(int g, const ScalingObservation& obs, const std::map<int, GpuShare>& pair_shares,
                   const std::map<int, GpuShare>& subset_shares, std::vector<core::Finding>& out) {
  std::vector<std::pair<std::string, std::string>> evidence;
  double ratio = 1;
  std::string headline;
  const std::pair<const char*, const std::map<int, GpuShare>*> tables[] = {{"pairs", &pair_shares},
                                                                           {"4-GPU subsets", &subset_shares}};
  for (const auto& [what, table] : tables) {
    const auto it = table->find(g);
    if (it == table->end()) continue;
    const double mine = *core::median(it->second.busbw);
    const double ref = *core::median(it->second.reference);
    const double r = mine / ref;
    evidence.emplace_back(fmt::format("{} with GPU {} (median busbw)", what, g), format_gbps(mine) + " GB/s");
    evidence.emplace_back(fmt::format("comparable {} (upper quartile busbw)", what), format_gbps(ref) + " GB/s");
    evidence.emplace_back(fmt::format("slow {} with GPU {}", what, g),
                          fmt::format("{} of {}", it->second.slow, it->second.busbw.size()));
    if (headline.empty()) {
      ratio = r;
      headline = fmt::format("{} busbw {} GB/s (median of its {} {}) vs {} GB/s for comparable {} ({:.0f} %)", obs.op,
                             format_gbps(mine), it->second.busbw.size(), what, format_gbps(ref), what, r * 100);
    }
  }
  auto f = make_finding(code::straggler_gpu, severity_for(ratio), {g},
                        fmt::format("GPU {} slows every collective it joins: {}", g, headline));
  f.evidence = std::move(evidence);
  out.push_back(std::move(f));
}

void add_slow_link(int a, int b, double busbw, double ref, const std::string& path, const std::string& basis,
                   const ScalingObservation& obs, std::vector<core::Finding>& out) {
  const double ratio = busbw / ref;
  auto f = make_finding(code::slow_link, severity_for(ratio), {a, b},
                        fmt::format("the path between GPU {} and GPU {} is slow: {} busbw {} GB/s vs {} GB/s for "
                                    "comparable {} ({:.0f} %)",
                                    a, b, obs.op, format_gbps(busbw), format_gbps(ref), basis, ratio * 100));
  f.evidence = {{"measured busbw", format_gbps(busbw) + " GB/s"},
                {"comparable busbw (upper quartile)", format_gbps(ref) + " GB/s"},
                {"path", path},
                {"basis", basis}};
  out.push_back(std::move(f));
}

// The one pair common to (nearly) all slow subsets that no straggler explains; nullopt when
// none, or when the slow subsets are too few to single one out.
std::optional<std::pair<int, int>> common_pair(const std::vector<const Judged*>& slow) {
  if (slow.size() < 2) return std::nullopt;
  std::map<std::pair<int, int>, std::size_t> counts;
  for (const auto* j : slow) {
    const auto& g = j->set->gpus;
    for (std::size_t x = 0; x < g.size(); ++x)
      for (std::size_t y = x + 1; y < g.size(); ++y) ++counts[{std::min(g[x], g[y]), std::max(g[x], g[y])}];
  }
  std::optional<std::pair<int, int>> found;
  for (const auto& [pair, n] : counts) {
    if (static_cast<double>(n) < kCommonShare * static_cast<double>(slow.size())) continue;
    if (found) return std::nullopt;  // ambiguous
    found = pair;
  }
  return found;
}

}  // namespace

std::vector<core::Finding> attribute_scaling(const ScalingObservation& obs, const core::Machine& machine) {
  std::vector<core::Finding> out;
  const auto pairs = judge_sets(obs.pairs, machine);
  const auto subsets = judge_sets(obs.subsets, machine);
  const auto pair_shares = shares(pairs);
  const auto subset_shares = shares(subsets);
  std::set<int> stragglers = stragglers_in(pair_shares);
  for (int g : stragglers_in(subset_shares)) stragglers.insert(g);
  for (int g : stragglers) add_straggler(g, obs, pair_shares, subset_shares, out);

  std::set<std::pair<int, int>> links;
  for (const auto& j : pairs) {
    const int a = j.set->gpus.front();
    const int b = j.set->gpus.back();
    if (!j.slow || stragglers.count(a) || stragglers.count(b)) continue;
    links.insert({std::min(a, b), std::max(a, b)});
    add_slow_link(std::min(a, b), std::max(a, b), j.busbw, j.reference, j.path, j.path + " pairs", obs, out);
  }
  std::vector<const Judged*> unexplained;
  for (const auto& j : subsets) {
    const bool explained = std::any_of(j.set->gpus.begin(), j.set->gpus.end(), [&](int g) { return stragglers.count(g) > 0; });
    if (j.slow && !explained) unexplained.push_back(&j);
  }
  if (const auto pair = common_pair(unexplained); pair && !links.count(*pair)) {
    std::vector<double> busbw;
    std::vector<double> refs;
    for (const auto* j : unexplained) {
      busbw.push_back(j->busbw);
      refs.push_back(j->reference);
    }
    add_slow_link(pair->first, pair->second, *core::median(busbw), *core::median(refs), unexplained.front()->path,
                  fmt::format("4-GPU subsets ({} slow subsets all include both)", unexplained.size()), obs, out);
  }
  if (auto f = judge_scaling(obs, machine)) out.push_back(std::move(*f));
  return out;
}

std::vector<core::Finding> judge_hangs(const std::vector<HangObservation>& hangs) {
  std::vector<core::Finding> out;
  for (const auto& h : hangs) {
    auto f = make_finding(code::collective_hung, core::Severity::fail, h.pending_gpus,
                          fmt::format("{} on {} did not complete within {:g} s at {} B; {} had not finished", h.op,
                                      describe_gpus(h.gpus), h.timeout_s, h.size_bytes,
                                      h.pending_gpus.empty() ? std::string("no GPU reported progress")
                                                             : describe_gpus(h.pending_gpus)));
    f.evidence = {{"size", std::to_string(h.size_bytes) + " B"}, {"detail", h.detail}};
    out.push_back(std::move(f));
  }
  return out;
}

}  // namespace gpuvet::analysis
