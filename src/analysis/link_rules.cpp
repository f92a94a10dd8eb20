// Link health: PCIe links below their capability, and NVLink ports or bonds that are down
// (from nvidia-smi nvlink -s ports and from the topo -m NV# counts).
#include <algorithm>
#include <map>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "analysis/finding_codes.hpp"
#include "analysis/rules.hpp"

namespace gpuvet::analysis {
namespace {

using core::Severity;

// Whether the GPU is known to be working, so that its link should run at full generation.
// Idle GPUs drop to Gen1 to save power, and the "Idle" clocks-event reason is not enough to
// tell: an A40 in P8 at 0 % load reports Idle "Not Active" with SW Power Cap "Active"
// (driver 535, fixture 10x-a40-pcie-nvidia-smi-q.txt). So: P0-P2, or else no active reason at all.
bool known_busy(const core::Gpu& gpu) {
  if (gpu.performance_state) {
    const std::string& ps = *gpu.performance_state;
    return ps == "P0" || ps == "P1" || ps == "P2";
  }
  return gpu.idle && !*gpu.idle && gpu.clocks_event_reasons && gpu.clocks_event_reasons->empty();
}

std::vector<core::Finding> check_pcie(const RuleContext& ctx) {
  std::vector<core::Finding> out;
  for (const auto& gpu : ctx.machine.gpus) {
    const auto& l = gpu.pcie;
    std::vector<std::string> problems;
    auto f = make_finding(code::pcie_link_degraded, Severity::warn, {gpu.index}, "");
    if (l.width_current && l.width_max && *l.width_current < *l.width_max) {
      // Lanes do not downshift at idle: a narrow link is a seating, riser or slot fault and
      // halves (or worse) host<->device bandwidth.
      f.severity = Severity::fail;
      problems.push_back(fmt::format("x{} of x{} lanes", *l.width_current, *l.width_max));
      f.evidence.emplace_back("width_current", fmt::format("x{}", *l.width_current));
      f.evidence.emplace_back("width_max", fmt::format("x{}", *l.width_max));
    }
    if (l.gen_current && l.gen_max && *l.gen_current < *l.gen_max && known_busy(gpu)) {
      problems.push_back(fmt::format("Gen{} of Gen{} while busy", *l.gen_current, *l.gen_max));
      f.evidence.emplace_back("gen_current", fmt::format("Gen{}", *l.gen_current));
      f.evidence.emplace_back("gen_max", fmt::format("Gen{}", *l.gen_max));
    }
    if (problems.empty()) continue;
    f.message = fmt::format("GPU {} PCIe link runs at {}", gpu.index, fmt::join(problems, " and "));
    out.push_back(std::move(f));
  }
  return out;
}

// Port states from nvidia-smi nvlink -s / NVML. Returns the GPUs it named.
// A GPU whose model is not known (dcgmi nvlink -s names none): a port reported down while
// another GPU of the input has the same port up is a link down, judged against that GPU.
bool peer_port_down(const RuleContext& ctx, size_t p, std::vector<core::Finding>& out) {
  const auto& gpus = ctx.machine.gpus;
  const core::Gpu& gpu = gpus[p];
  std::vector<int> down;
  int active = 0;
  int peer = -1;
  for (const auto& port : *gpu.nvlinks) {
    if (!port.active) continue;
    if (*port.active) {
      ++active;
      continue;
    }
    for (const auto& other : gpus) {
      if (&other == &gpu || !other.nvlinks) continue;
      for (const auto& q : *other.nvlinks) {
        if (q.link == port.link && known_true(q.active)) {
          if (std::find(down.begin(), down.end(), port.link) == down.end()) down.push_back(port.link);
          if (peer < 0) peer = other.index;
        }
      }
    }
  }
  if (down.empty()) return false;
  auto f = make_finding(code::nvlink_down, Severity::fail, {gpu.index},
                        fmt::format("GPU {} has NVLink {} {} down while GPU {} has {} up ({} links up)", gpu.index,
                                    down.size() == 1 ? "link" : "links", fmt::join(down, ", "), peer,
                                    down.size() == 1 ? "it" : "them", active));
  f.evidence = {{"inactive links", fmt::format("{}", fmt::join(down, ", "))},
                {"active links", std::to_string(active)},
                {"expected links", fmt::format("as GPU {} (GPU model not in the input)", peer)}};
  out.push_back(std::move(f));
  return true;
}

std::vector<int> check_ports(const RuleContext& ctx, std::vector<core::Finding>& out) {
  std::vector<int> named;
  std::vector<int> no_bridge;
  const auto& gpus = ctx.machine.gpus;
  for (size_t p = 0; p < gpus.size(); ++p) {
    const core::Gpu& gpu = gpus[p];
    const core::GpuModel* model = ctx.models[p];
    if (gpu.nvlinks && model == nullptr) {
      if (peer_port_down(ctx, p, out)) named.push_back(gpu.index);
      continue;
    }
    if (!gpu.nvlinks || model == nullptr || model->nvlink_links <= 0) continue;
    // A known but empty port list is NVML's "all links are inActive".
    const bool none_listed = gpu.nvlinks->empty();
    int active = 0;
    std::vector<int> inactive;
    for (const auto& port : *gpu.nvlinks) {
      if (!port.active) continue;
      if (*port.active) ++active;
      else inactive.push_back(port.link);
    }
    if (inactive.empty() && !none_listed) continue;
    const bool bridged = model->form_factor != "sxm";
    if (bridged && active == 0 && inactive.size() == gpu.nvlinks->size()) {
      no_bridge.push_back(gpu.index);
      continue;
    }
    // Some sources list more ports than the model wires up; only a shortfall is a fault.
    if (active >= model->nvlink_links) continue;
    auto f = make_finding(
        code::nvlink_down, Severity::fail, {gpu.index},
        none_listed ? fmt::format("GPU {} has no active NVLink: 0 of {} links up", gpu.index, model->nvlink_links)
                    : fmt::format("GPU {} has NVLink {} {} inactive: {} of {} links up", gpu.index,
                                  inactive.size() == 1 ? "link" : "links", fmt::join(inactive, ", "), active,
                                  model->nvlink_links));
    f.evidence = {{"inactive links", none_listed ? std::string("all") : fmt::format("{}", fmt::join(inactive, ", "))},
                  {"active links", std::to_string(active)},
                  {"expected links", fmt::format("{} ({})", model->nvlink_links, model->display_name)}};
    out.push_back(std::move(f));
    named.push_back(gpu.index);
  }
  if (!no_bridge.empty()) {
    auto f = make_finding(code::nvlink_not_bridged, Severity::info, no_bridge,
                          fmt::format("{}: no NVLink bridge fitted (every NVLink port inactive); GPU pairs talk "
                                      "over PCIe",
                                      describe_gpus(no_bridge)));
    f.next_step = "Nothing wrong if no bridge was advertised; otherwise ask for the NVLink bridges.";
    out.push_back(std::move(f));
  }
  return named;
}

// NV# counts from topo -m on a full mesh: a GPU (or pair) with fewer bonded links than the rest.
void check_mesh_counts(const RuleContext& ctx, const std::vector<int>& already, std::vector<core::Finding>& out) {
  const core::Machine& m = ctx.machine;
  if (!m.links) return;
  const core::LinkMatrix& links = *m.links;
  const int n = links.size();
  auto index_of = [&](int p) { return p < static_cast<int>(m.gpus.size()) ? m.gpus[static_cast<size_t>(p)].index : p; };
  auto already_named = [&](int p) { return std::find(already.begin(), already.end(), index_of(p)) != already.end(); };
  const auto cls = ctx.interconnect.cls;
  if (cls == core::InterconnectClass::nvlink_partial) {
    // A GPU of an NVLink-wired model with no NVLink at all while its neighbours have it.
    for (int p = 0; p < n && p < static_cast<int>(ctx.models.size()); ++p) {
      const core::GpuModel* model = ctx.models[static_cast<size_t>(p)];
      if (model == nullptr || model->form_factor != "sxm" || model->nvlink_links <= 0 || already_named(p)) continue;
      bool any = false;
      for (int q = 0; q < n; ++q) any = any || (q != p && links.at(p, q).is_nvlink());
      if (any) continue;
      auto f = make_finding(code::nvlink_down, Severity::fail, {index_of(p)},
                            fmt::format("GPU {} ({}) has no NVLink to any peer while the other GPUs do", index_of(p),
                                        model->display_name));
      f.evidence = {{"nvlink peers", "0"}, {"expected links", std::to_string(model->nvlink_links)}};
      out.push_back(std::move(f));
    }
    return;
  }
  if (cls != core::InterconnectClass::nvswitch_full_mesh && cls != core::InterconnectClass::nvlink_direct_full_mesh) return;
  std::map<int, int> pair_counts;  // NV# -> pairs
  int pairs = 0;
  for (int a = 0; a < n; ++a) {
    for (int b = a + 1; b < n; ++b) {
      ++pair_counts[links.at(a, b).nvlink_count];
      ++pairs;
    }
  }
  int reference = 0;
  int seen = 0;
  for (const auto& [nv, count] : pair_counts) {
    if (count >= seen) {  // ties go to the higher count of links
      reference = nv;
      seen = count;
    }
  }
  // Only an otherwise uniform mesh has a norm to fall short of.
  if (pairs < 2 || seen * 2 < pairs || pair_counts.size() < 2) return;
  std::vector<int> culprits;
  for (int a = 0; a < n; ++a) {
    bool all_low = true;
    int lowest = reference;
    for (int b = 0; b < n; ++b) {
      if (a == b) continue;
      lowest = std::min(lowest, links.at(a, b).nvlink_count);
      all_low = all_low && links.at(a, b).nvlink_count < reference;
    }
    if (!all_low) continue;
    culprits.push_back(a);
    if (already_named(a)) continue;
    auto f = make_finding(code::nvlink_down, Severity::fail, {index_of(a)},
                          fmt::format("GPU {} has NV{} to its peers where the other GPUs have NV{}: {} NVLink{} down",
                                      index_of(a), lowest, reference, reference - lowest,
                                      reference - lowest == 1 ? " is" : "s are"));
    f.evidence = {{fmt::format("GPU {} nvlinks per peer", index_of(a)), fmt::format("NV{}", lowest)},
                  {"expected", fmt::format("NV{}", reference)}};
    out.push_back(std::move(f));
  }
  for (int a = 0; a < n; ++a) {
    for (int b = a + 1; b < n; ++b) {
      const int nv = links.at(a, b).nvlink_count;
      const bool culprit = std::find(culprits.begin(), culprits.end(), a) != culprits.end() ||
                           std::find(culprits.begin(), culprits.end(), b) != culprits.end();
      if (nv >= reference || culprit || (already_named(a) && already_named(b))) continue;
      auto f = make_finding(code::nvlink_down, Severity::fail, {index_of(a), index_of(b)},
                            fmt::format("GPU {} and GPU {} are bonded by NV{} where the other pairs have NV{}",
                                        index_of(a), index_of(b), nv, reference));
      f.evidence = {{fmt::format("GPU {}-GPU {}", index_of(a), index_of(b)), fmt::format("NV{}", nv)},
                    {"expected", fmt::format("NV{}", reference)}};
      out.push_back(std::move(f));
    }
  }
}

// NV# against the catalogue: on an NVSwitch mesh each GPU should bond all its links to every
// peer (NV18 on H100), on a direct mesh its links should add up over its peers. A uniform
// shortfall (NV6 on every pair of an H100 board) has no odd GPU out, so only the catalogue
// shows it.
void check_catalogue_links(const RuleContext& ctx, std::vector<core::Finding>& out) {
  const core::Machine& m = ctx.machine;
  const auto cls = ctx.interconnect.cls;
  if (!m.links || (cls != core::InterconnectClass::nvswitch_full_mesh &&
                   cls != core::InterconnectClass::nvlink_direct_full_mesh)) {
    return;
  }
  std::vector<int> named;
  for (const auto& f : out) {
    if (f.code == code::nvlink_down) named.insert(named.end(), f.gpus.begin(), f.gpus.end());
  }
  const core::LinkMatrix& links = *m.links;
  std::map<std::pair<int, int>, std::vector<int>> short_gpus;  // (bonded, expected) -> GPU indices
  for (int a = 0; a < links.size() && a < static_cast<int>(m.gpus.size()); ++a) {
    const core::GpuModel* model = ctx.models[static_cast<size_t>(a)];
    const int index = m.gpus[static_cast<size_t>(a)].index;
    if (model == nullptr || model->form_factor != "sxm" || model->nvlink_links <= 0) continue;
    if (std::find(named.begin(), named.end(), index) != named.end()) continue;
    int bonded = 0;
    for (int b = 0; b < links.size(); ++b) {
      if (a == b) continue;
      const int nv = links.at(a, b).nvlink_count;
      bonded = cls == core::InterconnectClass::nvswitch_full_mesh ? std::max(bonded, nv) : bonded + nv;
    }
    if (bonded < model->nvlink_links) short_gpus[{bonded, model->nvlink_links}].push_back(index);
  }
  for (const auto& [counts, gpus] : short_gpus) {
    const auto [bonded, expected] = counts;
    const bool via_switch = cls == core::InterconnectClass::nvswitch_full_mesh;
    auto f = make_finding(code::nvlink_down, Severity::fail, gpus,
                          fmt::format("{} {} {} NVLinks where the model has {}: {} link{} per GPU down or disabled",
                                      describe_gpus(gpus), gpus.size() == 1 ? "bonds" : "bond", bonded, expected,
                                      expected - bonded, expected - bonded == 1 ? "" : "s"));
    f.evidence = {{via_switch ? "NV# to each peer (through NVSwitch)" : "NVLinks over all peers", std::to_string(bonded)},
                  {"expected", fmt::format("{} (catalogue)", expected)}};
    out.push_back(std::move(f));
  }
}

// The NVSwitch fabric manager must finish training the fabric before CUDA can use NVLink: any
// state but Completed (Not Started, In Progress, Failure) leaves the GPU without its NVLinks.
void check_fabric(const RuleContext& ctx, std::vector<core::Finding>& out) {
  std::vector<int> not_ready;
  std::vector<std::string> states;
  for (const auto& gpu : ctx.machine.gpus) {
    if (!gpu.fabric_state || contains_nocase(*gpu.fabric_state, "completed")) continue;
    not_ready.push_back(gpu.index);
    states.push_back(fmt::format("GPU {}: {}", gpu.index, *gpu.fabric_state));
  }
  if (not_ready.empty()) return;
  auto f = make_finding(code::fabric_not_ready, Severity::fail, not_ready,
                        fmt::format("{}: NVSwitch fabric state is not Completed, so NVLink is not usable",
                                    describe_gpus(not_ready)));
  f.evidence = {{"fabric state", fmt::format("{}", fmt::join(states, "; "))}};
  out.push_back(std::move(f));
}

}  // namespace

std::vector<core::Finding> check_links(const RuleContext& ctx) {
  auto out = check_pcie(ctx);
  const auto named = check_ports(ctx, out);
  check_mesh_counts(ctx, named, out);
  check_catalogue_links(ctx, out);
  check_fabric(ctx, out);
  return out;
}

}  // namespace gpuvet::analysis
