// Merge of several parsed views of one machine (see machine_merge.hpp).
#include "parsers/machine_merge.hpp"

#include <algorithm>
#include <exception>
#include <fmt/format.h>
#include <optional>
#include <set>
#include <string>

#include "parsers/gpu_placement.hpp"
#include "parsers/topo_common.hpp"

namespace gpuvet::parsers {

namespace {

std::string file_of(const core::Machine& m) { return source_file(m.source); }

std::vector<int> indices_of(const core::Machine& m) {
  std::vector<int> out;
  for (const auto& g : m.gpus) out.push_back(g.index);
  return out;
}

template <class T>
void fill(core::Reading<T>& into, const core::Reading<T>& from) {
  if (!into.known() && from.known()) into = from;
}

void fill_ports(core::Reading<std::vector<core::NvLinkPort>>& into, const core::Reading<std::vector<core::NvLinkPort>>& from) {
  if (!from.known()) return;
  if (!into.known()) {
    into = from;
    return;
  }
  for (const auto& p : *from) {
    auto& ports = into.value();
    const auto it = std::find_if(ports.begin(), ports.end(), [&p](const core::NvLinkPort& q) { return q.link == p.link; });
    if (it == ports.end()) {
      ports.push_back(p);
      continue;
    }
    fill(it->active, p.active);
    fill(it->version, p.version);
    fill(it->speed_gbps, p.speed_gbps);
    fill(it->remote, p.remote);
    fill(it->remote_pci_bus_id, p.remote_pci_bus_id);
    fill(it->error_counters, p.error_counters);
  }
  std::sort(into.value().begin(), into.value().end(), [](const auto& a, const auto& b) { return a.link < b.link; });
}

void fill_gpu(core::Gpu& g, const core::Gpu& o) {
  fill(g.name, o.name);
  fill(g.uuid, o.uuid);
  fill(g.serial, o.serial);
  fill(g.board_part_number, o.board_part_number);
  fill(g.vbios, o.vbios);
  fill(g.inforom_image, o.inforom_image);
  fill(g.architecture, o.architecture);
  fill(g.compute_capability, o.compute_capability);
  fill(g.memory_total_mib, o.memory_total_mib);
  fill(g.pci_bus_id, o.pci_bus_id);
  fill(g.pcie.gen_current, o.pcie.gen_current);
  fill(g.pcie.gen_max, o.pcie.gen_max);
  fill(g.pcie.width_current, o.pcie.width_current);
  fill(g.pcie.width_max, o.pcie.width_max);
  fill(g.numa_node, o.numa_node);
  fill(g.cpu_affinity, o.cpu_affinity);
  fill(g.power_limit_w, o.power_limit_w);
  fill(g.max_sm_clock_mhz, o.max_sm_clock_mhz);
  fill(g.max_mem_clock_mhz, o.max_mem_clock_mhz);
  fill(g.ecc_enabled, o.ecc_enabled);
  fill(g.mig_enabled, o.mig_enabled);
  fill(g.virtualization_mode, o.virtualization_mode);
  fill(g.fabric_state, o.fabric_state);
  fill(g.idle, o.idle);
  fill(g.clocks_event_reasons, o.clocks_event_reasons);
  fill_ports(g.nvlinks, o.nvlinks);
  auto& m = g.memory_health;
  const auto& n = o.memory_health;
  fill(m.remapped_rows_correctable, n.remapped_rows_correctable);
  fill(m.remapped_rows_uncorrectable, n.remapped_rows_uncorrectable);
  fill(m.remap_pending, n.remap_pending);
  fill(m.remap_failure, n.remap_failure);
  fill(m.retired_pages_sbe, n.retired_pages_sbe);
  fill(m.retired_pages_dbe, n.retired_pages_dbe);
  fill(m.retired_pages_pending, n.retired_pages_pending);
  g.unseen = g.unseen && o.unseen;  // a GPU one input shows is seen, whatever another cut away
}

// The default nvidia-smi table cuts long names ("NVIDIA RTX 6000 Ada Gene..."): such a name
// agrees with the whole one it begins.
bool cut_name_of(const std::string& a, const std::string& b) {
  const auto cut = [](const std::string& x, const std::string& whole) {
    return x.size() > 3 && x.compare(x.size() - 3, 3, "...") == 0 && whole.compare(0, x.size() - 3, x, 0, x.size() - 3) == 0;
  };
  return cut(a, b) || cut(b, a);
}

struct GpuView {
  const core::Gpu* gpu;
  std::string file;
};

// The identity of a GPU must agree across every part that knows it.
std::optional<core::Error> check_identity(int index, const std::vector<GpuView>& views) {
  struct Field {
    const char* what;
    const core::Reading<std::string>& (*get)(const core::Gpu&);
    bool bus_id;
  };
  static const Field kFields[] = {
      {"name", [](const core::Gpu& g) -> const core::Reading<std::string>& { return g.name; }, false},
      {"UUID", [](const core::Gpu& g) -> const core::Reading<std::string>& { return g.uuid; }, false},
      {"serial", [](const core::Gpu& g) -> const core::Reading<std::string>& { return g.serial; }, false},
      {"PCI bus id", [](const core::Gpu& g) -> const core::Reading<std::string>& { return g.pci_bus_id; }, true},
  };
  for (const auto& f : kFields) {
    const GpuView* first = nullptr;
    for (const auto& v : views) {
      const auto& r = f.get(*v.gpu);
      if (!r.known()) continue;
      if (first == nullptr) {
        first = &v;
        continue;
      }
      const auto& a = *f.get(*first->gpu);
      const auto& b = *r;
      const bool same = f.bus_id ? core::normalize_pci_bus_id(a) == core::normalize_pci_bus_id(b) : a == b || cut_name_of(a, b);
      if (!same) {
        return core::input_error(fmt::format("GPU {}: {} {} in {} but {} in {}", index, f.what, quoted(a), first->file, quoted(b), v.file));
      }
    }
  }
  return std::nullopt;
}

// Attached GPU counts must agree, and no part may show a GPU another part's count excludes.
std::optional<core::Error> check_counts(const std::vector<core::Machine>& parts) {
  for (size_t a = 0; a < parts.size(); ++a) {
    if (!parts[a].attached_gpus.known()) continue;
    const int n = *parts[a].attached_gpus;
    for (size_t b = 0; b < parts.size(); ++b) {
      if (b == a) continue;
      const auto& other = parts[b];
      if (b > a && other.attached_gpus.known() && *other.attached_gpus != n) {
        return core::input_error(fmt::format("GPU count: {} in {} but {} in {}", n, file_of(parts[a]), *other.attached_gpus, file_of(other)));
      }
      for (const auto& g : other.gpus) {
        if (g.index >= n) {
          return core::input_error(fmt::format("GPU {} in {} but {} has {} GPUs", g.index, file_of(other), file_of(parts[a]), n));
        }
      }
    }
  }
  return std::nullopt;
}

template <class T>
void fill_noting(core::Reading<T>& into, std::string& into_file, const core::Reading<T>& from, const std::string& from_file,
                 const char* what, std::vector<std::string>& notes) {
  if (into.known() && from.known() && *into != *from) {
    notes.push_back(fmt::format("{} {} in {} but {} in {}; using the first", what, quoted(*into), into_file, quoted(*from), from_file));
  }
  if (!into.known() && from.known()) {
    into = from;
    into_file = from_file;
  }
}

// A later part's view of the same NICs (ibstat after topo -m: state, rate, link layer) fills what
// the first left unknown, matched by device name; NICs the first did not list are added.
void add_port_states(std::vector<core::Nic>& nics, const std::vector<core::Nic>& more) {
  for (const auto& m : more) {
    core::Nic* same = nullptr;
    for (auto& n : nics) {
      if (n.name && m.name && *n.name == *m.name) same = &n;
    }
    if (same == nullptr) {
      nics.push_back(m);
      continue;
    }
    if (!same->state) same->state = m.state;
    if (!same->rate_gbit_s) same->rate_gbit_s = m.rate_gbit_s;
    if (!same->link_layer) same->link_layer = m.link_layer;
  }
}

// Two link matrices of the same GPUs must agree on every pair: one machine's topology does not
// change between two runs of topo -m, so a difference means two machines (never guess which).
std::optional<core::Error> check_links(const std::vector<core::Machine>& parts) {
  const core::Machine* first = nullptr;
  for (const auto& p : parts) {
    if (!p.links.known()) continue;
    if (first == nullptr) {
      first = &p;
      continue;
    }
    if (indices_of(p) != indices_of(*first) || p.links->size() != first->links->size()) continue;
    const auto& a = *first->links;
    const auto& b = *p.links;
    for (int i = 0; i < a.size(); ++i) {
      for (int j = 0; j < a.size(); ++j) {
        if (i == j || a.at(i, j) == b.at(i, j)) continue;
        const auto& gi = p.gpus[static_cast<size_t>(i)];
        const auto& gj = p.gpus[static_cast<size_t>(j)];
        return core::input_error(fmt::format("the files are not of one machine: GPU{}-GPU{} is {} in {} but {} in {}", gi.index,
                                             gj.index, core::to_string(a.at(i, j)), file_of(*first), core::to_string(b.at(i, j)),
                                             file_of(p)));
      }
    }
  }
  return std::nullopt;
}

// Links and NIC proximities are by GPU position: take them only from a part with the same GPUs.
void merge_positional(core::Machine& out, const std::vector<core::Machine>& parts) {
  const auto all = indices_of(out);
  bool links_done = false, nics_done = false;
  std::optional<std::string> links_reason, nics_reason;
  for (const auto& p : parts) {
    const bool same_gpus = indices_of(p) == all;
    const auto partial = fmt::format("{} covers {} of the {} GPUs", file_of(p), p.gpus.size(), all.size());
    if (!links_done && p.links.known()) {
      if (same_gpus) {
        out.links = p.links;
        links_done = true;
      } else if (!links_reason) {
        links_reason = "link matrix: " + partial;
      }
    }
    if (nics_done && p.nics.known()) {
      add_port_states(out.nics.value(), p.nics.value());
    } else if (!nics_done && p.nics.known()) {
      out.nics = p.nics;
      nics_done = true;
      if (!same_gpus) {
        for (auto& nic : out.nics.value()) {
          if (nic.gpu_proximity) nic.gpu_proximity = core::Absent{"NIC proximity: " + partial};
        }
      }
    }
  }
  if (!links_done) out.links = links_reason ? core::Absent{*links_reason} : core::Absent{parts.front().links.reason()};
  if (!nics_done) out.nics = parts.front().nics;
}

core::Result<core::Machine> merge(const std::vector<core::Machine>& given) {
  if (given.empty()) return core::input_error("no machine descriptions to merge");
  std::vector<std::string> placement_notes;
  const std::vector<core::Machine> parts = given.size() > 1 ? place_positional_gpus(given, placement_notes) : given;
  if (auto err = check_counts(parts)) return *err;

  std::set<int> indices;
  for (const auto& p : parts) {
    for (const auto& g : p.gpus) indices.insert(g.index);
  }
  core::Machine out;
  for (const int index : indices) {
    std::vector<GpuView> views;
    for (const auto& p : parts) {
      for (const auto& g : p.gpus) {
        if (g.index == index) views.push_back(GpuView{&g, file_of(p)});
      }
    }
    if (auto err = check_identity(index, views)) return *err;
    core::Gpu g = *views.front().gpu;
    for (size_t v = 1; v < views.size(); ++v) {
      fill_gpu(g, *views[v].gpu);
      const auto& other = views[v].gpu->name;
      if (g.name.known() && other.known() && other->size() > g.name->size() && cut_name_of(*g.name, *other)) g.name = other;
    }
    out.gpus.push_back(std::move(g));
  }

  out.source = parts.front().source;
  out.simulated = parts.front().simulated;
  out.hostname = parts.front().hostname;
  out.driver_version = parts.front().driver_version;
  out.cuda_version = parts.front().cuda_version;
  out.attached_gpus = parts.front().attached_gpus;
  out.nvswitch_present = parts.front().nvswitch_present;
  out.numa_nodes = parts.front().numa_nodes;
  std::string host_file = file_of(parts.front()), driver_file = host_file, cuda_file = host_file;
  std::vector<std::string> notes = parts.front().notes;
  out.events = parts.front().events;
  out.not_read = parts.front().not_read;
  std::vector<std::string> disagreements;
  for (size_t i = 1; i < parts.size(); ++i) {
    const auto& p = parts[i];
    const auto file = file_of(p);
    out.source += " + " + p.source;
    out.simulated = out.simulated || p.simulated;
    fill_noting(out.hostname, host_file, p.hostname, file, "host name", disagreements);
    fill_noting(out.driver_version, driver_file, p.driver_version, file, "driver version", disagreements);
    fill_noting(out.cuda_version, cuda_file, p.cuda_version, file, "CUDA version", disagreements);
    fill(out.attached_gpus, p.attached_gpus);
    fill(out.nvswitch_present, p.nvswitch_present);
    fill(out.numa_nodes, p.numa_nodes);
    notes.insert(notes.end(), p.notes.begin(), p.notes.end());
    out.events.insert(out.events.end(), p.events.begin(), p.events.end());
    out.not_read.insert(out.not_read.end(), p.not_read.begin(), p.not_read.end());
  }
  notes.insert(notes.end(), disagreements.begin(), disagreements.end());
  notes.insert(notes.end(), placement_notes.begin(), placement_notes.end());
  out.notes = std::move(notes);
  if (auto err = check_links(parts)) return *err;
  merge_positional(out, parts);
  return out;
}

}  // namespace

std::string source_file(const std::string& source) {
  if (source.empty() || source.back() != ')') return source;
  const auto open = source.rfind('(');
  return open == std::string::npos ? source : source.substr(open + 1, source.size() - open - 2);
}

core::Result<core::Machine> merge_machines(const std::vector<core::Machine>& parts) {
  try {
    return merge(parts);
  } catch (const std::exception& e) {
    return core::internal_error(fmt::format("merging machine descriptions failed: {}", e.what()));
  }
}

}  // namespace gpuvet::parsers
