// Composes a machine profile with the GPU catalogue (build_state) and renders the result as the
// core::Machine a live probe would report (render_machine). Deterministic: ids derive from the seed.
#include "backends/sim/sim_state.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace gpuvet::sim {

bool uses_row_remapping(const core::GpuModel& model) {
  return model.architecture == "Ampere" || model.architecture == "Hopper" || model.architecture == "Ada Lovelace" ||
         model.architecture == "Blackwell";
}

namespace {

// splitmix64: a fixed, portable mix so the same seed gives the same ids on every build.
std::uint64_t mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

std::string make_uuid(std::uint64_t seed, int index) {
  const std::uint64_t hi = mix(seed * 1000 + static_cast<std::uint64_t>(index) * 2);
  const std::uint64_t lo = mix(seed * 1000 + static_cast<std::uint64_t>(index) * 2 + 1);
  return fmt::format("GPU-{:08x}-{:04x}-{:04x}-{:04x}-{:012x}", hi >> 32, (hi >> 16) & 0xffff, hi & 0xffff,
                     lo >> 48, lo & 0xffffffffffffULL);
}

std::string make_serial(std::uint64_t seed, int index) {
  return fmt::format("1{:012d}", mix(seed * 7919 + static_cast<std::uint64_t>(index)) % 1000000000000ULL);
}

std::string bus_id(int bus) { return fmt::format("0000:{:02x}:00.0", bus); }

// What nvidia-smi nvlink -s prints per link: the signalling rate, above the data rate for
// NVLink 2 (25.781) and NVLink 4/5 (26.562, 53.125); NVLink 3 prints the data rate (25, 14.062).
double reported_link_gbps(const core::GpuModel& model) {
  const double data = model.nvlink_link_gbps.value_or(0);
  switch (model.nvlink_generation) {
    case 2: return data * 1.03125;
    case 4:
    case 5: return data * 1.0625;
    default: return data;
  }
}

// MIG exists on the HBM data-centre parts from Ampere on (A100, A30, H100, H200, H20, B200...).
bool supports_mig(const core::GpuModel& model) {
  return model.memory_type.rfind("HBM", 0) == 0 && model.architecture != "Volta";
}

core::Error profile_error(const MachineProfile& p, const std::string& what) {
  return core::input_error("profile '" + p.name + "': " + what);
}

}  // namespace

core::Result<SimState> build_state(MachineProfile profile, const core::Catalog& catalog) {
  SimState state;
  state.profile = std::move(profile);
  const MachineProfile& p = state.profile;
  for (const auto& group : p.gpu_groups) {
    const core::GpuModel* model = catalog.by_id(group.model_id);
    if (!model) return profile_error(p, "GPU model '" + group.model_id + "' is not in the catalogue");
    for (int i = 0; i < group.count; ++i) {
      const int index = static_cast<int>(state.gpus.size());
      SimGpu gpu;
      gpu.model = model;
      gpu.pci_bus = group.pci_buses[static_cast<std::size_t>(i)];
      gpu.uuid = make_uuid(p.seed, index);
      gpu.serial = make_serial(p.seed, index);
      gpu.vbios = group.vbios.empty() ? model->vbios : group.vbios;
      gpu.board_part_number = group.board_part_number.empty() ? model->board_part_number : group.board_part_number;
      gpu.memory_total_mib = model->memory_reported_mib.value_or(static_cast<std::uint64_t>(model->memory_gib * 1024));
      gpu.pcie_gen_current = model->pcie_gen;
      gpu.pcie_width_current = model->pcie_width;
      gpu.ports.resize(static_cast<std::size_t>(model->nvlink_links));
      state.gpus.push_back(std::move(gpu));
    }
  }
  for (std::size_t h = 0; h < p.host_bridges.size(); ++h) {
    const auto& bridge = p.host_bridges[h];
    for (std::size_t s = 0; s < bridge.switches.size(); ++s) {
      for (int g : bridge.switches[s].gpus) {
        state.gpus[static_cast<std::size_t>(g)].host_bridge = static_cast<int>(h);
        state.gpus[static_cast<std::size_t>(g)].pcie_switch = static_cast<int>(s);
      }
    }
    for (int g : bridge.direct_gpus) state.gpus[static_cast<std::size_t>(g)].host_bridge = static_cast<int>(h);
  }
  if (p.fabric == NvlinkFabric::nvswitch) {
    for (auto& gpu : state.gpus) {
      if (gpu.ports.empty()) return profile_error(p, gpu.model->display_name + " has no NVLink for an NVSwitch fabric");
      for (auto& port : gpu.ports) port = {true, true, core::NvLinkRemote::nvswitch, -1, -1};
    }
  }
  // Direct links take the next free ports of each GPU, pair by pair, in profile order.
  std::vector<int> next_port(state.gpus.size(), 0);
  for (const auto& pair : p.nvlink_pairs) {
    auto& a = state.gpus[static_cast<std::size_t>(pair.gpu_a)];
    auto& b = state.gpus[static_cast<std::size_t>(pair.gpu_b)];
    for (int l = 0; l < pair.links; ++l) {
      int& pa = next_port[static_cast<std::size_t>(pair.gpu_a)];
      int& pb = next_port[static_cast<std::size_t>(pair.gpu_b)];
      if (pa >= static_cast<int>(a.ports.size()) || pb >= static_cast<int>(b.ports.size())) {
        return profile_error(p, fmt::format("NVLink pair {}-{} needs more ports than the GPUs have", pair.gpu_a, pair.gpu_b));
      }
      a.ports[static_cast<std::size_t>(pa)] = {true, true, core::NvLinkRemote::gpu, pair.gpu_b, pb};
      b.ports[static_cast<std::size_t>(pb)] = {true, true, core::NvLinkRemote::gpu, pair.gpu_a, pa};
      ++pa;
      ++pb;
    }
  }
  return state;
}

namespace {

int numa_of_bridge(const MachineProfile& p, int bridge) { return p.host_bridges[static_cast<std::size_t>(bridge)].numa_node; }

// The PCIe path between two devices placed at (bridge, switch), as nvidia-smi topo -m names it.
core::Link pcie_path(const MachineProfile& p, int bridge_a, int switch_a, int bridge_b, int switch_b) {
  if (bridge_a == bridge_b) {
    if (switch_a >= 0 && switch_a == switch_b) return {core::LinkKind::pix, 0};
    const bool both_switched = switch_a >= 0 && switch_b >= 0;
    if (both_switched && p.host_bridges[static_cast<std::size_t>(bridge_a)].upstream_switch) return {core::LinkKind::pxb, 0};
    return {core::LinkKind::phb, 0};
  }
  if (numa_of_bridge(p, bridge_a) == numa_of_bridge(p, bridge_b)) return {core::LinkKind::node, 0};
  return {core::LinkKind::sys, 0};
}

int active_ports(const SimGpu& gpu) {
  return static_cast<int>(std::count_if(gpu.ports.begin(), gpu.ports.end(), [](const SimPort& s) { return s.active; }));
}

core::Link gpu_pair_link(const SimState& state, int a, int b) {
  const SimGpu& ga = state.gpus[static_cast<std::size_t>(a)];
  const SimGpu& gb = state.gpus[static_cast<std::size_t>(b)];
  int nv = 0;
  if (state.profile.fabric == NvlinkFabric::nvswitch) {
    nv = std::min(active_ports(ga), active_ports(gb));
  } else {
    for (const auto& port : ga.ports) nv += (port.active && port.peer_gpu == b) ? 1 : 0;
  }
  if (nv > 0) return {core::LinkKind::nvlink, nv};
  return pcie_path(state.profile, ga.host_bridge, ga.pcie_switch, gb.host_bridge, gb.pcie_switch);
}

std::vector<core::NvLinkPort> render_ports(const SimState& state, const SimGpu& gpu) {
  std::vector<core::NvLinkPort> out;
  const double speed = reported_link_gbps(*gpu.model);
  for (std::size_t i = 0; i < gpu.ports.size(); ++i) {
    const SimPort& s = gpu.ports[i];
    core::NvLinkPort port;
    port.link = static_cast<int>(i);
    port.active = s.active;
    port.version = gpu.model->nvlink_generation;
    if (s.active) {
      port.speed_gbps = speed;
      port.remote = s.remote;
      if (s.remote == core::NvLinkRemote::gpu) {
        port.remote_pci_bus_id = bus_id(state.gpus[static_cast<std::size_t>(s.peer_gpu)].pci_bus);
      } else {
        port.remote_pci_bus_id = core::Reading<std::string>::absent("remote is an NVSwitch port");
      }
    } else {
      const std::string why = s.connected ? "link inactive" : "link inactive (nothing attached)";
      port.speed_gbps = core::Reading<double>::absent(why);
      port.remote = core::Reading<core::NvLinkRemote>::absent(why);
      port.remote_pci_bus_id = core::Reading<std::string>::absent(why);
    }
    out.push_back(std::move(port));
  }
  return out;
}

const NumaSpec* numa_spec(const MachineProfile& p, int id) {
  for (const auto& n : p.numa_nodes) {
    if (n.id == id) return &n;
  }
  return nullptr;
}

core::Gpu render_gpu(const SimState& state, const SimGpu& s, int index) {
  const core::GpuModel& m = *s.model;
  const MachineProfile& p = state.profile;
  const bool geforce = m.card_class == core::CardClass::consumer;
  core::Gpu g;
  g.index = index;
  g.name = m.nvml_name;
  g.uuid = s.uuid;
  g.serial = geforce ? core::Reading<std::string>::absent("N/A: GeForce boards report no serial number") : s.serial;
  g.board_part_number = s.board_part_number.empty()
                            ? core::Reading<std::string>::absent(geforce ? "N/A: GeForce boards report no part number"
                                                                         : "not in the catalogue")
                            : core::Reading<std::string>(s.board_part_number);
  g.vbios = s.vbios.empty() ? core::Reading<std::string>::absent("not in the catalogue") : core::Reading<std::string>(s.vbios);
  g.inforom_image = core::Reading<std::string>::absent("not simulated");
  g.architecture = m.architecture;
  g.compute_capability = m.compute_capability;
  g.memory_total_mib = s.memory_total_mib;
  g.pci_bus_id = bus_id(s.pci_bus);
  g.pcie = {s.pcie_gen_current, m.pcie_gen, s.pcie_width_current, m.pcie_width};
  const int numa = s.numa_override.value_or(numa_of_bridge(p, s.host_bridge));
  g.numa_node = numa;
  if (const NumaSpec* n = numa_spec(p, numa)) g.cpu_affinity = n->cpus;
  g.power_limit_w = m.tdp_w;
  g.max_sm_clock_mhz = m.max_sm_clock_mhz;
  g.max_mem_clock_mhz = m.max_mem_clock_mhz;
  g.ecc_enabled = m.card_class == core::CardClass::training || m.card_class == core::CardClass::inference;
  g.mig_enabled = supports_mig(m) ? core::Reading<bool>(false) : core::Reading<bool>::absent("N/A: no MIG on this model");
  g.virtualization_mode = std::string("None");
  const bool fabric_reported = p.fabric == NvlinkFabric::nvswitch && (m.architecture == "Hopper" || m.architecture == "Blackwell");
  g.fabric_state = fabric_reported ? core::Reading<std::string>(std::string("Completed"))
                                   : core::Reading<std::string>::absent("N/A: no NVSwitch fabric manager state on this machine");
  g.idle = false;  // simulated GPUs run a load: P0, no idle clocks-event reason
  g.performance_state = std::string("P0");
  g.clocks_event_reasons = std::vector<std::string>{};
  g.nvlinks = render_ports(state, s);
  core::MemoryHealth& h = g.memory_health;
  if (uses_row_remapping(m)) {
    h.remapped_rows_correctable = 0;
    h.remapped_rows_uncorrectable = 0;
    h.remap_pending = false;
    h.remap_failure = false;
    const std::string why = "N/A: row remapping replaces page retirement from Ampere on";
    h.retired_pages_sbe = core::Reading<int>::absent(why);
    h.retired_pages_dbe = core::Reading<int>::absent(why);
    h.retired_pages_pending = core::Reading<bool>::absent(why);
  } else {
    const std::string why = "N/A: no row remapping before Ampere";
    h.remapped_rows_correctable = core::Reading<int>::absent(why);
    h.remapped_rows_uncorrectable = core::Reading<int>::absent(why);
    h.remap_pending = core::Reading<bool>::absent(why);
    h.remap_failure = core::Reading<bool>::absent(why);
    h.retired_pages_sbe = 0;
    h.retired_pages_dbe = 0;
    h.retired_pages_pending = false;
  }
  return g;
}

}  // namespace

core::Machine render_machine(const SimState& state) {
  const MachineProfile& p = state.profile;
  core::Machine m;
  m.source = "simulated: " + p.name;
  m.simulated = true;
  m.hostname = p.hostname;
  m.driver_version = p.driver_version;
  m.cuda_version = p.cuda_version;
  m.attached_gpus = static_cast<int>(state.gpus.size());
  std::vector<int> present;  // original indices, in order
  for (std::size_t i = 0; i < state.gpus.size(); ++i) {
    if (state.gpus[i].present) present.push_back(static_cast<int>(i));
  }
  for (std::size_t pos = 0; pos < present.size(); ++pos) {
    m.gpus.push_back(render_gpu(state, state.gpus[static_cast<std::size_t>(present[pos])], static_cast<int>(pos)));
  }
  core::LinkMatrix links(static_cast<int>(present.size()));
  for (std::size_t a = 0; a < present.size(); ++a) {
    for (std::size_t b = a + 1; b < present.size(); ++b) {
      links.set_symmetric(static_cast<int>(a), static_cast<int>(b), gpu_pair_link(state, present[a], present[b]));
    }
  }
  m.links = links;
  m.nvswitch_present = p.fabric == NvlinkFabric::nvswitch;
  std::vector<core::Nic> nics;
  for (std::size_t n = 0; n < p.nics.size(); ++n) {
    int bridge = 0;
    int sw = -1;
    for (std::size_t h = 0; h < p.host_bridges.size(); ++h) {
      const auto& hb = p.host_bridges[h];
      for (std::size_t s = 0; s < hb.switches.size(); ++s) {
        const auto& ids = hb.switches[s].nics;
        if (std::find(ids.begin(), ids.end(), static_cast<int>(n)) != ids.end()) {
          bridge = static_cast<int>(h);
          sw = static_cast<int>(s);
        }
      }
      if (std::find(hb.direct_nics.begin(), hb.direct_nics.end(), static_cast<int>(n)) != hb.direct_nics.end()) {
        bridge = static_cast<int>(h);
      }
    }
    core::Nic nic;
    nic.label = fmt::format("NIC{}", n);
    nic.name = p.nics[n].name;
    nic.rate_gbit_s = p.nics[n].rate_gbit_s;
    nic.state = p.nics[n].state;
    nic.link_layer = p.nics[n].link_layer;
    nic.pci_bus_id = bus_id(p.nics[n].pci_bus);
    nic.numa_node = numa_of_bridge(p, bridge);
    std::vector<core::Link> proximity;
    for (int g : present) {
      const SimGpu& gpu = state.gpus[static_cast<std::size_t>(g)];
      proximity.push_back(pcie_path(p, bridge, sw, gpu.host_bridge, gpu.pcie_switch));
    }
    nic.gpu_proximity = proximity;
    nics.push_back(std::move(nic));
  }
  m.nics = nics;
  std::vector<core::NumaNode> numa;
  for (const auto& n : p.numa_nodes) numa.push_back({n.id, n.cpus});
  m.numa_nodes = numa;
  m.notes = state.notes;
  return m;
}

core::Link sim_pair_link(const SimState& state, int a, int b) { return gpu_pair_link(state, a, b); }

int physical_numa_node(const SimState& state, int gpu) {
  return numa_of_bridge(state.profile, state.gpus[static_cast<std::size_t>(gpu)].host_bridge);
}

int reported_numa_node(const SimState& state, int gpu) {
  const SimGpu& g = state.gpus[static_cast<std::size_t>(gpu)];
  return g.numa_override.value_or(physical_numa_node(state, gpu));
}

}  // namespace gpuvet::sim
