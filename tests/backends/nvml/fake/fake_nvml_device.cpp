// Fake NVML device queries: PCIe, affinity, power, clocks, modes, memory health, field values,
// NVLink and topology. Symbols a pre-R470 driver lacks are left out under FAKE_NVML_MINIMAL.
#include <cmath>

#include "fake_common.hpp"

using namespace gpuvet::fake_nvml;  // NOLINT

namespace {

nvmlReturn_t remote_pci(nvmlDevice_t h, unsigned int link, nvmlPciInfo_t* pci, bool v2) {
  return with_device(h, false, [&](FakeDevice& d) {
    const FakePort* port = nullptr;
    if (nvmlReturn_t code = port_of(d, link, port); code != kSuccess) return code;
    if (!port->remote_bus_id) return kErrorNotSupported;
    return fill_pci(*port->remote_bus_id, pci, v2);
  });
}

nvmlReturn_t clocks_reasons(nvmlDevice_t h, unsigned long long* mask) {
  return with_device(h, false, [&](FakeDevice& d) {
    if (!d.reasons_mask) return kErrorNotSupported;
    *mask = *d.reasons_mask;
    return kSuccess;
  });
}

void fill_mask(const std::vector<unsigned long>& bits, unsigned int size, unsigned long* out) {
  for (unsigned i = 0; i < size; ++i) out[i] = i < bits.size() ? bits[i] : 0;
}

#ifndef FAKE_NVML_MINIMAL
// One field value for the NVLink ids the backend asks for; NOT_SUPPORTED for everything else.
void field_value(const FakeDevice& d, nvmlFieldValue_t& v) {
  v.timestamp = 0;
  v.latencyUsec = 0;
  v.valueType = kValueUnsignedInt;
  v.nvmlReturn = kErrorNotSupported;
  if (!d.ports) return;
  if (v.fieldId == kFieldNvLinkLinkCount) {
    v.value.uiVal = d.port_count;
    v.nvmlReturn = kSuccess;
    return;
  }
  const FakePort* port = nullptr;
  if (port_of(d, v.scopeId, port) != kSuccess) return;
  if (v.fieldId == kFieldNvLinkGetState && port->active) {
    v.value.uiVal = *port->active ? 1 : 0;
    v.nvmlReturn = kSuccess;
  } else if (v.fieldId == kFieldNvLinkGetSpeed && port->speed_mbps) {
    v.value.uiVal = *port->speed_mbps;
    v.nvmlReturn = kSuccess;
  } else if (v.fieldId == kFieldNvLinkGetVersion && port->version_code) {
    v.value.uiVal = *port->version_code;
    v.nvmlReturn = kSuccess;
  }
}
#endif

}  // namespace

// ---- PCIe, affinity, power, clocks -------------------------------------------------------------
// The current link follows the production model (idle Gen 1, pcie-degraded at=T) where it has one.
FAKE_EXPORT nvmlReturn_t nvmlDeviceGetCurrPcieLinkGeneration(nvmlDevice_t h, unsigned int* v) {
  return with_device(h, false, [&](FakeDevice& d) {
    const auto live = live_sample(globals().state, d).pcie_link_gen;
    return copy_value(live.known() ? live : d.gpu->pcie.gen_current, v);
  });
}
FAKE_EXPORT nvmlReturn_t nvmlDeviceGetMaxPcieLinkGeneration(nvmlDevice_t h, unsigned int* v) {
  return with_device(h, false, [&](FakeDevice& d) { return copy_value(d.gpu->pcie.gen_max, v); });
}
FAKE_EXPORT nvmlReturn_t nvmlDeviceGetCurrPcieLinkWidth(nvmlDevice_t h, unsigned int* v) {
  return with_device(h, false, [&](FakeDevice& d) {
    const auto live = live_sample(globals().state, d).pcie_link_width;
    return copy_value(live.known() ? live : d.gpu->pcie.width_current, v);
  });
}
FAKE_EXPORT nvmlReturn_t nvmlDeviceGetMaxPcieLinkWidth(nvmlDevice_t h, unsigned int* v) {
  return with_device(h, false, [&](FakeDevice& d) { return copy_value(d.gpu->pcie.width_max, v); });
}
FAKE_EXPORT nvmlReturn_t nvmlDeviceGetMemoryAffinity(nvmlDevice_t h, unsigned int size, unsigned long* nodes,
                                                      nvmlAffinityScope_t scope) {
  return with_device(h, false, [&](FakeDevice& d) {
    if (nodes == nullptr || size == 0 || scope > 1) return kErrorInvalidArgument;
    if (!d.gpu->numa_node.known() || d.gpu->numa_node.value() < 0) return kErrorNotSupported;
    const auto node = static_cast<unsigned>(d.gpu->numa_node.value());
    if (node / 64 >= size) return kErrorInsufficientSize;
    std::vector<unsigned long> bits(node / 64 + 1, 0);
    bits[node / 64] = 1UL << (node % 64);
    fill_mask(bits, size, nodes);
    return kSuccess;
  });
}
FAKE_EXPORT nvmlReturn_t nvmlDeviceGetCpuAffinity(nvmlDevice_t h, unsigned int size, unsigned long* cpus) {
  return with_device(h, false, [&](FakeDevice& d) {
    if (cpus == nullptr || size == 0) return kErrorInvalidArgument;
    if (!d.cpu_mask) return kErrorNotSupported;
    fill_mask(*d.cpu_mask, size, cpus);
    return kSuccess;
  });
}
FAKE_EXPORT nvmlReturn_t nvmlDeviceGetEnforcedPowerLimit(nvmlDevice_t h, unsigned int* mw) {
  return with_device(h, false, [&](FakeDevice& d) {
    if (!d.gpu->power_limit_w.known()) return kErrorNotSupported;
    *mw = static_cast<unsigned int>(std::lround(d.gpu->power_limit_w.value() * 1000.0));
    return kSuccess;
  });
}
FAKE_EXPORT nvmlReturn_t nvmlDeviceGetPowerManagementLimit(nvmlDevice_t h, unsigned int* mw) {
  return nvmlDeviceGetEnforcedPowerLimit(h, mw);
}
FAKE_EXPORT nvmlReturn_t nvmlDeviceGetMaxClockInfo(nvmlDevice_t h, nvmlClockType_t type, unsigned int* mhz) {
  return with_device(h, false, [&](FakeDevice& d) {
    if (type == 0 || type == kClockSm) return copy_value(d.gpu->max_sm_clock_mhz, mhz);  // graphics = SM here
    if (type == kClockMem) return copy_value(d.gpu->max_mem_clock_mhz, mhz);
    return kErrorNotSupported;
  });
}
FAKE_EXPORT nvmlReturn_t nvmlDeviceGetPerformanceState(nvmlDevice_t h, nvmlPstates_t* pstate) {
  return with_device(h, false, [&](FakeDevice& d) {
    if (pstate == nullptr) return kErrorInvalidArgument;
    *pstate = d.pstate.value_or(kPstateUnknown);
    return kSuccess;
  });
}
#ifndef FAKE_NVML_MINIMAL
FAKE_EXPORT nvmlReturn_t nvmlDeviceGetCurrentClocksEventReasons(nvmlDevice_t h, unsigned long long* mask) {
  return clocks_reasons(h, mask);
}
#endif
FAKE_EXPORT nvmlReturn_t nvmlDeviceGetCurrentClocksThrottleReasons(nvmlDevice_t h, unsigned long long* mask) {
  return clocks_reasons(h, mask);
}

// ---- modes and memory health ----------------------------------------------------------------------
FAKE_EXPORT nvmlReturn_t nvmlDeviceGetEccMode(nvmlDevice_t h, nvmlEnableState_t* current, nvmlEnableState_t* pending) {
  return with_device(h, false, [&](FakeDevice& d) {
    if (!d.gpu->ecc_enabled.known()) return kErrorNotSupported;
    *current = *pending = d.gpu->ecc_enabled.value() ? 1 : 0;
    return kSuccess;
  });
}
FAKE_EXPORT nvmlReturn_t nvmlDeviceGetMigMode(nvmlDevice_t h, unsigned int* current, unsigned int* pending) {
  return with_device(h, false, [&](FakeDevice& d) {
    if (!d.gpu->mig_enabled.known()) return kErrorNotSupported;
    *current = *pending = d.gpu->mig_enabled.value() ? 1u : 0u;
    return kSuccess;
  });
}
FAKE_EXPORT nvmlReturn_t nvmlDeviceGetVirtualizationMode(nvmlDevice_t h, nvmlGpuVirtualizationMode_t* mode) {
  return with_device(h, false, [&](FakeDevice& d) {
    if (!d.virtualization_mode) return kErrorNotSupported;
    *mode = *d.virtualization_mode;
    return kSuccess;
  });
}
#ifndef FAKE_NVML_MINIMAL
FAKE_EXPORT nvmlReturn_t nvmlDeviceGetRemappedRows(nvmlDevice_t h, unsigned int* corr, unsigned int* unc,
                                                    unsigned int* pending, unsigned int* failure) {
  return with_device(h, false, [&](FakeDevice& d) {
    const auto& m = d.gpu->memory_health;
    if (!m.remapped_rows_correctable.known() || !m.remapped_rows_uncorrectable.known() || !m.remap_pending.known() ||
        !m.remap_failure.known()) {
      return kErrorNotSupported;
    }
    if (corr == nullptr || unc == nullptr || pending == nullptr || failure == nullptr) return kErrorInvalidArgument;
    *corr = static_cast<unsigned int>(m.remapped_rows_correctable.value());
    *unc = static_cast<unsigned int>(m.remapped_rows_uncorrectable.value());
    *pending = m.remap_pending.value() ? 1u : 0u;
    *failure = m.remap_failure.value() ? 1u : 0u;
    // The production model's counts where it has them (they only grow from the inventory's).
    const auto live = live_sample(globals().state, d);
    if (live.remapped_rows_correctable.known()) *corr = static_cast<unsigned int>(*live.remapped_rows_correctable);
    if (live.remapped_rows_uncorrectable.known()) *unc = static_cast<unsigned int>(*live.remapped_rows_uncorrectable);
    if (live.remap_failed.known()) *failure = *live.remap_failed ? 1u : 0u;
    return kSuccess;
  });
}
#endif
FAKE_EXPORT nvmlReturn_t nvmlDeviceGetRetiredPages(nvmlDevice_t h, nvmlPageRetirementCause_t cause,
                                                    unsigned int* count, unsigned long long* addresses) {
  return with_device(h, false, [&](FakeDevice& d) {
    if (count == nullptr || (cause != kRetireMultipleSingleBit && cause != kRetireDoubleBit)) return kErrorInvalidArgument;
    const auto& pages = cause == kRetireDoubleBit ? d.gpu->memory_health.retired_pages_dbe
                                                  : d.gpu->memory_health.retired_pages_sbe;
    if (!pages.known()) return kErrorNotSupported;
    const auto n = static_cast<unsigned int>(pages.value());
    if (*count < n) {
      *count = n;
      return kErrorInsufficientSize;
    }
    if (n > 0 && addresses == nullptr) return kErrorInvalidArgument;
    for (unsigned i = 0; i < n; ++i) addresses[i] = 0x100000ULL * (i + 1);
    *count = n;
    return kSuccess;
  });
}
FAKE_EXPORT nvmlReturn_t nvmlDeviceGetRetiredPagesPendingStatus(nvmlDevice_t h, nvmlEnableState_t* pending) {
  return with_device(h, false, [&](FakeDevice& d) {
    if (!d.gpu->memory_health.retired_pages_pending.known()) return kErrorNotSupported;
    *pending = d.gpu->memory_health.retired_pages_pending.value() ? 1 : 0;
    return kSuccess;
  });
}

// ---- field values, NVLink, topology -----------------------------------------------------------------
#ifndef FAKE_NVML_MINIMAL
FAKE_EXPORT nvmlReturn_t nvmlDeviceGetFieldValues(nvmlDevice_t h, int count, nvmlFieldValue_t* values) {
  return with_device(h, false, [&](FakeDevice& d) {
    if (count < 0 || (count > 0 && values == nullptr)) return kErrorInvalidArgument;
    const gpuvet::core::TelemetrySample live = live_sample(globals().state, d);
    for (int i = 0; i < count; ++i) {
      field_value(d, values[i]);
      if (values[i].nvmlReturn != kSuccess) live_field_value(live, values[i]);
    }
    return kSuccess;
  });
}
#endif
FAKE_EXPORT nvmlReturn_t nvmlDeviceGetNvLinkState(nvmlDevice_t h, unsigned int link, nvmlEnableState_t* active) {
  return with_device(h, false, [&](FakeDevice& d) {
    const FakePort* port = nullptr;
    if (nvmlReturn_t code = port_of(d, link, port); code != kSuccess) return code;
    if (!port->active) return kErrorUnknown;
    *active = *port->active ? 1 : 0;
    return kSuccess;
  });
}
FAKE_EXPORT nvmlReturn_t nvmlDeviceGetNvLinkVersion(nvmlDevice_t h, unsigned int link, unsigned int* version) {
  return with_device(h, false, [&](FakeDevice& d) {
    const FakePort* port = nullptr;
    if (nvmlReturn_t code = port_of(d, link, port); code != kSuccess) return code;
    if (!port->version_code) return kErrorNotSupported;
    *version = *port->version_code;
    return kSuccess;
  });
}
#ifndef FAKE_NVML_MINIMAL
FAKE_EXPORT nvmlReturn_t nvmlDeviceGetNvLinkRemotePciInfo_v2(nvmlDevice_t h, unsigned int link, nvmlPciInfo_t* pci) {
  return remote_pci(h, link, pci, true);
}
#endif
FAKE_EXPORT nvmlReturn_t nvmlDeviceGetNvLinkRemotePciInfo(nvmlDevice_t h, unsigned int link, nvmlPciInfo_t* pci) {
  return remote_pci(h, link, pci, false);
}
#ifndef FAKE_NVML_MINIMAL
FAKE_EXPORT nvmlReturn_t nvmlDeviceGetNvLinkRemoteDeviceType(nvmlDevice_t h, unsigned int link,
                                                              nvmlIntNvLinkDeviceType_t* type) {
  return with_device(h, false, [&](FakeDevice& d) {
    const FakePort* port = nullptr;
    if (nvmlReturn_t code = port_of(d, link, port); code != kSuccess) return code;
    if (!port->remote_type) return kErrorNotSupported;
    *type = *port->remote_type;
    return kSuccess;
  });
}
FAKE_EXPORT nvmlReturn_t nvmlDeviceGetTopologyCommonAncestor(nvmlDevice_t a, nvmlDevice_t b,
                                                              nvmlGpuTopologyLevel_t* level) {
  return with_device(a, false, [&](FakeDevice& da) {
    FakeDevice* db = find_device(b);
    if (db == nullptr || level == nullptr) return kErrorInvalidArgument;
    if (db->lost) return kErrorGpuIsLost;
    *level = topology_level(globals().state, da.position, db->position);
    return kSuccess;
  });
}
#endif
