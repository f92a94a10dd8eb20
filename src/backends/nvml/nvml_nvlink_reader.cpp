// Reads a GPU's NVLink ports: count, state, version, remote end and speed.
// Hopper dropped the per-link _Lx field ids; fields 164-166 with scopeId = link replace them
// ([CL] R525), and NCCL reads state through field 165 on SM >= 9.0 (src/graph/xml.cc).
#include <algorithm>
#include <cctype>
#include <optional>
#include <string>
#include <fmt/format.h>

#include "backends/nvml/nvml_convert.hpp"
#include "backends/nvml/nvml_gpu_reader.hpp"

namespace gpuvet::nvml {

namespace {

std::optional<unsigned long long> field_as_u64(const nvmlFieldValue_t& field) {
  if (field.nvmlReturn != kSuccess) return std::nullopt;
  switch (field.valueType) {
    case kValueDouble: return static_cast<unsigned long long>(field.value.dVal);
    case kValueUnsignedInt: return field.value.uiVal;
    case kValueUnsignedLong: return field.value.ulVal;
    case kValueUnsignedLongLong: return field.value.ullVal;
    case kValueSignedLongLong: return static_cast<unsigned long long>(field.value.sllVal);
    case kValueSignedInt: return static_cast<unsigned long long>(field.value.siVal);
    case kValueUnsignedShort: return field.value.usVal;
    default: return std::nullopt;
  }
}

// One field value, or the absence reason.
core::Reading<unsigned long long> read_field(DeviceReader& r, unsigned int field_id, unsigned int scope) {
  auto field = r.query<nvmlFieldValue_t>(Symbol::device_get_field_values, [&](nvmlFieldValue_t& f) {
    f.fieldId = field_id;
    f.scopeId = scope;
    const nvmlReturn_t code = r.api().device_get_field_values(r.device(), 1, &f);
    return code == kSuccess ? f.nvmlReturn : code;
  });
  if (!field.known()) return core::Reading<unsigned long long>::absent(field.reason());
  auto value = field_as_u64(field.value());
  if (!value) return core::Reading<unsigned long long>::absent(fmt::format("field {} has value type {}", field_id, field->valueType));
  return *value;
}

bool hopper_or_newer(const core::Reading<std::string>& compute_capability) {
  if (!compute_capability.known()) return false;
  const std::string& cc = compute_capability.value();
  const auto dot = cc.find('.');
  try {
    return std::stoi(cc.substr(0, dot)) >= 9;
  } catch (...) {
    return false;
  }
}

bool printable(const std::string& s) {
  for (char c : s) {
    if (!std::isprint(static_cast<unsigned char>(c))) return false;
  }
  return !s.empty();
}

// Link count: field 91 when the library and GPU give it, else probe nvmlDeviceGetNvLinkState.
core::Reading<unsigned> link_count(DeviceReader& r) {
  if (r.library().has(Symbol::device_get_field_values)) {
    auto count = read_field(r, kFieldNvLinkLinkCount, 0);
    if (count.known()) return static_cast<unsigned>(std::min<unsigned long long>(count.value(), kNvLinkMaxLinks));
    if (r.lost()) return core::Reading<unsigned>::absent(count.reason());
  }
  if (auto why = r.unavailable(Symbol::device_get_nvlink_state)) return core::Reading<unsigned>::absent(*why);
  unsigned link = 0;
  for (; link < kNvLinkMaxLinks; ++link) {
    nvmlEnableState_t state = 0;
    const nvmlReturn_t code = r.api().device_get_nvlink_state(r.device(), link, &state);
    if (code == kSuccess) continue;
    if (code == kErrorNotSupported && link == 0) return core::Reading<unsigned>::absent(kNotSupported);
    if (code == kErrorInvalidArgument || code == kErrorNotSupported) break;
    return core::Reading<unsigned>::absent(r.failure(Symbol::device_get_nvlink_state, code));
  }
  return link;
}

// Port state. nullopt when the port's state cannot be read at all (the port is then skipped).
std::optional<core::Reading<bool>> port_state(DeviceReader& r, unsigned link, bool use_fields) {
  if (use_fields && r.library().has(Symbol::device_get_field_values)) {
    const auto state = read_field(r, kFieldNvLinkGetState, link);
    if (state.known()) return core::Reading<bool>(state.value() == 1 || state.value() == 2);  // 2 = sleep: trained
    if (r.lost()) return core::Reading<bool>::absent(state.reason());
  }
  const auto state = r.query<nvmlEnableState_t>(Symbol::device_get_nvlink_state, [&](nvmlEnableState_t& s) {
    return r.api().device_get_nvlink_state(r.device(), link, &s);
  });
  if (!state.known() && state.reason() == kNotSupported) return std::nullopt;
  return map_reading<bool>(state, [](nvmlEnableState_t s) { return s == kFeatureEnabled; });
}

void read_remote(DeviceReader& r, unsigned link, core::NvLinkPort& port) {
  const Api& api = r.api();
  const auto pci = r.query<nvmlPciInfo_t>(Symbol::device_get_nvlink_remote_pci_info, [&](nvmlPciInfo_t& p) {
    return api.device_get_nvlink_remote_pci_info(r.device(), link, &p);
  });
  if (pci.known()) {
    const bool v2 = r.library().resolved_name(Symbol::device_get_nvlink_remote_pci_info).ends_with("_v2");
    std::string bus_id = v2 ? bounded_string(pci->busId, sizeof pci->busId) : "";
    if (bus_id.empty()) bus_id = bounded_string(pci->busIdLegacy, sizeof pci->busIdLegacy);
    // The remote busId can be empty or garbage for remotes the OS does not show (NCCL xml.cc).
    port.remote_pci_bus_id = printable(bus_id) ? core::Reading<std::string>(core::normalize_pci_bus_id(bus_id))
                                               : core::Reading<std::string>::absent("NVML gave no remote PCI bus id");
  } else {
    port.remote_pci_bus_id = core::Reading<std::string>::absent(pci.reason());
  }
  const auto type = r.query<nvmlIntNvLinkDeviceType_t>(Symbol::device_get_nvlink_remote_device_type, [&](auto& t) {
    return api.device_get_nvlink_remote_device_type(r.device(), link, &t);
  });
  port.remote = map_reading<core::NvLinkRemote>(type, [](nvmlIntNvLinkDeviceType_t t) {
    switch (t) {
      case kNvLinkDeviceGpu: return core::NvLinkRemote::gpu;
      case kNvLinkDeviceIbmNpu: return core::NvLinkRemote::cpu;
      case kNvLinkDeviceSwitch: return core::NvLinkRemote::nvswitch;
      default: return core::NvLinkRemote::unknown;
    }
  });
}

}  // namespace

core::Reading<std::vector<core::NvLinkPort>> read_nvlinks(DeviceReader& r,
                                                          const core::Reading<std::string>& compute_capability) {
  using Ports = std::vector<core::NvLinkPort>;
  const auto count = link_count(r);
  if (!count.known()) return core::Reading<Ports>::absent(count.reason());
  const bool use_fields = hopper_or_newer(compute_capability);
  Ports ports;
  for (unsigned link = 0; link < count.value() && !r.lost(); ++link) {
    auto state = port_state(r, link, use_fields);
    if (!state) continue;
    core::NvLinkPort port;
    port.link = static_cast<int>(link);
    port.active = *state;
    const auto code = r.query<unsigned int>(Symbol::device_get_nvlink_version, [&](unsigned int& v) {
      return r.api().device_get_nvlink_version(r.device(), link, &v);
    });
    if (code.known()) {
      auto generation = nvlink_generation_from_code(code.value());
      port.version = generation ? core::Reading<int>(*generation)
                                : core::Reading<int>::absent(fmt::format("unknown NVLink version code {}", *code));
    } else {
      port.version = core::Reading<int>::absent(code.reason());
    }
    read_remote(r, link, port);
    const auto speed_mbps = read_field(r, kFieldNvLinkGetSpeed, link);
    port.speed_gbps = map_reading<double>(speed_mbps, [](unsigned long long mbps) { return static_cast<double>(mbps) / 1000.0; });
    ports.push_back(std::move(port));
  }
  if (r.lost()) return core::Reading<Ports>::absent(kGpuLost);
  return ports;
}

}  // namespace gpuvet::nvml
