// The one entry point to libnvidia-ml: a symbol table resolved with dlopen/dlsym, each entry
// trying versioned names in order and marked required or optional. Only the NVML reader uses it.
// A missing optional symbol leaves its pointer null; readings that need it become absent.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "backends/nvml/nvml_types.hpp"
#include "core/error.hpp"
#include "platform/dynamic_library.hpp"

namespace gpuvet::nvml {

// X(member, C signature, required|optional, exported names to try in order...)
// Read-only queries only: nothing that changes GPU or driver state may ever be listed here.
#define GPUVET_NVML_SYMBOLS(X)                                                                                \
  X(init, nvmlReturn_t(), required, "nvmlInit_v2", "nvmlInit")                                               \
  X(shutdown, nvmlReturn_t(), required, "nvmlShutdown")                                                      \
  X(device_get_count, nvmlReturn_t(unsigned int*), required, "nvmlDeviceGetCount_v2", "nvmlDeviceGetCount")  \
  X(device_get_handle_by_index, nvmlReturn_t(unsigned int, nvmlDevice_t*), required,                         \
    "nvmlDeviceGetHandleByIndex_v2", "nvmlDeviceGetHandleByIndex")                                           \
  X(error_string, const char*(nvmlReturn_t), optional, "nvmlErrorString")                                    \
  X(system_get_driver_version, nvmlReturn_t(char*, unsigned int), optional, "nvmlSystemGetDriverVersion")    \
  X(system_get_cuda_driver_version, nvmlReturn_t(int*), optional, "nvmlSystemGetCudaDriverVersion_v2",       \
    "nvmlSystemGetCudaDriverVersion")                                                                        \
  X(device_get_name, nvmlReturn_t(nvmlDevice_t, char*, unsigned int), optional, "nvmlDeviceGetName")         \
  X(device_get_uuid, nvmlReturn_t(nvmlDevice_t, char*, unsigned int), optional, "nvmlDeviceGetUUID")         \
  X(device_get_serial, nvmlReturn_t(nvmlDevice_t, char*, unsigned int), optional, "nvmlDeviceGetSerial")     \
  X(device_get_board_part_number, nvmlReturn_t(nvmlDevice_t, char*, unsigned int), optional,                 \
    "nvmlDeviceGetBoardPartNumber")                                                                          \
  X(device_get_vbios_version, nvmlReturn_t(nvmlDevice_t, char*, unsigned int), optional,                     \
    "nvmlDeviceGetVbiosVersion")                                                                             \
  X(device_get_inforom_image_version, nvmlReturn_t(nvmlDevice_t, char*, unsigned int), optional,             \
    "nvmlDeviceGetInforomImageVersion")                                                                      \
  X(device_get_architecture, nvmlReturn_t(nvmlDevice_t, nvmlDeviceArchitecture_t*), optional,                \
    "nvmlDeviceGetArchitecture")                                                                             \
  X(device_get_cuda_compute_capability, nvmlReturn_t(nvmlDevice_t, int*, int*), optional,                    \
    "nvmlDeviceGetCudaComputeCapability")                                                                    \
  X(device_get_memory_info_v2, nvmlReturn_t(nvmlDevice_t, nvmlMemory_v2_t*), optional,                       \
    "nvmlDeviceGetMemoryInfo_v2")                                                                            \
  X(device_get_memory_info, nvmlReturn_t(nvmlDevice_t, nvmlMemory_t*), optional, "nvmlDeviceGetMemoryInfo")  \
  X(device_get_pci_info, nvmlReturn_t(nvmlDevice_t, nvmlPciInfo_t*), optional, "nvmlDeviceGetPciInfo_v3",    \
    "nvmlDeviceGetPciInfo_v2", "nvmlDeviceGetPciInfo")                                                       \
  X(device_get_curr_pcie_link_generation, nvmlReturn_t(nvmlDevice_t, unsigned int*), optional,               \
    "nvmlDeviceGetCurrPcieLinkGeneration")                                                                   \
  X(device_get_max_pcie_link_generation, nvmlReturn_t(nvmlDevice_t, unsigned int*), optional,                \
    "nvmlDeviceGetMaxPcieLinkGeneration")                                                                    \
  X(device_get_curr_pcie_link_width, nvmlReturn_t(nvmlDevice_t, unsigned int*), optional,                    \
    "nvmlDeviceGetCurrPcieLinkWidth")                                                                        \
  X(device_get_max_pcie_link_width, nvmlReturn_t(nvmlDevice_t, unsigned int*), optional,                     \
    "nvmlDeviceGetMaxPcieLinkWidth")                                                                         \
  X(device_get_memory_affinity, nvmlReturn_t(nvmlDevice_t, unsigned int, unsigned long*, nvmlAffinityScope_t), \
    optional, "nvmlDeviceGetMemoryAffinity")                                                                 \
  X(device_get_cpu_affinity, nvmlReturn_t(nvmlDevice_t, unsigned int, unsigned long*), optional,             \
    "nvmlDeviceGetCpuAffinity")                                                                              \
  X(device_get_enforced_power_limit, nvmlReturn_t(nvmlDevice_t, unsigned int*), optional,                    \
    "nvmlDeviceGetEnforcedPowerLimit")                                                                       \
  X(device_get_power_management_limit, nvmlReturn_t(nvmlDevice_t, unsigned int*), optional,                  \
    "nvmlDeviceGetPowerManagementLimit")                                                                     \
  X(device_get_max_clock_info, nvmlReturn_t(nvmlDevice_t, nvmlClockType_t, unsigned int*), optional,         \
    "nvmlDeviceGetMaxClockInfo")                                                                             \
  X(device_get_ecc_mode, nvmlReturn_t(nvmlDevice_t, nvmlEnableState_t*, nvmlEnableState_t*), optional,       \
    "nvmlDeviceGetEccMode")                                                                                  \
  X(device_get_mig_mode, nvmlReturn_t(nvmlDevice_t, unsigned int*, unsigned int*), optional,                 \
    "nvmlDeviceGetMigMode")                                                                                  \
  X(device_get_virtualization_mode, nvmlReturn_t(nvmlDevice_t, nvmlGpuVirtualizationMode_t*), optional,      \
    "nvmlDeviceGetVirtualizationMode")                                                                       \
  X(device_get_performance_state, nvmlReturn_t(nvmlDevice_t, nvmlPstates_t*), optional,                     \
    "nvmlDeviceGetPerformanceState")                                                                         \
  X(device_get_current_clocks_event_reasons, nvmlReturn_t(nvmlDevice_t, unsigned long long*), optional,      \
    "nvmlDeviceGetCurrentClocksEventReasons", "nvmlDeviceGetCurrentClocksThrottleReasons")                   \
  X(device_get_remapped_rows, nvmlReturn_t(nvmlDevice_t, unsigned int*, unsigned int*, unsigned int*,        \
                                           unsigned int*),                                                   \
    optional, "nvmlDeviceGetRemappedRows")                                                                   \
  X(device_get_retired_pages,                                                                                \
    nvmlReturn_t(nvmlDevice_t, nvmlPageRetirementCause_t, unsigned int*, unsigned long long*), optional,     \
    "nvmlDeviceGetRetiredPages")                                                                             \
  X(device_get_retired_pages_pending_status, nvmlReturn_t(nvmlDevice_t, nvmlEnableState_t*), optional,       \
    "nvmlDeviceGetRetiredPagesPendingStatus")                                                                \
  X(device_get_field_values, nvmlReturn_t(nvmlDevice_t, int, nvmlFieldValue_t*), optional,                   \
    "nvmlDeviceGetFieldValues")                                                                              \
  X(device_get_nvlink_state, nvmlReturn_t(nvmlDevice_t, unsigned int, nvmlEnableState_t*), optional,         \
    "nvmlDeviceGetNvLinkState")                                                                              \
  X(device_get_nvlink_version, nvmlReturn_t(nvmlDevice_t, unsigned int, unsigned int*), optional,            \
    "nvmlDeviceGetNvLinkVersion")                                                                            \
  X(device_get_nvlink_remote_pci_info, nvmlReturn_t(nvmlDevice_t, unsigned int, nvmlPciInfo_t*), optional,   \
    "nvmlDeviceGetNvLinkRemotePciInfo_v2", "nvmlDeviceGetNvLinkRemotePciInfo")                               \
  X(device_get_nvlink_remote_device_type, nvmlReturn_t(nvmlDevice_t, unsigned int, nvmlIntNvLinkDeviceType_t*), \
    optional, "nvmlDeviceGetNvLinkRemoteDeviceType")                                                         \
  X(device_get_topology_common_ancestor, nvmlReturn_t(nvmlDevice_t, nvmlDevice_t, nvmlGpuTopologyLevel_t*),  \
    optional, "nvmlDeviceGetTopologyCommonAncestor")                                                         \
  /* Burn-in telemetry (nvml_telemetry_source.cpp). */                                                       \
  X(device_get_temperature, nvmlReturn_t(nvmlDevice_t, nvmlTemperatureSensors_t, unsigned int*), optional,   \
    "nvmlDeviceGetTemperature")                                                                              \
  X(device_get_temperature_threshold, nvmlReturn_t(nvmlDevice_t, nvmlTemperatureThresholds_t, unsigned int*), \
    optional, "nvmlDeviceGetTemperatureThreshold")                                                           \
  X(device_get_clock_info, nvmlReturn_t(nvmlDevice_t, nvmlClockType_t, unsigned int*), optional,             \
    "nvmlDeviceGetClockInfo")                                                                                \
  X(device_get_power_usage, nvmlReturn_t(nvmlDevice_t, unsigned int*), optional, "nvmlDeviceGetPowerUsage")  \
  X(device_get_total_energy_consumption, nvmlReturn_t(nvmlDevice_t, unsigned long long*), optional,          \
    "nvmlDeviceGetTotalEnergyConsumption")                                                                   \
  X(device_get_utilization_rates, nvmlReturn_t(nvmlDevice_t, nvmlUtilization_t*), optional,                  \
    "nvmlDeviceGetUtilizationRates")                                                                         \
  X(device_get_total_ecc_errors,                                                                             \
    nvmlReturn_t(nvmlDevice_t, nvmlMemoryErrorType_t, nvmlEccCounterType_t, unsigned long long*), optional,  \
    "nvmlDeviceGetTotalEccErrors")                                                                           \
  X(device_get_nvlink_error_counter,                                                                         \
    nvmlReturn_t(nvmlDevice_t, unsigned int, nvmlNvLinkErrorCounter_t, unsigned long long*), optional,       \
    "nvmlDeviceGetNvLinkErrorCounter")                                                                       \
  X(device_get_supported_event_types, nvmlReturn_t(nvmlDevice_t, unsigned long long*), optional,             \
    "nvmlDeviceGetSupportedEventTypes")                                                                      \
  /* Event subscription for Xids: creates a listener, changes no GPU state. */                               \
  X(event_set_create, nvmlReturn_t(nvmlEventSet_t*), optional, "nvmlEventSetCreate")                         \
  X(device_register_events, nvmlReturn_t(nvmlDevice_t, unsigned long long, nvmlEventSet_t), optional,        \
    "nvmlDeviceRegisterEvents")                                                                              \
  X(event_set_wait, nvmlReturn_t(nvmlEventSet_t, nvmlEventData_t*, unsigned int), optional,                  \
    "nvmlEventSetWait_v2", "nvmlEventSetWait")                                                               \
  X(event_set_free, nvmlReturn_t(nvmlEventSet_t), optional, "nvmlEventSetFree")

enum class Symbol {
#define GPUVET_NVML_ENUM(member, signature, requirement, ...) member,
  GPUVET_NVML_SYMBOLS(GPUVET_NVML_ENUM)
#undef GPUVET_NVML_ENUM
};

// Typed function pointers; null when an optional symbol is not exported.
struct Api {
#define GPUVET_NVML_MEMBER(member, signature, requirement, ...) std::add_pointer_t<signature> member = nullptr;
  GPUVET_NVML_SYMBOLS(GPUVET_NVML_MEMBER)
#undef GPUVET_NVML_MEMBER
};

struct SymbolInfo {
  Symbol symbol;
  bool required = false;
  std::vector<std::string_view> names;  // exported names, preferred first
};
// The whole table, in declaration order.
const std::vector<SymbolInfo>& symbol_table();

// "NVML_ERROR_NOT_SUPPORTED"; "NVML return code 1234" for codes this build does not know.
std::string return_code_name(nvmlReturn_t code);

class NvmlLibrary {
 public:
  // Opens `library_name` (soname or path) and resolves every symbol. Environment error when the
  // library cannot be loaded or a required symbol is missing (naming the symbol and the library).
  static core::Result<std::unique_ptr<NvmlLibrary>> load(const std::string& library_name);

  [[nodiscard]] const Api& api() const { return api_; }
  [[nodiscard]] const std::string& name() const { return library_->name(); }
  [[nodiscard]] bool has(Symbol symbol) const;
  // The exported name that was resolved, or empty when missing.
  [[nodiscard]] std::string_view resolved_name(Symbol symbol) const;
  // "NVML symbol nvmlDeviceGetRemappedRows not exported by libnvidia-ml.so.1 (driver too old?)"
  [[nodiscard]] std::string missing_reason(Symbol symbol) const;
  // "NVML_ERROR_NOT_SUPPORTED (Not Supported)": the code's name and NVML's own words when available.
  [[nodiscard]] std::string describe(nvmlReturn_t code) const;

 private:
  explicit NvmlLibrary(std::shared_ptr<platform::DynamicLibrary> library) : library_(std::move(library)) {}

  std::shared_ptr<platform::DynamicLibrary> library_;
  Api api_;
  std::vector<std::string_view> resolved_;  // by Symbol; empty when missing
};

}  // namespace gpuvet::nvml
