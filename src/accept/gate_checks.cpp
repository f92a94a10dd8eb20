// The quick gates: each clause is decided by reading the machine picture directly (so an
// unknown reading makes it not_run, never pass) and by the judge's findings for the same promise
// (so the report names the finding codes that decided it).
#include "accept/gate_checks.hpp"

#include "accept/clauses.hpp"
#include "core/finding_codes.hpp"

#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace gpuvet::accept {

namespace {

namespace code = core::code;

void set_fail(ClauseResult& c, std::string reason) {
  if (c.status == ClauseStatus::fail) {
    c.reason += "; " + reason;
  } else {
    c.status = ClauseStatus::fail;
    c.reason = std::move(reason);
  }
}

// Fails `c` with every finding of `codes` at `min` severity or worse; lists milder ones too.
void apply_findings(ClauseResult& c, const core::Assessment& a, std::initializer_list<std::string_view> codes,
                    core::Severity min) {
  for (const auto& f : a.findings) {
    if (std::find(codes.begin(), codes.end(), f.code) == codes.end()) continue;
    if (std::find(c.findings.begin(), c.findings.end(), f.code) == c.findings.end()) c.findings.push_back(f.code);
    if (static_cast<int>(f.severity) >= static_cast<int>(min)) set_fail(c, f.message);
  }
}

// Pass unless something failed or a reading was missing (then not_run with `missing`).
void conclude(ClauseResult& c, const std::string& missing) {
  if (c.status == ClauseStatus::fail) return;
  if (!missing.empty()) {
    c.status = ClauseStatus::not_run;
    c.reason = missing;
    return;
  }
  c.status = ClauseStatus::pass;
  c.reason.clear();
}

std::string counted(const std::map<std::string, std::vector<int>>& groups) {
  std::vector<std::string> parts;
  for (const auto& [label, gpus] : groups) parts.push_back(fmt::format("{}x {}", gpus.size(), label));
  return fmt::format("{}", fmt::join(parts, " + "));
}

void gpu_count(ClauseResult& c, const StageContext& ctx) {
  const int want = ctx.spec.gpu_count->value;
  const int seen = static_cast<int>(ctx.machine.gpus.size());
  c.measured = seen;
  c.target = want;
  c.observed = fmt::format("{} GPUs", seen);
  if (ctx.machine.attached_gpus && *ctx.machine.attached_gpus != seen) {
    c.observed += fmt::format(" usable of {} attached", *ctx.machine.attached_gpus);
  }
  if (seen != want) set_fail(c, fmt::format("{} GPUs found, {} promised", seen, want));
  apply_findings(c, ctx.assessment, {code::gpu_missing}, core::Severity::warn);
  conclude(c, {});
}

void gpu_model(ClauseResult& c, const StageContext& ctx) {
  const auto* want = ctx.catalog.by_id(ctx.spec.gpu_model->value);
  std::map<std::string, std::vector<int>> groups;
  std::string missing;
  int matching = 0;
  for (const auto& gpu : ctx.machine.gpus) {
    if (!gpu.name) {
      missing = fmt::format("GPU {} name not reported ({})", gpu.index, gpu.name.reason());
      continue;
    }
    const auto* model = ctx.catalog.match(*gpu.name);
    groups[model != nullptr ? model->display_name : *gpu.name].push_back(gpu.index);
    if (model != nullptr && want != nullptr && model->id == want->id) ++matching;
  }
  c.observed = counted(groups);
  c.measured = matching;
  c.target = static_cast<double>(ctx.machine.gpus.size());
  for (const auto& [label, gpus] : groups) {
    if (want == nullptr || label != want->display_name) {
      set_fail(c, fmt::format("GPU {} {} {}, not {}", fmt::join(gpus, ", "), gpus.size() == 1 ? "is" : "are", label,
                              want != nullptr ? want->display_name : ctx.spec.gpu_model->value));
    }
  }
  if (ctx.machine.gpus.empty()) set_fail(c, "no GPU found");
  apply_findings(c, ctx.assessment, {code::mixed_inventory}, core::Severity::fail);
  conclude(c, missing);
}

// The value of one same-batch attribute on one GPU, as text; nullopt when not reported.
std::optional<std::string> attribute(const core::Gpu& gpu, const std::string& name, std::string& why) {
  auto text = [&](const auto& reading) -> std::optional<std::string> {
    if (!reading) {
      why = reading.reason();
      return std::nullopt;
    }
    return fmt::format("{}", *reading);
  };
  if (name == "model") return text(gpu.name);
  if (name == "vbios") return text(gpu.vbios);
  if (name == "board_part_number") return text(gpu.board_part_number);
  if (name == "memory") return text(gpu.memory_total_mib);
  if (name == "power_limit") return text(gpu.power_limit_w);
  if (name == "ecc_mode") return text(gpu.ecc_enabled);
  if (name == "mig_mode") return text(gpu.mig_enabled);
  if (name == "inforom") return text(gpu.inforom_image);
  if (name == "max_clocks") {
    auto sm = text(gpu.max_sm_clock_mhz);
    auto mem = text(gpu.max_mem_clock_mhz);
    if (!sm || !mem) return std::nullopt;
    return *sm + "/" + *mem;
  }
  why = "unknown attribute";
  return std::nullopt;
}

void same_batch(ClauseResult& c, const StageContext& ctx) {
  std::vector<std::string> missing;
  std::vector<std::string> equal;
  std::vector<std::string> unknown;
  for (const auto& attr : ctx.spec.same_batch->value) {
    std::map<std::string, std::vector<int>> values;
    std::string why;
    bool known = true;
    for (const auto& gpu : ctx.machine.gpus) {
      auto v = attribute(gpu, attr, why);
      if (!v) {
        missing.push_back(fmt::format("{} of GPU {} not reported ({})", attr, gpu.index, why));
        unknown.push_back(attr);
        known = false;
        break;
      }
      values[*v].push_back(gpu.index);
    }
    if (!known) continue;
    if (values.size() <= 1) {
      equal.push_back(attr);
      continue;
    }
    std::vector<std::string> parts;
    for (const auto& [v, gpus] : values) parts.push_back(fmt::format("{} on GPU {}", v, fmt::join(gpus, ",")));
    set_fail(c, fmt::format("{} differs: {}", attr, fmt::join(parts, "; ")));
  }
  c.observed = equal.empty() ? "n/a" : fmt::format("equal: {}", fmt::join(equal, ", "));
  if (!unknown.empty()) c.observed += fmt::format("; not reported: {}", fmt::join(unknown, ", "));
  apply_findings(c, ctx.assessment, {code::mixed_inventory}, core::Severity::warn);
  conclude(c, missing.empty() ? std::string() : fmt::format("{}", fmt::join(missing, "; ")));
}

// Only `workload: train` makes this clause (clauses.cpp).
void workload(ClauseResult& c, const StageContext& ctx) {
  std::map<std::string, std::vector<int>> classes;
  std::string missing;
  for (const auto& gpu : ctx.machine.gpus) {
    const auto* model = gpu.name ? ctx.catalog.match(*gpu.name) : nullptr;
    if (model == nullptr) {
      missing = fmt::format("GPU {} model not in the catalogue, card class unknown", gpu.index);
      continue;
    }
    classes[std::string(core::to_string(model->card_class))].push_back(gpu.index);
  }
  c.observed = counted(classes) + " cards";
  for (const auto& [cls, gpus] : classes) {
    if (cls != "training") set_fail(c, fmt::format("GPU {}: {} cards, rented for training", fmt::join(gpus, ","), cls));
  }
  apply_findings(c, ctx.assessment, {code::card_class_mismatch}, core::Severity::warn);
  conclude(c, missing);
}

std::string_view evidence_of(const core::Finding& f, std::string_view key) {
  for (const auto& [k, v] : f.evidence) {
    if (k == key) return v;
  }
  return {};
}

// What the failing NVLink findings saw, short enough for the Observed column: "GPU 2: 17 of 18
// NVLink links up" when the finding counted the ports, else the finding's own sentence.
std::string link_faults_seen(const core::Assessment& a) {
  std::vector<std::string> seen;
  for (const auto& f : a.findings) {
    if (f.severity != core::Severity::fail || (f.code != code::nvlink_down && f.code != code::fabric_not_ready)) continue;
    const auto active = evidence_of(f, "active links");
    const auto expected = evidence_of(f, "expected links");
    const auto expected_count = expected.substr(0, expected.find(' '));
    const bool counted = f.code == code::nvlink_down && f.gpus.size() == 1 && !active.empty() &&
                         !expected_count.empty() &&
                         std::all_of(expected_count.begin(), expected_count.end(), [](char ch) { return ch >= '0' && ch <= '9'; });
    seen.push_back(counted ? fmt::format("GPU {}: {} of {} NVLink links up", f.gpus.front(), active, expected_count)
                           : f.message);
  }
  return fmt::format("{}", fmt::join(seen, "; "));
}

void interconnect(ClauseResult& c, const StageContext& ctx) {
  const auto& claim = ctx.spec.interconnect->value;
  const auto& ic = ctx.assessment.interconnect;
  c.observed = std::string(core::to_string(ic.cls));
  std::string missing;
  if (ic.cls == core::InterconnectClass::unknown) {
    missing = "interconnect class could not be determined: " + ic.reasoning;
  } else if (ic.inferred) {
    missing = "interconnect only inferred, not observed: " + ic.reasoning;
  } else {
    const bool mesh = ic.cls == core::InterconnectClass::nvswitch_full_mesh ||
                      ic.cls == core::InterconnectClass::nvlink_direct_full_mesh;
    if (!(ic.cls == claim.cls || (claim.any_nvlink_mesh && mesh))) {
      set_fail(c, fmt::format("found {} ({})", core::to_string(ic.cls), ic.reasoning));
    }
  }
  apply_findings(c, ctx.assessment, {code::interconnect_not_as_claimed, code::nvlink_down, code::fabric_not_ready}, core::Severity::fail);
  // The class alone reads as the promise when a link of a full mesh is down: say what is missing
  // (the format of interconnect_observed.hpp: the class, a comma, the rest).
  if (const auto faults = link_faults_seen(ctx.assessment); !faults.empty()) c.observed += ", but " + faults;
  conclude(c, missing);
}

void pcie(ClauseResult& c, const StageContext& ctx) {
  std::string missing;
  std::map<std::string, std::vector<int>> links;
  std::map<std::string, std::vector<int>> short_of;  // "capable of Gen4 only" -> GPUs
  for (const auto& gpu : ctx.machine.gpus) {
    const auto& p = gpu.pcie;
    // The generation drops at idle to save power, so the link's capability (max) is judged;
    // lanes never downshift at idle, so the current width is.
    if (ctx.spec.pcie_gen && !p.gen_max) missing = fmt::format("GPU {} PCIe generation not reported ({})", gpu.index, p.gen_max.reason());
    if (ctx.spec.pcie_width && !p.width_current) missing = fmt::format("GPU {} PCIe width not reported ({})", gpu.index, p.width_current.reason());
    links[fmt::format("Gen{} x{}", p.gen_max ? std::to_string(*p.gen_max) : "?",
                      p.width_current ? std::to_string(*p.width_current) : "?")].push_back(gpu.index);
    if (ctx.spec.pcie_gen && p.gen_max && *p.gen_max < ctx.spec.pcie_gen->value) {
      short_of[fmt::format("link capable of Gen{} only", *p.gen_max)].push_back(gpu.index);
    }
    if (ctx.spec.pcie_width && p.width_current && *p.width_current < ctx.spec.pcie_width->value) {
      short_of[fmt::format("running x{}", *p.width_current)].push_back(gpu.index);
    }
  }
  for (const auto& [what, gpus] : short_of) set_fail(c, fmt::format("GPU {}: {}", fmt::join(gpus, ","), what));
  c.observed = counted(links);
  apply_findings(c, ctx.assessment, {code::pcie_link_degraded}, core::Severity::fail);
  conclude(c, missing);
}

void nics(ClauseResult& c, const StageContext& ctx) {
  const auto& want = ctx.spec.nics->value;
  c.target = want.count;
  if (!ctx.machine.nics) {
    conclude(c, "network ports not reported (" + ctx.machine.nics.reason() + ")");
    return;
  }
  int good = 0;
  std::vector<std::string> bad;
  for (const auto& nic : *ctx.machine.nics) {
    const bool active = nic.state && *nic.state == "ACTIVE";
    const bool fast = !want.min_rate_gbit_s || (nic.rate_gbit_s && *nic.rate_gbit_s >= *want.min_rate_gbit_s);
    if (active && fast) {
      ++good;
    } else {
      bad.push_back(fmt::format("{} {} {}", nic.name.value_or(nic.label), nic.state.value_or("state n/a"),
                                nic.rate_gbit_s ? fmt::format("{:g} Gb/s", *nic.rate_gbit_s) : "rate n/a"));
    }
  }
  c.measured = good;
  c.observed = fmt::format("{} of {} ports ACTIVE at the rate", good, ctx.machine.nics->size());
  if (good < want.count) {
    set_fail(c, fmt::format("{} good ports, {} promised{}", good, want.count,
                            bad.empty() ? "" : fmt::format(" ({})", fmt::join(bad, "; "))));
  }
  apply_findings(c, ctx.assessment, {code::nic_down}, core::Severity::fail);
  conclude(c, {});
}

void numa(ClauseResult& c, const StageContext& ctx) {
  const auto& want = ctx.spec.numa->value;
  std::map<int, std::vector<int>> nodes;
  std::string missing;
  for (const auto& gpu : ctx.machine.gpus) {
    if (!gpu.numa_node) {
      missing = fmt::format("GPU {} NUMA node not reported ({})", gpu.index, gpu.numa_node.reason());
      continue;
    }
    nodes[*gpu.numa_node].push_back(gpu.index);
  }
  std::vector<std::string> parts;
  for (const auto& [node, gpus] : nodes) parts.push_back(fmt::format("node {}: GPU {}", node, fmt::join(gpus, ",")));
  c.observed = parts.empty() ? "n/a" : fmt::format("{}", fmt::join(parts, "; "));
  if (missing.empty()) {
    if (static_cast<int>(nodes.size()) != want.nodes) {
      set_fail(c, fmt::format("GPUs on {} NUMA nodes, {} promised", nodes.size(), want.nodes));
    }
    for (const auto& [node, gpus] : nodes) {
      if (want.gpus_per_node > 0 && static_cast<int>(gpus.size()) != want.gpus_per_node) {
        set_fail(c, fmt::format("node {} holds {} GPUs, {} promised", node, gpus.size(), want.gpus_per_node));
      }
    }
  }
  apply_findings(c, ctx.assessment, {code::gpu_numa_misplaced}, core::Severity::warn);
  apply_findings(c, ctx.assessment, {code::numa_imbalance}, core::Severity::fail);
  conclude(c, missing);
}

void memory(ClauseResult& c, const StageContext& ctx) {
  std::string missing;
  std::optional<double> smallest;
  for (const auto& gpu : ctx.machine.gpus) {
    if (!gpu.memory_total_mib) {
      missing = fmt::format("GPU {} memory not reported ({})", gpu.index, gpu.memory_total_mib.reason());
      continue;
    }
    const double gib = static_cast<double>(*gpu.memory_total_mib) / 1024.0;
    smallest = smallest ? std::min(*smallest, gib) : gib;
  }
  if (smallest) {
    c.measured = *smallest;
    c.observed = fmt::format("smallest GPU reports {:.1f} GiB", *smallest);
  }
  c.target = ctx.spec.memory_gib->value;
  c.unit = "GiB";
  if (ctx.machine.gpus.empty()) missing = "no GPU reported";
  // The judge allows for the ECC and driver reservation (a healthy 80 GB card reports ~79.6 GiB).
  apply_findings(c, ctx.assessment, {code::memory_below_advertised}, core::Severity::warn);
  conclude(c, missing);
}

void health(ClauseResult& c, const StageContext& ctx) {
  std::string missing;
  for (const auto& gpu : ctx.machine.gpus) {
    const auto& h = gpu.memory_health;
    if (!h.remap_pending && !h.retired_pages_pending && !h.remap_failure) {
      missing = fmt::format("GPU {} reports neither row remapping nor page retirement ({})", gpu.index,
                            h.remap_pending.reason());
    }
  }
  c.observed = "no pending remap, remap failure or retired page reported";
  apply_findings(c, ctx.assessment, {code::row_remap_pending, code::row_remap_failure, code::retired_pages}, core::Severity::warn);
  if (c.status == ClauseStatus::fail) c.observed = "see findings";
  conclude(c, missing);
}

}  // namespace

void decide_gate_clause(ClauseResult& c, const StageContext& ctx) {
  using Fn = void (*)(ClauseResult&, const StageContext&);
  static const std::map<std::string_view, Fn, std::less<>> kDeciders = {
      {clause_id::gpu_count, gpu_count},       {clause_id::gpu_model, gpu_model}, {clause_id::gpu_same_batch, same_batch},
      {clause_id::workload, workload},         {clause_id::interconnect, interconnect}, {clause_id::pcie, pcie},
      {clause_id::nics, nics},                 {clause_id::numa, numa},           {clause_id::gpu_memory, memory},
      {clause_id::gpu_health, health}};
  // Without GPUs only the count (0 of N: fail) and the network ports can be decided; every
  // other promise about GPUs would hold vacuously, so it is not run.
  if (ctx.machine.gpus.empty() && c.id != clause_id::gpu_count && c.id != clause_id::nics) {
    c.status = ClauseStatus::not_run;
    c.reason = "the machine picture lists no GPU";
    return;
  }
  auto it = kDeciders.find(c.id);
  if (it == kDeciders.end()) {
    c.status = ClauseStatus::not_run;
    c.reason = "no check decides this clause";
    return;
  }
  it->second(c, ctx);
}

}  // namespace gpuvet::accept
