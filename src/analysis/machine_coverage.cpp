// What a machine description left unjudged: an input that shows nothing the rules can judge (only
// NVLink traffic counters of one GPU, firmware versions, the error counters of a few links) is no pass.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "analysis/judge.hpp"

namespace gpuvet::analysis {

namespace {

// A fact the rule families judge against the catalogue or the buyer's expectations.
bool gpu_judged(const core::Gpu& g) {
  const auto& h = g.memory_health;
  if (g.memory_total_mib || g.ecc_enabled || g.mig_enabled || g.power_limit_w || g.fabric_state || g.numa_node ||
      g.pcie.gen_current || g.pcie.width_current || g.clocks_event_reasons || g.performance_state) {
    return true;
  }
  if (h.remapped_rows_correctable || h.remapped_rows_uncorrectable || h.remap_pending || h.remap_failure ||
      h.retired_pages_sbe || h.retired_pages_dbe || h.retired_pages_pending) {
    return true;
  }
  // Link states: a speed, or a port known to be down. "Up" alone (dcgmi nvlink -s, or a port
  // that carried traffic in nvlink -gt d) is judged across GPUs (links_of_several_gpus).
  if (g.nvlinks) {
    for (const auto& port : *g.nvlinks) {
      if (port.speed_gbps || (port.active && !*port.active)) return true;
    }
  }
  return false;
}

// Link states of two GPUs or more: the NVLinks of one GPU say nothing of the machine.
bool links_of_several_gpus(const core::Machine& m) {
  int with_states = 0;
  for (const auto& g : m.gpus) {
    if (!g.nvlinks) continue;
    for (const auto& port : *g.nvlinks) {
      if (port.active) {
        ++with_states;
        break;
      }
    }
  }
  return with_states >= 2;
}

// What the input did show, for the sentence that says it is not enough.
std::vector<std::string> shown(const core::Machine& m) {
  int named = 0, counter_links = 0, traffic_ports = 0;
  for (const auto& g : m.gpus) {
    named += g.name ? 1 : 0;
    if (!g.nvlinks) continue;
    for (const auto& port : *g.nvlinks) {
      counter_links += port.error_counters ? 1 : 0;
      traffic_ports += port.active && *port.active ? 1 : 0;
    }
  }
  std::vector<std::string> out;
  if (named > 0) out.push_back(fmt::format("the model of {} GPU{}", named, named == 1 ? "" : "s"));
  if (counter_links > 0) {
    out.push_back(fmt::format("NVLink error counters of {} link{}", counter_links, counter_links == 1 ? "" : "s"));
  }
  if (traffic_ports > 0 && counter_links == 0) {
    out.push_back(fmt::format("{} NVLink port{} carrying traffic, without link speeds", traffic_ports,
                              traffic_ports == 1 ? "" : "s"));
  }
  if (out.empty()) out.push_back("no reading the judge can use");
  return out;
}

}  // namespace

void judge_machine_coverage(const core::Machine& machine, core::Assessment& assessment) {
  if (assessment.interconnect.cls != core::InterconnectClass::unknown) return;
  if (machine.links || machine.attached_gpus || !machine.events.empty()) return;
  if (machine.nics && !machine.nics->empty()) return;
  if (links_of_several_gpus(machine)) return;
  for (const auto& g : machine.gpus) {
    if (gpu_judged(g)) return;
  }
  assessment.unverified.push_back(fmt::format(
      "the machine was not judged: {} shows only {}; its GPU count, memory, interconnect (link matrix, link speeds, "
      "NVSwitch fabric) and health are not in it; give nvidia-smi -q and nvidia-smi topo -m of the machine",
      machine.source.empty() ? std::string("the input") : machine.source, fmt::join(shown(machine), ", ")));
}

}  // namespace gpuvet::analysis
