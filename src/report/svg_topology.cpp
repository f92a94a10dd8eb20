// The topology graph as inline SVG. Rows from top: CPUs (one per NUMA node), PCIe switches
// (devices that see each other as PIX), GPUs and NICs, then the NVLink fabric: one NVSwitch bar
// when the GPUs meet in NVSwitches, else an arc per NVLink-connected pair labelled NV#.
#include <algorithm>
#include <map>
#include <numeric>

#include <fmt/format.h>

#include "report/html_escape.hpp"
#include "report/svg_charts.hpp"

namespace gpuvet::report {

namespace {

constexpr int kSlot = 84;
constexpr int kBoxW = 72;
constexpr int kMargin = 12;
constexpr int kCpuY = 24;
constexpr int kSwitchY = 88;
constexpr int kDeviceY = 140;
constexpr int kDeviceH = 40;

// Devices: GPUs at 0..g-1 (positions in machine.gpus), NICs at g..g+n-1.
struct Layout {
  std::vector<int> parent;  // union-find over devices joined by PIX
  int find(int i) { return parent[i] == i ? i : parent[i] = find(parent[i]); }
  void join(int a, int b) { parent[find(a)] = find(b); }
};

std::string box(const char* cls, int x, int y, int w, int h, const char* fill, const std::string& label,
                const std::string& sub = {}) {
  std::string out = fmt::format("<g class=\"{}\"><rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"4\" fill=\"{}\" "
                                "stroke=\"#333\"/><text x=\"{}\" y=\"{}\" text-anchor=\"middle\" font-size=\"11\">{}</text>",
                                cls, x, y, w, h, fill, x + w / 2, y + (sub.empty() ? h / 2 + 4 : 15), xml_escape(label));
  if (!sub.empty()) {
    out += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" font-size=\"9\">{}</text>", x + w / 2, y + 29,
                       xml_escape(sub));
  }
  return out + "</g>\n";
}

std::string line(int x1, int y1, int x2, int y2, const char* cls) {
  return fmt::format("<line class=\"{}\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#666\"/>\n", cls, x1, y1, x2, y2);
}

}  // namespace

std::string svg_topology(const core::Machine& m) {
  const int g = static_cast<int>(m.gpus.size());
  const auto& nics = m.nics ? *m.nics : std::vector<core::Nic>{};
  const int n = static_cast<int>(nics.size());
  Layout uf{std::vector<int>(static_cast<size_t>(g + n))};
  std::iota(uf.parent.begin(), uf.parent.end(), 0);
  for (int a = 0; a < g; ++a) {
    for (int b = a + 1; b < g; ++b) {
      if (m.links && std::max(a, b) < m.links->size() && m.links->at(a, b).kind == core::LinkKind::pix) uf.join(a, b);
    }
  }
  for (int k = 0; k < n; ++k) {
    if (!nics[k].gpu_proximity) continue;
    for (int a = 0; a < g && a < static_cast<int>(nics[k].gpu_proximity->size()); ++a) {
      if ((*nics[k].gpu_proximity)[a].kind == core::LinkKind::pix) uf.join(g + k, a);
    }
  }
  auto node_of = [&](int d) {
    const auto& r = d < g ? m.gpus[d].numa_node : nics[d - g].numa_node;
    return r ? *r : -1;
  };
  // NUMA node -> groups (each a list of devices, GPUs first), ordered by their first device.
  std::map<int, std::map<int, std::vector<int>>> nodes;
  for (int d = 0; d < g + n; ++d) {
    const int root = uf.find(d);
    nodes[node_of(root)][root].push_back(d);
  }
  // Unknown NUMA placement goes last.
  std::vector<int> order;
  for (const auto& [id, groups] : nodes) {
    if (id >= 0) order.push_back(id);
  }
  if (nodes.contains(-1)) order.push_back(-1);

  std::vector<int> x_of(static_cast<size_t>(g + n), 0);
  std::string body;
  int slot = 0;
  for (int id : order) {
    std::vector<std::vector<int>> groups;
    for (auto& [root, members] : nodes[id]) {
      std::sort(members.begin(), members.end());
      groups.push_back(members);
    }
    std::sort(groups.begin(), groups.end());
    const int first = slot;
    for (const auto& members : groups) {
      const int group_first = slot;
      for (int d : members) x_of[d] = kMargin + (slot++) * kSlot;
      const int left = kMargin + group_first * kSlot;
      const int right = kMargin + (slot - 1) * kSlot + kBoxW;
      if (members.size() >= 2) {
        body += box("pcie-switch", left, kSwitchY, right - left, 24, "#eeeeee", "PCIe switch");
        body += line((left + right) / 2, kCpuY + 34, (left + right) / 2, kSwitchY, "pcie");
        for (int d : members) body += line(x_of[d] + kBoxW / 2, kSwitchY + 24, x_of[d] + kBoxW / 2, kDeviceY, "pcie");
      } else {
        body += line(x_of[members[0]] + kBoxW / 2, kCpuY + 34, x_of[members[0]] + kBoxW / 2, kDeviceY, "pcie");
      }
    }
    const int left = kMargin + first * kSlot;
    const int right = kMargin + (slot - 1) * kSlot + kBoxW;
    std::string cpus;
    if (m.numa_nodes) {
      for (const auto& nn : *m.numa_nodes) {
        if (nn.id == id && nn.cpus) cpus = "CPUs " + *nn.cpus;
      }
    }
    body += box("cpu", left, kCpuY, right - left, 34, "#cfe2f3", id >= 0 ? fmt::format("CPU / NUMA {}", id) : "NUMA ?", cpus);
  }
  for (int a = 0; a < g; ++a) {
    const auto& gpu = m.gpus[a];
    body += box("gpu", x_of[a], kDeviceY, kBoxW, kDeviceH, "#d9ead3", fmt::format("GPU{}", gpu.index),
                gpu.pci_bus_id ? gpu.pci_bus_id->substr(std::min<size_t>(5, gpu.pci_bus_id->size())) : "");
  }
  for (int k = 0; k < n; ++k) {
    const auto& nic = nics[k];
    body += box("nic", x_of[g + k], kDeviceY, kBoxW, kDeviceH, "#fff2cc", nic.name.value_or(nic.label),
                nic.rate_gbit_s ? fmt::format("{:g} Gb/s", *nic.rate_gbit_s) : "rate n/a");
  }
  int height = kDeviceY + kDeviceH + 20;
  // The NVLink fabric.
  bool all_nvlink = m.links && g >= 2;
  int max_links = 0;
  for (int a = 0; a < g && m.links; ++a) {
    for (int b = 0; b < g; ++b) {
      if (a == b || std::max(a, b) >= m.links->size()) continue;
      all_nvlink = all_nvlink && m.links->at(a, b).is_nvlink();
      max_links = std::max(max_links, m.links->at(a, b).nvlink_count);
    }
  }
  const int base = kDeviceY + kDeviceH;
  if (all_nvlink && m.nvswitch_present.value_or(false)) {
    int left = 1 << 30;
    int right = 0;
    for (int a = 0; a < g; ++a) {
      left = std::min(left, x_of[a]);
      right = std::max(right, x_of[a] + kBoxW);
      body += line(x_of[a] + kBoxW / 2, base, x_of[a] + kBoxW / 2, base + 40, "nvlink");
    }
    const std::string label = fmt::format("NVSwitch fabric: NV{} between every GPU pair", max_links);
    body += box("nvswitch", left, base + 40, right - left, 28, "#b6d7a8",
                6.5 * static_cast<double>(label.size()) < right - left ? label : fmt::format("NVSwitch NV{}", max_links));
    height = base + 90;
  } else if (m.links) {
    int deepest = 0;
    for (int a = 0; a < g; ++a) {
      for (int b = a + 1; b < g && b < m.links->size(); ++b) {
        const auto& link = m.links->at(a, b);
        if (!link.is_nvlink()) continue;
        const int x1 = x_of[a] + kBoxW / 2;
        const int x2 = x_of[b] + kBoxW / 2;
        const int depth = 16 + std::abs(x2 - x1) / 6;
        deepest = std::max(deepest, depth);
        body += fmt::format("<g class=\"nvlink\"><path d=\"M {} {} Q {} {} {} {}\" fill=\"none\" stroke=\"#38761d\" "
                            "stroke-width=\"1.5\"/><text x=\"{}\" y=\"{}\" text-anchor=\"middle\" font-size=\"9\">{}</text></g>\n",
                            x1, base, (x1 + x2) / 2, base + 2 * depth, x2, base, (x1 + x2) / 2, base + depth + 3,
                            xml_escape(core::to_string(link)));
      }
    }
    height = base + deepest + 24;
  }
  // Wide enough for every device box and for the title line (about 6.5 px per character), so
  // nothing is clipped; the report scales the picture down to its column.
  const std::string title = m.source + (m.simulated ? " (simulated)" : "");
  const int width = std::max({kMargin * 2 + slot * kSlot, 320, kMargin * 2 + static_cast<int>(6.5 * static_cast<double>(title.size()))});
  std::string out = fmt::format(
      "<svg class=\"topology\" width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\" "
      "role=\"img\" aria-label=\"machine topology\">\n",
      width, height);
  out += fmt::format("<text x=\"{}\" y=\"14\" font-size=\"11\">{}</text>\n", kMargin, xml_escape(title));
  return out + body + "</svg>\n";
}

}  // namespace gpuvet::report
