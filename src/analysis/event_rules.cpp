// Findings from what the driver and nvidia-smi printed about GPUs in trouble (core::GpuEvent):
// Xids judged with NVIDIA's catalogue, GPUs lost (fallen off the bus, failed probe, no device
// handle) and corrupted infoROMs. GPUs are named by PCI address, and by index when the machine
// picture has a GPU at that address.
#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "analysis/finding_codes.hpp"
#include "analysis/rules.hpp"
#include "analysis/xid_catalog.hpp"

namespace gpuvet::analysis {
namespace {

using core::GpuEvent;
using core::GpuEventKind;
using core::Severity;

std::optional<int> gpu_at(const core::Machine& m, const core::Reading<std::string>& bus) {
  if (!bus) return std::nullopt;
  for (const auto& g : m.gpus) {
    if (g.pci_bus_id && core::normalize_pci_bus_id(*g.pci_bus_id) == *bus) return g.index;
  }
  return std::nullopt;
}

std::string gpu_label(const core::Machine& m, const core::Reading<std::string>& bus) {
  if (!bus) return "a GPU (address not printed)";
  const auto index = gpu_at(m, bus);
  return index ? fmt::format("GPU {} ({})", *index, *bus) : *bus;
}

std::string times(int count) { return count == 1 ? "once" : fmt::format("{} times", count); }

void add_gpu(const core::Machine& m, const core::Reading<std::string>& bus, std::vector<int>& gpus) {
  const auto index = gpu_at(m, bus);
  if (index && std::find(gpus.begin(), gpus.end(), *index) == gpus.end()) gpus.push_back(*index);
}

// One finding per Xid number, naming each GPU and how often.
void judge_xids(const core::Machine& m, std::vector<core::Finding>& out) {
  std::map<int, std::vector<const GpuEvent*>> by_xid;
  for (const auto& e : m.events) {
    if (e.kind == GpuEventKind::xid && e.xid != 79) by_xid[e.xid].push_back(&e);  // 79 is gpu_lost
  }
  for (const auto& [xid, events] : by_xid) {
    const XidInfo* info = find_xid(xid);
    std::vector<std::string> where;
    std::vector<int> gpus;
    int total = 0;
    bool only_referenced = true;
    for (const auto* e : events) {
      add_gpu(m, e->pci_bus_id, gpus);
      if (e->referenced_only) {
        where.push_back(fmt::format("{} (named by a later line as its cause; the Xid line itself is not in the input)",
                                    gpu_label(m, e->pci_bus_id)));
        continue;
      }
      only_referenced = false;
      total += e->count;
      where.push_back(fmt::format("{} {}", gpu_label(m, e->pci_bus_id), times(e->count)));
    }
    const auto severity = info != nullptr ? info->severity : Severity::warn;
    const auto meaning = info != nullptr ? std::string(info->meaning) : std::string("not in gpuvet's copy of NVIDIA's Xid catalogue");
    const auto message = only_referenced
                             ? fmt::format("Xid {} ({}) on {}", xid, meaning, fmt::join(where, "; "))
                             : fmt::format("Xid {} ({}) logged {} on {}: {}", xid, meaning, times(total),
                                           events.size() == 1 ? "1 GPU" : fmt::format("{} GPUs", events.size()), fmt::join(where, "; "));
    std::sort(gpus.begin(), gpus.end());
    auto f = make_finding(code::xid_logged, severity, gpus, message);
    f.evidence = {{"xid", std::to_string(xid)},
                  {"first line", events.front()->text},
                  {"where", events.front()->where},
                  {"catalogue", std::string(xid_catalog_source())}};
    f.next_step = info != nullptr ? fmt::format("NVIDIA's action: {}.", describe(info->action))
                                  : fmt::format("Look Xid {} up in NVIDIA's Xid catalogue ({}).", xid, xid_catalog_source());
    out.push_back(std::move(f));
  }
}

// One finding per lost GPU; a failed probe that names no GPU joins the lost GPU's finding.
void judge_lost(const core::Machine& m, std::vector<core::Finding>& out) {
  std::vector<const GpuEvent*> lost, probes;
  for (const auto& e : m.events) {
    if (e.kind == GpuEventKind::fallen_off_bus || e.kind == GpuEventKind::device_handle_lost) lost.push_back(&e);
    if (e.kind == GpuEventKind::probe_failed) probes.push_back(&e);
  }
  std::set<std::string> named;
  std::vector<core::Finding> found;
  for (const auto* e : lost) {
    const auto key = e->pci_bus_id ? *e->pci_bus_id : std::string();
    const bool xid79 = e->text.find("Xid") != std::string::npos;
    const std::string what = e->kind == GpuEventKind::device_handle_lost ? "nvidia-smi cannot reach it (no device handle)"
                             : xid79 ? "it fell off the bus (Xid 79)"
                                     : "it fell off the bus";
    if (!named.insert(key + what).second) continue;
    int count = 0;
    for (const auto* o : lost) {
      if (o->kind == e->kind && (o->pci_bus_id ? *o->pci_bus_id : std::string()) == key) count += o->count;
    }
    std::vector<int> gpus;
    add_gpu(m, e->pci_bus_id, gpus);
    auto f = make_finding(code::gpu_lost, Severity::fail, gpus,
                          fmt::format("{} is lost: {}{}", gpu_label(m, e->pci_bus_id), what, count > 1 ? fmt::format(" (printed {})", times(count)) : ""));
    f.evidence = {{"line", e->text}, {"where", e->where}};
    found.push_back(std::move(f));
  }
  for (const auto* p : probes) {
    if (p->pci_bus_id || found.empty()) {
      std::vector<int> gpus;
      add_gpu(m, p->pci_bus_id, gpus);
      auto f = make_finding(code::gpu_lost, Severity::fail, gpus,
                            fmt::format("The NVIDIA driver failed to initialise {}", p->pci_bus_id ? gpu_label(m, p->pci_bus_id) : "a GPU (address not printed)"));
      f.evidence = {{"line", p->text}, {"where", p->where}};
      found.push_back(std::move(f));
      continue;
    }
    found.front().message += "; the driver then failed to initialise it";
    found.front().evidence.emplace_back("probe", p->text);
  }
  out.insert(out.end(), found.begin(), found.end());
}

void judge_inforom(const core::Machine& m, std::vector<core::Finding>& out) {
  for (const auto& e : m.events) {
    if (e.kind != GpuEventKind::inforom_corrupted) continue;
    std::vector<int> gpus;
    add_gpu(m, e.pci_bus_id, gpus);
    auto f = make_finding(code::inforom_corrupted, Severity::warn, gpus,
                          fmt::format("{}: nvidia-smi reports its infoROM corrupted (ECC and page retirement records may be lost)",
                                      gpu_label(m, e.pci_bus_id)));
    f.evidence = {{"line", e.text}, {"where", e.where}};
    out.push_back(std::move(f));
  }
}

}  // namespace

std::vector<core::Finding> check_events(const RuleContext& ctx) {
  std::vector<core::Finding> out;
  judge_lost(ctx.machine, out);
  judge_xids(ctx.machine, out);
  judge_inforom(ctx.machine, out);
  return out;
}

}  // namespace gpuvet::analysis
