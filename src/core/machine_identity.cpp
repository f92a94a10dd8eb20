// Builds the identity of a machine from its picture and the host's software versions.
#include "core/machine_identity.hpp"

#include <utility>

namespace gpuvet::core {

namespace {

// A machine source's own words for "where this came from": NVML on a live machine, the profile
// in the simulator, the pasted files otherwise.
std::string reported_by(const Machine& m) {
  if (m.simulated) return m.source;
  if (m.source.rfind("live", 0) == 0) return "NVML";
  return m.source;
}

// An absence with no reason of its own names the source that did not report it.
Reading<std::string> with_reason(const Reading<std::string>& v, const std::string& source) {
  if (v.known()) {
    if (v.value().empty()) return Reading<std::string>::absent("empty in " + source);
    return v;
  }
  const std::string why = v.reason();
  if (why.empty() || why == "not reported") return Reading<std::string>::absent("not reported by " + source);
  return v;
}

}  // namespace

MachineIdentity identity_of(const Machine& machine, std::vector<SoftwareVersion> host_software) {
  MachineIdentity id;
  id.source = machine.source;
  id.simulated = machine.simulated;
  const std::string source = reported_by(machine);
  id.hostname = with_reason(machine.hostname, source);
  id.software.push_back({"driver", "NVIDIA driver", with_reason(machine.driver_version, source), source});
  id.software.push_back({"cuda_driver_api", "CUDA (driver API version)", with_reason(machine.cuda_version, source), source});
  for (auto& s : host_software) id.software.push_back(std::move(s));
  for (const auto& g : machine.gpus) {
    id.gpus.push_back({g.index, with_reason(g.name, source), with_reason(g.serial, source), with_reason(g.uuid, source),
                       with_reason(g.pci_bus_id, source), with_reason(g.vbios, source),
                       with_reason(g.board_part_number, source)});
  }
  return id;
}

std::string identity_text(const Reading<std::string>& value) {
  if (value.known() && !value.value().empty()) return value.value();
  const std::string why = value.reason();
  return "unknown (" + (why.empty() ? std::string("not reported") : why) + ")";
}

}  // namespace gpuvet::core
