// Inventory findings: GPUs missing (attached vs listed vs expected) and GPUs that are not all
// alike (model, firmware, settings), naming the odd ones.
#include <algorithm>
#include <functional>
#include <map>
#include <optional>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "analysis/finding_codes.hpp"
#include "analysis/rules.hpp"

namespace gpuvet::analysis {
namespace {

using core::Gpu;
using core::Severity;

// What an input shows of the machine's GPUs: the GPUs it shows (`shown`), and the ones it says or
// shows exist without showing them (`absent`): a count above the GPUs listed, gaps in the indices,
// GPUs named without their part (Gpu::unseen: a topo -m header column without its row). One
// reading for the gpu_missing finding and for the unverified line (gpus_not_seen).
struct GpuCoverage {
  enum class Kind { whole, trimmed, short_of_attached, index_gaps };
  Kind kind = Kind::whole;
  bool trimmed = false;  // a note says the input was trimmed or cut, or a GPU is named but unseen
  int shown = 0;
  int highest = -1;  // the highest index the input names
  std::vector<int> absent;
};

GpuCoverage coverage_of(const core::Machine& m) {
  GpuCoverage c;
  c.trimmed = input_trimmed(m);
  for (const auto& g : m.gpus) {
    c.highest = std::max(c.highest, g.index);
    if (g.unseen) c.trimmed = true;
    else ++c.shown;
  }
  const bool trimmed = c.trimmed;
  // Gaps below the highest listed index are known GPUs; past it, a driver that renumbers (NVML
  // does) gives the missing card's index to a present one, so only a trimmed input names them.
  const int upto = m.attached_gpus && trimmed ? std::max(*m.attached_gpus, c.highest + 1) : c.highest + 1;
  for (int i = 0; i < upto; ++i) {
    const int at = core::position_of_gpu(m, i);
    if (at < 0 ? i < c.highest || trimmed : m.gpus[static_cast<size_t>(at)].unseen) c.absent.push_back(i);
  }
  if (trimmed && !m.gpus.empty() && (!m.attached_gpus || *m.attached_gpus > c.shown)) {
    c.kind = GpuCoverage::Kind::trimmed;
  } else if (m.attached_gpus && *m.attached_gpus > c.shown) {
    c.kind = GpuCoverage::Kind::short_of_attached;
  } else if (!m.attached_gpus && !c.absent.empty()) {
    c.kind = GpuCoverage::Kind::index_gaps;
  }
  return c;
}

// The GPUs an input that says it was trimmed or cut does not show: one warning for every such
// input (a trimmed -q -x with its attached count, an author's "..." elision, a paste cut short).
core::Finding trimmed_input(const core::Machine& m, const GpuCoverage& c) {
  std::string shown;
  if (m.attached_gpus) {
    shown = fmt::format("The input shows {} of {} attached GPUs", c.shown, *m.attached_gpus);
  } else if (!c.absent.empty()) {
    shown = fmt::format("The input lists {} GPUs but their indices run to {} ({} not shown: at least {} GPUs)", c.shown,
                        c.highest, describe_gpus(c.absent), c.highest + 1);
  } else {
    shown = fmt::format("The input lists {} GPU{}; more may be attached", c.shown, c.shown == 1 ? "" : "s");
  }
  auto f = make_finding(
      code::gpu_missing, Severity::warn, c.absent,
      fmt::format("{}; it was trimmed ({}), so the missing ones cannot be judged", shown, fmt::join(trimming_notes(m), "; ")));
  f.next_step = "Give the complete nvidia-smi -q output (or run gpuvet on the machine).";
  if (m.attached_gpus) f.evidence.emplace_back("attached_gpus", std::to_string(*m.attached_gpus));
  f.evidence.emplace_back("reported_gpus", std::to_string(c.shown));
  if (!m.attached_gpus && !c.absent.empty()) f.evidence.emplace_back("highest_index", std::to_string(c.highest));
  f.evidence.emplace_back("notes", fmt::format("{}", fmt::join(m.notes, "; ")));
  return f;
}

std::vector<core::Finding> check_missing(const RuleContext& ctx) {
  std::vector<core::Finding> out;
  const core::Machine& m = ctx.machine;
  const auto c = coverage_of(m);
  if (c.kind == GpuCoverage::Kind::trimmed) {
    out.push_back(trimmed_input(m, c));
  } else if (c.kind == GpuCoverage::Kind::short_of_attached) {
    auto f = make_finding(code::gpu_missing, Severity::fail, c.absent,
                          fmt::format("{} GPUs are attached but only {} are reported", *m.attached_gpus, c.shown));
    f.evidence = {{"attached_gpus", std::to_string(*m.attached_gpus)}, {"reported_gpus", std::to_string(c.shown)}};
    // The driver renumbers the GPUs it can see, so the missing one is named by the notes
    // (its PCI bus id, from sysfs or the simulator), never by an index a present GPU now holds.
    if (!m.notes.empty()) f.evidence.emplace_back("notes", fmt::format("{}", fmt::join(m.notes, "; ")));
    out.push_back(std::move(f));
  } else if (c.kind == GpuCoverage::Kind::index_gaps) {
    // No attached count, but gaps in the indices show GPUs the input does not list (nvidia-smi
    // -i): the input is partial, which we can say but not judge.
    auto f = make_finding(code::gpu_missing, Severity::warn, c.absent,
                          fmt::format("The input lists {} GPUs but their indices run to {}: {} not shown", c.shown, c.highest,
                                      describe_gpus(c.absent)));
    f.next_step = "Give the complete output for every GPU (or run gpuvet on the machine).";
    f.evidence = {{"reported_gpus", std::to_string(c.shown)}, {"highest_index", std::to_string(c.highest)}};
    out.push_back(std::move(f));
  }
  if (ctx.expect.gpu_count) {
    // Compare with what is attached when the source says so; a trimmed input without that count
    // cannot be judged.
    std::optional<int> have;
    if (m.attached_gpus) have = *m.attached_gpus;
    else if (!c.trimmed) have = c.shown;
    if (have && *have != *ctx.expect.gpu_count) {
      auto f = make_finding(code::gpu_missing, Severity::fail, {},
                            fmt::format("Expected {} GPUs, found {}", *ctx.expect.gpu_count, *have));
      f.evidence = {{"expected_gpus", std::to_string(*ctx.expect.gpu_count)}, {"found_gpus", std::to_string(*have)}};
      out.push_back(std::move(f));
    }
  }
  return out;
}

struct Attribute {
  std::string key;    // evidence key
  std::string words;  // for the message
  std::function<std::optional<std::string>(const Gpu&)> value;
  bool batch = false;  // part of the batch identity: differing fails under --expect-same-batch
};

template <class T, class F>
std::optional<std::string> shown(const core::Reading<T>& r, F format) {
  if (!r) return std::nullopt;
  return format(*r);
}

std::vector<Attribute> attributes() {
  auto str = [](const std::string& s) { return s; };
  auto on_off = [](bool b) { return std::string(b ? "enabled" : "disabled"); };
  return {
      {"vbios", "VBIOS", [=](const Gpu& g) { return shown(g.vbios, str); }, true},
      {"board_part_number", "board part number", [=](const Gpu& g) { return shown(g.board_part_number, str); }, true},
      {"memory_total_mib", "memory size",
       [](const Gpu& g) { return shown(g.memory_total_mib, [](std::uint64_t v) { return fmt::format("{} MiB", v); }); }, true},
      {"power_limit_w", "power limit",
       [](const Gpu& g) { return shown(g.power_limit_w, [](double v) { return fmt::format("{:.0f} W", v); }); }},
      {"max_sm_clock_mhz", "max SM clock",
       [](const Gpu& g) { return shown(g.max_sm_clock_mhz, [](int v) { return fmt::format("{} MHz", v); }); }},
      {"max_mem_clock_mhz", "max memory clock",
       [](const Gpu& g) { return shown(g.max_mem_clock_mhz, [](int v) { return fmt::format("{} MHz", v); }); }},
      {"ecc_enabled", "ECC mode", [=](const Gpu& g) { return shown(g.ecc_enabled, on_off); }},
      {"mig_enabled", "MIG mode", [=](const Gpu& g) { return shown(g.mig_enabled, on_off); }},
  };
}

// GPUs grouped by value, largest group first (ties: the group holding the lowest index first).
using Groups = std::vector<std::pair<std::string, std::vector<int>>>;

Groups group_by_value(const std::vector<std::pair<int, std::string>>& values) {
  Groups groups;
  for (const auto& [index, value] : values) {
    auto it = std::find_if(groups.begin(), groups.end(), [&wanted = value](const auto& g) { return g.first == wanted; });
    if (it == groups.end()) groups.push_back({value, {index}});
    else it->second.push_back(index);
  }
  std::stable_sort(groups.begin(), groups.end(), [](const auto& a, const auto& b) { return a.second.size() > b.second.size(); });
  return groups;
}

// One finding for an attribute that differs: the minority is named, or every group on a tie.
core::Finding differing(std::string_view key, std::string_view words, const Groups& groups, Severity severity) {
  const bool tie = groups[0].second.size() == groups[1].second.size();
  std::vector<int> named;
  std::vector<std::string> parts;
  for (size_t i = tie ? 0 : 1; i < groups.size(); ++i) {
    named.insert(named.end(), groups[i].second.begin(), groups[i].second.end());
    parts.push_back(fmt::format("{} on {}", groups[i].first, describe_gpus(groups[i].second)));
  }
  std::string message;
  if (tie) {
    message = fmt::format("GPUs differ in {}: {}", words, fmt::join(parts, "; "));
  } else {
    message = fmt::format("{} {} from the rest: {} (the other {} have {})", describe_gpus(named),
                          named.size() == 1 ? "differs in " + std::string(words) : "differ in " + std::string(words),
                          fmt::join(parts, "; "), groups[0].second.size(), groups[0].first);
  }
  auto f = make_finding(code::mixed_inventory, severity, named, message);
  for (const auto& [value, gpus] : groups) f.evidence.emplace_back(fmt::format("{} {}", key, describe_gpus(gpus)), value);
  if (!tie) f.evidence.emplace_back(fmt::format("expected {}", key), groups[0].first);
  return f;
}

std::vector<core::Finding> check_mixed(const RuleContext& ctx) {
  std::vector<core::Finding> out;
  const auto& gpus = ctx.machine.gpus;
  std::vector<std::pair<int, std::string>> names;
  for (const auto& g : gpus) {
    if (g.name) names.emplace_back(g.index, *g.name);
  }
  const Groups models = group_by_value(names);
  if (models.size() >= 2) {
    auto f = differing("model", "model", models, Severity::fail);
    f.next_step =
        "Ask the provider for the GPU model in the contract on every slot; GPUs of different models "
        "run collectives at the pace of the slowest and may not share a fabric.";
    out.push_back(std::move(f));
  }

  // Settings and firmware are compared within one model; GPUs of unknown name join the only
  // model when there is one.
  std::map<std::string, std::vector<const Gpu*>> by_model;
  for (const auto& g : gpus) {
    const std::string key = g.name ? *g.name : (models.size() == 1 ? models[0].first : std::string());
    by_model[key].push_back(&g);
  }
  for (const auto& attr : attributes()) {
    for (const auto& [model, members] : by_model) {
      std::vector<std::pair<int, std::string>> values;
      for (const Gpu* g : members) {
        if (auto v = attr.value(*g)) values.emplace_back(g->index, *v);
      }
      const Groups groups = group_by_value(values);
      if (groups.size() < 2) continue;
      // Without a stated same-batch promise a firmware or part difference is a warning: it may be
      // harmless. With one it breaks what was sold.
      const bool promised = attr.batch && ctx.expect.same_batch;
      auto f = differing(attr.key, attr.words, groups, promised ? Severity::fail : Severity::warn);
      if (promised) {
        f.message += " (one batch was promised: --expect-same-batch)";
        f.evidence.emplace_back("expected", "one batch (--expect-same-batch)");
      }
      out.push_back(std::move(f));
    }
  }
  return out;
}

}  // namespace

std::optional<std::string> gpus_not_seen(const RuleContext& ctx) {
  const core::Machine& m = ctx.machine;
  const auto c = coverage_of(m);
  if (c.kind != GpuCoverage::Kind::trimmed && c.kind != GpuCoverage::Kind::index_gaps) return std::nullopt;
  const std::string which = c.absent.empty() ? fmt::format("any GPU after GPU {}", c.highest) : describe_gpus(c.absent);
  const std::string shown = m.attached_gpus ? fmt::format("{} of {} attached GPUs", c.shown, *m.attached_gpus)
                                            : fmt::format("{} GPU{}", c.shown, c.shown == 1 ? "" : "s");
  return fmt::format(
      "{} not seen: the input shows {} (gpu_missing), so a verdict on it rests on part of the machine; "
      "give the complete output for every GPU",
      which, shown);
}

std::vector<core::Finding> check_inventory(const RuleContext& ctx) {
  auto out = check_missing(ctx);
  auto mixed = check_mixed(ctx);
  out.insert(out.end(), std::make_move_iterator(mixed.begin()), std::make_move_iterator(mixed.end()));
  return out;
}

}  // namespace gpuvet::analysis
