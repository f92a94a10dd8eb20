// Fault overlays: each edits the simulator state the way the real defect would show up to NVML,
// sysfs and nvidia-smi. Parameters are validated here; errors are usage errors naming the fault.
#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>

#include "backends/sim/sim_state.hpp"

namespace gpuvet::sim {
namespace {

// The params of one fault, checked against what the fault accepts.
class Params {
 public:
  Params(const FaultSpec& fault, std::vector<std::string> required, std::vector<std::string> optional)
      : fault_(fault) {
    for (const auto& [key, value] : fault.params) {
      const bool known = std::find(required.begin(), required.end(), key) != required.end() ||
                         std::find(optional.begin(), optional.end(), key) != optional.end();
      if (!known) {
        error_ = fail(fmt::format("unknown parameter '{}' (accepted: {})", key, accepted(required, optional)));
        return;
      }
      values_[key] = value;
    }
    for (const auto& key : required) {
      if (!values_.count(key)) {
        error_ = fail(fmt::format("missing parameter '{}' (accepted: {})", key, accepted(required, optional)));
        return;
      }
    }
  }

  [[nodiscard]] const std::optional<core::Error>& error() const { return error_; }
  [[nodiscard]] bool has(const std::string& key) const { return values_.count(key) != 0; }
  [[nodiscard]] const std::string& text(const std::string& key) const { return values_.at(key); }

  // An integer in [lo, hi]; sets error() otherwise.
  int integer(const std::string& key, int lo, int hi, const std::string& what) {
    const std::string& s = values_.at(key);
    int v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size()) {
      error_ = fail(fmt::format("{}='{}' is not an integer", key, s));
    } else if (v < lo || v > hi) {
      error_ = fail(fmt::format("{}={} is out of range: {} {}..{}", key, v, what, lo, hi));
    }
    return v;
  }

  [[nodiscard]] core::Error fail(const std::string& what) const {
    return core::usage_error("fault '" + fault_.text + "': " + what);
  }
  // Records a failure found after construction; error() returns it.
  void reject(const std::string& what) { error_ = fail(what); }

 private:
  static std::string accepted(const std::vector<std::string>& required, const std::vector<std::string>& optional) {
    std::string out;
    for (const auto& k : required) out += (out.empty() ? "" : ", ") + k;
    for (const auto& k : optional) out += (out.empty() ? "[" : ", [") + k + "]";
    return out;
  }

  const FaultSpec& fault_;
  std::map<std::string, std::string> values_;
  std::optional<core::Error> error_;
};

// GPU indices in faults are the profile's (the machine as built), whatever earlier faults did:
// `--fault gpu-missing:gpu=1 --fault nvlink-down:gpu=7,...` means the profile's GPUs 1 and 7,
// even though NVML would show the second as GPU 6 once GPU 1 is gone.
// Reads gpu=N and returns it, or -1 with params.error() set.
int gpu_param(const SimState& state, Params& params) {
  const int n = params.integer("gpu", 0, static_cast<int>(state.gpus.size()) - 1, "this profile has GPUs");
  if (params.error()) return -1;
  if (!state.gpus[static_cast<std::size_t>(n)].present) {
    params.reject(fmt::format("GPU {} was already removed by a gpu-missing fault", n));
    return -1;
  }
  return n;
}

std::optional<core::Error> nvlink_down(SimState& state, const FaultSpec& fault) {
  Params params(fault, {"gpu", "link"}, {});
  if (params.error()) return params.error();
  const int g = gpu_param(state, params);
  if (params.error()) return params.error();
  SimGpu& gpu = state.gpus[static_cast<std::size_t>(g)];
  if (gpu.ports.empty()) return params.fail(gpu.model->display_name + " has no NVLink ports");
  const int link = params.integer("link", 0, static_cast<int>(gpu.ports.size()) - 1, "this GPU has links");
  if (params.error()) return params.error();
  SimPort& port = gpu.ports[static_cast<std::size_t>(link)];
  if (!port.connected) return params.fail(fmt::format("link {} of GPU {} is not connected to anything", link, fault.params[0].second));
  port.active = false;
  // A direct link is one cable: both ends go down together.
  if (port.remote == core::NvLinkRemote::gpu) {
    state.gpus[static_cast<std::size_t>(port.peer_gpu)].ports[static_cast<std::size_t>(port.peer_port)].active = false;
  }
  return std::nullopt;
}

std::optional<core::Error> pcie_degraded(SimState& state, const FaultSpec& fault) {
  Params params(fault, {"gpu"}, {"gen", "width"});
  if (params.error()) return params.error();
  const int g = gpu_param(state, params);
  if (params.error()) return params.error();
  SimGpu& gpu = state.gpus[static_cast<std::size_t>(g)];
  const int max_gen = gpu.model->pcie_gen;
  const int max_width = gpu.model->pcie_width;
  int gen = gpu.pcie_gen_current;
  int width = gpu.pcie_width_current;
  if (params.has("gen")) gen = params.integer("gen", 1, max_gen, "this GPU supports Gen");
  if (params.error()) return params.error();
  if (params.has("width")) width = params.integer("width", 1, max_width, "this GPU supports width x");
  if (params.error()) return params.error();
  if (width != 1 && width != 2 && width != 4 && width != 8 && width != 16) {
    return params.fail(fmt::format("width={} is not a PCIe link width (1, 2, 4, 8, 16)", width));
  }
  if (!params.has("gen") && !params.has("width")) gen = std::max(1, max_gen - 1);
  if (gen == max_gen && width == max_width) return params.fail("gen and width equal the maximum: nothing is degraded");
  gpu.pcie_gen_current = gen;
  gpu.pcie_width_current = width;
  return std::nullopt;
}

std::optional<core::Error> mixed_batch(SimState& state, const FaultSpec& fault) {
  Params params(fault, {"gpu"}, {"vbios", "part", "memory_gib"});
  if (params.error()) return params.error();
  if (!params.has("vbios") && !params.has("part") && !params.has("memory_gib")) {
    return params.fail("give at least one of vbios, part, memory_gib");
  }
  const int g = gpu_param(state, params);
  if (params.error()) return params.error();
  SimGpu& gpu = state.gpus[static_cast<std::size_t>(g)];
  if (params.has("memory_gib")) {
    const int gib = params.integer("memory_gib", 1, 4096, "memory in GiB");
    if (params.error()) return params.error();
    // Scale like the healthy card: an 80 GB H100 reports 81559 MiB, so 94 GB reports ~95831 MiB.
    const core::GpuModel& m = *gpu.model;
    gpu.memory_total_mib = m.memory_reported_mib.known()
                               ? static_cast<std::uint64_t>(std::llround(static_cast<double>(*m.memory_reported_mib) * gib / m.memory_gib))
                               : static_cast<std::uint64_t>(gib) * 1024;
  }
  if (params.has("vbios")) gpu.vbios = params.text("vbios");
  if (params.has("part")) gpu.board_part_number = params.text("part");
  return std::nullopt;
}

std::optional<core::Error> gpu_missing(SimState& state, const FaultSpec& fault) {
  Params params(fault, {"gpu"}, {});
  if (params.error()) return params.error();
  const int g = gpu_param(state, params);
  if (params.error()) return params.error();
  SimGpu& gpu = state.gpus[static_cast<std::size_t>(g)];
  gpu.present = false;
  state.notes.push_back(fmt::format("GPU at 0000:{:02x}:00.0 is on the PCI bus but not enumerated by the driver "
                                    "(attached_gpus counts it; the remaining GPUs are renumbered)",
                                    gpu.pci_bus));
  return std::nullopt;
}

std::optional<core::Error> numa_misplaced(SimState& state, const FaultSpec& fault) {
  Params params(fault, {"gpu", "node"}, {});
  if (params.error()) return params.error();
  const int g = gpu_param(state, params);
  if (params.error()) return params.error();
  const int node = params.integer("node", 0, 1 << 20, "NUMA node");
  if (params.error()) return params.error();
  bool exists = false;
  std::string ids;
  for (const auto& n : state.profile.numa_nodes) {
    exists = exists || n.id == node;
    ids += (ids.empty() ? "" : ", ") + std::to_string(n.id);
  }
  if (!exists) return params.fail(fmt::format("node={} does not exist (NUMA nodes: {})", node, ids));
  state.gpus[static_cast<std::size_t>(g)].numa_override = node;
  return std::nullopt;
}

}  // namespace

std::optional<core::Error> apply_fault(SimState& state, const FaultSpec& fault) {
  if (fault.name == "nvlink-down") return nvlink_down(state, fault);
  if (fault.name == "pcie-degraded") return pcie_degraded(state, fault);
  if (fault.name == "mixed-batch") return mixed_batch(state, fault);
  if (fault.name == "gpu-missing") return gpu_missing(state, fault);
  if (fault.name == "numa-misplaced") return numa_misplaced(state, fault);
  std::string names;
  for (const auto& f : list_faults()) names += (names.empty() ? "" : ", ") + f.name;
  return core::usage_error("fault '" + fault.text + "': unknown fault '" + fault.name + "' (known: " + names + ")");
}

}  // namespace gpuvet::sim
