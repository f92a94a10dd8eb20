// Flattens a core::Machine into key=value lines for exact comparisons in tests.
#include "machine_dump.hpp"

#include <fmt/format.h>

namespace gpuvet::sim::testing {
namespace {

std::string show(const std::string& v) { return v; }
std::string show(bool v) { return v ? "true" : "false"; }
std::string show(int v) { return std::to_string(v); }
std::string show(std::uint64_t v) { return std::to_string(v); }
std::string show(double v) { return fmt::format("{}", v); }
std::string show(core::NvLinkRemote v) { return std::string(core::to_string(v)); }
std::string show(const std::vector<std::string>& v) { return fmt::format("[{}]", fmt::join(v, ",")); }

template <class T>
std::string show(const core::Reading<T>& r) {
  return r.known() ? show(*r) : "absent(" + r.reason() + ")";
}

}  // namespace

std::map<std::string, std::string> dump(const core::Machine& m) {
  std::map<std::string, std::string> out;
  out["source"] = m.source;
  out["simulated"] = show(m.simulated);
  out["hostname"] = show(m.hostname);
  out["driver_version"] = show(m.driver_version);
  out["cuda_version"] = show(m.cuda_version);
  out["attached_gpus"] = show(m.attached_gpus);
  out["gpu_count"] = std::to_string(m.gpus.size());
  for (std::size_t i = 0; i < m.gpus.size(); ++i) {
    const core::Gpu& g = m.gpus[i];
    const std::string p = fmt::format("gpu[{}].", i);
    out[p + "index"] = show(g.index);
    out[p + "name"] = show(g.name);
    out[p + "uuid"] = show(g.uuid);
    out[p + "serial"] = show(g.serial);
    out[p + "board_part_number"] = show(g.board_part_number);
    out[p + "vbios"] = show(g.vbios);
    out[p + "inforom_image"] = show(g.inforom_image);
    out[p + "architecture"] = show(g.architecture);
    out[p + "compute_capability"] = show(g.compute_capability);
    out[p + "memory_total_mib"] = show(g.memory_total_mib);
    out[p + "pci_bus_id"] = show(g.pci_bus_id);
    out[p + "pcie.gen_current"] = show(g.pcie.gen_current);
    out[p + "pcie.gen_max"] = show(g.pcie.gen_max);
    out[p + "pcie.width_current"] = show(g.pcie.width_current);
    out[p + "pcie.width_max"] = show(g.pcie.width_max);
    out[p + "numa_node"] = show(g.numa_node);
    out[p + "cpu_affinity"] = show(g.cpu_affinity);
    out[p + "power_limit_w"] = show(g.power_limit_w);
    out[p + "max_sm_clock_mhz"] = show(g.max_sm_clock_mhz);
    out[p + "max_mem_clock_mhz"] = show(g.max_mem_clock_mhz);
    out[p + "ecc_enabled"] = show(g.ecc_enabled);
    out[p + "mig_enabled"] = show(g.mig_enabled);
    out[p + "virtualization_mode"] = show(g.virtualization_mode);
    out[p + "fabric_state"] = show(g.fabric_state);
    out[p + "idle"] = show(g.idle);
    out[p + "clocks_event_reasons"] = show(g.clocks_event_reasons);
    const core::MemoryHealth& h = g.memory_health;
    out[p + "mem.remapped_rows_correctable"] = show(h.remapped_rows_correctable);
    out[p + "mem.remapped_rows_uncorrectable"] = show(h.remapped_rows_uncorrectable);
    out[p + "mem.remap_pending"] = show(h.remap_pending);
    out[p + "mem.remap_failure"] = show(h.remap_failure);
    out[p + "mem.retired_pages_sbe"] = show(h.retired_pages_sbe);
    out[p + "mem.retired_pages_dbe"] = show(h.retired_pages_dbe);
    out[p + "mem.retired_pages_pending"] = show(h.retired_pages_pending);
    if (!g.nvlinks.known()) {
      out[p + "nvlinks"] = "absent(" + g.nvlinks.reason() + ")";
      continue;
    }
    out[p + "nvlinks.count"] = std::to_string(g.nvlinks->size());
    for (const auto& port : *g.nvlinks) {
      const std::string q = fmt::format("{}nvlink[{}].", p, port.link);
      out[q + "active"] = show(port.active);
      out[q + "version"] = show(port.version);
      out[q + "speed_gbps"] = show(port.speed_gbps);
      out[q + "remote"] = show(port.remote);
      out[q + "remote_pci_bus_id"] = show(port.remote_pci_bus_id);
    }
  }
  if (m.links.known()) {
    const core::LinkMatrix& l = *m.links;
    out["links.size"] = std::to_string(l.size());
    for (int a = 0; a < l.size(); ++a) {
      for (int b = 0; b < l.size(); ++b) out[fmt::format("links[{}][{}]", a, b)] = core::to_string(l.at(a, b));
    }
  } else {
    out["links"] = "absent(" + m.links.reason() + ")";
  }
  out["nvswitch_present"] = show(m.nvswitch_present);
  if (m.nics.known()) {
    for (std::size_t i = 0; i < m.nics->size(); ++i) {
      const core::Nic& n = (*m.nics)[i];
      const std::string p = fmt::format("nic[{}].", i);
      out[p + "label"] = n.label;
      out[p + "name"] = show(n.name);
      out[p + "rate_gbit_s"] = show(n.rate_gbit_s);
      out[p + "state"] = show(n.state);
      out[p + "link_layer"] = show(n.link_layer);
      out[p + "pci_bus_id"] = show(n.pci_bus_id);
      out[p + "numa_node"] = show(n.numa_node);
      if (n.gpu_proximity.known()) {
        for (std::size_t g = 0; g < n.gpu_proximity->size(); ++g) {
          out[fmt::format("{}gpu[{}]", p, g)] = core::to_string((*n.gpu_proximity)[g]);
        }
      }
    }
  }
  if (m.numa_nodes.known()) {
    for (const auto& n : *m.numa_nodes) out[fmt::format("numa[{}].cpus", n.id)] = show(n.cpus);
  }
  for (std::size_t i = 0; i < m.notes.size(); ++i) out[fmt::format("note[{}]", i)] = m.notes[i];
  return out;
}

std::map<std::string, std::pair<std::string, std::string>> diff(const core::Machine& a, const core::Machine& b) {
  const auto da = dump(a);
  const auto db = dump(b);
  std::map<std::string, std::pair<std::string, std::string>> out;
  for (const auto& [k, v] : da) {
    const auto it = db.find(k);
    const std::string other = it == db.end() ? "(missing)" : it->second;
    if (other != v) out[k] = {v, other};
  }
  for (const auto& [k, v] : db) {
    if (!da.count(k)) out[k] = {"(missing)", v};
  }
  return out;
}

}  // namespace gpuvet::sim::testing
