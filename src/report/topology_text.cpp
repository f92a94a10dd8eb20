// topo -m layout: tab-separated columns, "X" on the diagonal, NV# / PIX / PXB / PHB / NODE / SYS.
// Unknown cells print "?" (a picture without a link matrix still lists its devices).
#include "report/topology_text.hpp"

#include <fmt/format.h>

namespace gpuvet::report {

namespace {

std::string gpu_cell(const core::Machine& m, size_t a, size_t b) {
  if (a == b) return "X";
  if (!m.links || static_cast<int>(std::max(a, b)) >= m.links->size()) return "?";
  return core::to_string(m.links->at(static_cast<int>(a), static_cast<int>(b)));
}

std::string nic_cell(const core::Nic& nic, size_t gpu) {
  if (!nic.gpu_proximity || gpu >= nic.gpu_proximity->size()) return "?";
  return core::to_string((*nic.gpu_proximity)[gpu]);
}

}  // namespace

std::string render_topology_text(const core::Machine& m) {
  const auto& nics = m.nics ? *m.nics : std::vector<core::Nic>{};
  std::string out = fmt::format("# {} ({})\n", m.hostname.value_or("host n/a"), m.source);
  out += "\t";
  for (const auto& gpu : m.gpus) out += fmt::format("GPU{}\t", gpu.index);
  for (size_t n = 0; n < nics.size(); ++n) out += fmt::format("NIC{}\t", n);
  out += "CPU Affinity\tNUMA Affinity\n";
  for (size_t a = 0; a < m.gpus.size(); ++a) {
    const auto& gpu = m.gpus[a];
    out += fmt::format("GPU{}\t", gpu.index);
    for (size_t b = 0; b < m.gpus.size(); ++b) out += gpu_cell(m, a, b) + "\t";
    for (const auto& nic : nics) out += nic_cell(nic, a) + "\t";
    out += fmt::format("{}\t{}\n", gpu.cpu_affinity.value_or("N/A"),
                       gpu.numa_node ? std::to_string(*gpu.numa_node) : "N/A");
  }
  for (size_t n = 0; n < nics.size(); ++n) {
    out += fmt::format("NIC{}\t", n);
    for (size_t b = 0; b < m.gpus.size(); ++b) out += nic_cell(nics[n], b) + "\t";
    for (size_t k = 0; k < nics.size(); ++k) out += k == n ? "X\t" : "?\t";
    out += "\n";
  }
  out += "\nLegend:\n\n";
  for (auto kind : {core::LinkKind::self, core::LinkKind::sys, core::LinkKind::node, core::LinkKind::phb,
                    core::LinkKind::pxb, core::LinkKind::pix, core::LinkKind::nvlink}) {
    out += fmt::format("  {:<4} = {}\n", kind == core::LinkKind::nvlink ? "NV#" : std::string(core::to_string(kind)),
                       core::describe(kind));
  }
  if (!nics.empty()) {
    out += "\nNIC Legend:\n\n";
    for (size_t n = 0; n < nics.size(); ++n) out += fmt::format("  NIC{}: {}\n", n, nics[n].name.value_or(nics[n].label));
  }
  return out;
}

}  // namespace gpuvet::report
