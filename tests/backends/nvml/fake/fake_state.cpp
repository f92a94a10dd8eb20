// Turns a simulated core::Machine into raw NVML answers. Written independently of the backend's
// nvml_convert.cpp (the inverse mappings), so the contract suite checks one against the other.
#include "fake_state.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <sstream>

#include "backends/sim/burnin_model.hpp"
#include "backends/sim/burnin_sim_backends.hpp"
#include "backends/sim/simulator.hpp"

namespace gpuvet::fake_nvml {

namespace {

std::string env_or(const char* name, std::string fallback) {
  const char* v = std::getenv(name);
  return v != nullptr && *v != '\0' ? std::string(v) : fallback;
}

std::vector<std::string> split(const std::string& text, char sep) {
  std::vector<std::string> parts;
  std::stringstream in(text);
  for (std::string part; std::getline(in, part, sep);) {
    if (!part.empty()) parts.push_back(part);
  }
  return parts;
}

std::optional<std::vector<unsigned long>> parse_cpulist(const std::string& list) {
  std::vector<unsigned long> words;
  for (const auto& range : split(list, ',')) {
    int first = 0, last = 0;
    if (std::sscanf(range.c_str(), "%d-%d", &first, &last) != 2) {
      if (std::sscanf(range.c_str(), "%d", &first) != 1) return std::nullopt;
      last = first;
    }
    for (int cpu = first; cpu <= last; ++cpu) {
      const auto word = static_cast<size_t>(cpu / 64);
      if (words.size() <= word) words.resize(word + 1, 0);
      words[word] |= 1UL << (cpu % 64);
    }
  }
  return words;
}

std::optional<unsigned> architecture_code(const std::string& name) {
  static const std::map<std::string, unsigned> kCodes = {
      {"Kepler", 2}, {"Maxwell", 3}, {"Pascal", 4}, {"Volta", 5}, {"Turing", 6}, {"Ampere", 7},
      {"Ada Lovelace", 8}, {"Ada", 8}, {"Hopper", 9}, {"Blackwell", 10}, {"Rubin", 13}};
  const auto it = kCodes.find(name);
  return it == kCodes.end() ? nv::kArchUnknown : it->second;
}

std::uint64_t reason_bit(const std::string& name) {
  static const std::map<std::string, std::uint64_t> kBits = {
      {"Applications Clocks Setting", 0x2}, {"SW Power Cap", 0x4},          {"HW Slowdown", 0x8},
      {"Sync Boost", 0x10},                 {"SW Thermal Slowdown", 0x20},  {"HW Thermal Slowdown", 0x40},
      {"HW Power Brake Slowdown", 0x80},    {"Display Clock Setting", 0x100}};
  const auto it = kBits.find(name);
  return it == kBits.end() ? 0 : it->second;
}

int virtualization_code(const std::string& mode) {
  static const std::map<std::string, int> kModes = {
      {"None", 0}, {"Pass-Through", 1}, {"VGPU", 2}, {"Host VGPU", 3}, {"Host VSGA", 4}};
  const auto it = kModes.find(mode);
  return it == kModes.end() ? 99 : it->second;
}

// Marketing NVLink generation -> nvmlNvlinkVersion_t (1.0=1, 2.0=2, 3.0=4, 4.0=6, 5.0=7, 6.0=8).
std::optional<unsigned> version_code(int generation) {
  switch (generation) {
    case 1: return 1u;
    case 2: return 2u;
    case 3: return 4u;
    case 4: return 6u;
    case 5: return 7u;
    case 6: return 8u;
    default: return std::nullopt;
  }
}

int remote_type_code(core::NvLinkRemote remote) {
  switch (remote) {
    case core::NvLinkRemote::gpu: return nv::kNvLinkDeviceGpu;
    case core::NvLinkRemote::nvswitch: return nv::kNvLinkDeviceSwitch;
    case core::NvLinkRemote::cpu: return nv::kNvLinkDeviceIbmNpu;
    case core::NvLinkRemote::unknown: return nv::kNvLinkDeviceUnknown;
  }
  return nv::kNvLinkDeviceUnknown;
}

// Peer GPU for a GPU-remote port the simulator gave no bus id: spend the NV# of each peer pair in order.
std::optional<std::string> next_peer_bus_id(const core::Machine& m, int self, std::vector<int>& used) {
  if (!m.links.known()) return std::nullopt;
  for (int peer = 0; peer < static_cast<int>(m.gpus.size()); ++peer) {
    const auto& link = m.links->at(self, peer);
    if (peer == self || !link.is_nvlink() || used[static_cast<size_t>(peer)] >= link.nvlink_count) continue;
    ++used[static_cast<size_t>(peer)];
    if (!m.gpus[static_cast<size_t>(peer)].pci_bus_id.known()) return std::nullopt;
    return m.gpus[static_cast<size_t>(peer)].pci_bus_id.value();
  }
  return std::nullopt;
}

FakePort make_port(const core::Machine& m, int self, const core::NvLinkPort& p, std::vector<int>& used) {
  FakePort port;
  port.link = p.link;
  if (p.active.known()) port.active = p.active.value();
  if (p.version.known()) port.version_code = version_code(p.version.value());
  if (p.speed_gbps.known()) port.speed_mbps = static_cast<unsigned>(std::lround(p.speed_gbps.value() * 1000.0));
  if (p.remote.known()) port.remote_type = remote_type_code(p.remote.value());
  if (p.remote_pci_bus_id.known()) {
    port.remote_bus_id = core::normalize_pci_bus_id(p.remote_pci_bus_id.value());
  } else if (p.remote.known() && p.remote.value() == core::NvLinkRemote::nvswitch) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "0000:%02x:00.0", 0xc0 + p.link % 4);  // HGX boards: 4 NVSwitches
    port.remote_bus_id = buf;
  } else if (p.remote.known() && p.remote.value() == core::NvLinkRemote::gpu) {
    port.remote_bus_id = next_peer_bus_id(m, self, used);
  }
  return port;
}

}  // namespace

bool parse_bus_id(const std::string& bus_id, unsigned& domain, unsigned& bus, unsigned& device) {
  unsigned fn = 0;
  return std::sscanf(bus_id.c_str(), "%x:%x:%x.%x", &domain, &bus, &device, &fn) == 4;
}

std::optional<std::string> build_state(FakeState& state) {
  std::vector<sim::FaultSpec> faults;
  for (const auto& text : split(env_or("GPUVET_FAKE_NVML_FAULTS", ""), ';')) {
    auto fault = sim::parse_fault(text);
    if (!fault) return fault.error().message;
    faults.push_back(fault.value());
  }
  auto machine = sim::simulate_machine(env_or("GPUVET_FAKE_NVML_PROFILE", std::string(sim::kDefaultProfile)), faults);
  if (!machine) return machine.error().message;
  state.machine = std::move(machine).value();
  auto production = sim::make_sim_production(env_or("GPUVET_FAKE_NVML_PROFILE", std::string(sim::kDefaultProfile)),
                                             faults, 1);
  if (!production) return production.error().message;
  FakeTelemetry& live = state.telemetry;
  live = FakeTelemetry{};
  live.model = production.value().model;
  live.started = std::chrono::steady_clock::now();
  live.speed = std::atof(env_or("GPUVET_FAKE_NVML_SPEED", "1").c_str());
  if (!(live.speed > 0)) return "GPUVET_FAKE_NVML_SPEED must be a positive number";
  live.hang_gpu = std::atoi(env_or("GPUVET_FAKE_NVML_HANG_GPU", "-1").c_str());
  live.hang_after_s = std::atof(env_or("GPUVET_FAKE_NVML_HANG_AFTER_S", "0").c_str());
  live.hang_s = std::atof(env_or("GPUVET_FAKE_NVML_HANG_S", "86400").c_str());
  const auto lost = split(env_or("GPUVET_FAKE_NVML_LOST_GPUS", ""), ',');
  const auto& m = state.machine;
  state.devices.clear();
  for (size_t i = 0; i < m.gpus.size(); ++i) {
    const core::Gpu& g = m.gpus[i];
    FakeDevice d;
    d.gpu = &g;
    d.position = static_cast<int>(i);
    for (const auto& l : lost) d.lost = d.lost || std::atoi(l.c_str()) == static_cast<int>(i);
    if (g.architecture.known()) d.architecture = architecture_code(g.architecture.value());
    int major = 0, minor = 0;
    if (g.compute_capability.known() && std::sscanf(g.compute_capability->c_str(), "%d.%d", &major, &minor) == 2) {
      d.compute_capability = std::make_pair(major, minor);
    }
    if (g.idle.known() || g.clocks_event_reasons.known()) {
      std::uint64_t mask = g.idle.value_or(false) ? nv::kReasonGpuIdle : 0;
      for (const auto& name : g.clocks_event_reasons.value_or({})) mask |= reason_bit(name);
      d.reasons_mask = mask;
    }
    int pstate = 0;
    if (g.performance_state.known() && std::sscanf(g.performance_state->c_str(), "P%d", &pstate) == 1) d.pstate = pstate;
    if (g.cpu_affinity.known()) d.cpu_mask = parse_cpulist(g.cpu_affinity.value());
    if (g.virtualization_mode.known()) d.virtualization_mode = virtualization_code(g.virtualization_mode.value());
    if (g.nvlinks.known()) {
      std::vector<int> used(m.gpus.size(), 0);
      d.ports.emplace();
      for (const auto& p : g.nvlinks.value()) {
        d.ports->push_back(make_port(m, static_cast<int>(i), p, used));
        d.port_count = std::max(d.port_count, static_cast<unsigned>(p.link + 1));
      }
    }
    state.devices.push_back(std::move(d));
  }
  return std::nullopt;
}

nv::nvmlGpuTopologyLevel_t topology_level(const FakeState& state, int a, int b) {
  const auto& m = state.machine;
  if (a == b) return nv::kTopologyInternal;
  const core::LinkKind kind = m.links.known() ? m.links->at(a, b).kind : core::LinkKind::sys;
  switch (kind) {
    case core::LinkKind::self: return nv::kTopologyInternal;
    case core::LinkKind::pix: return nv::kTopologySingle;
    case core::LinkKind::pxb: return nv::kTopologyMultiple;
    case core::LinkKind::phb: return nv::kTopologyHostbridge;
    case core::LinkKind::node: return nv::kTopologyNode;
    case core::LinkKind::sys: return nv::kTopologySystem;
    case core::LinkKind::nvlink: break;
  }
  // NVLink pairs still have a PCIe path; the simulator does not model it, so derive it from NUMA.
  const auto& ga = m.gpus[static_cast<size_t>(a)];
  const auto& gb = m.gpus[static_cast<size_t>(b)];
  const bool same_node = ga.numa_node.known() && gb.numa_node.known() && ga.numa_node.value() == gb.numa_node.value();
  return same_node ? nv::kTopologyNode : nv::kTopologySystem;
}

}  // namespace gpuvet::fake_nvml
