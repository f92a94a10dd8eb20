// The subset of the NVML C ABI that gpuvet reads, declared by hand (no nvml.h at build time).
// Names, values and layouts follow NVIDIA's nvml.h (NVML_API_VERSION 13, x86-64 LP64); see
// ../shared/reference/nvml-facts.md. Only read-only entry points are ever declared here.
#pragma once

#include <cstddef>
#include <cstdint>

namespace gpuvet::nvml {

// NVML spells its ABI types this way; keeping the spelling makes them easy to check against nvml.h.
using nvmlReturn_t = int;  // a 4-byte C enum
struct nvmlDevice_st;
using nvmlDevice_t = nvmlDevice_st*;
using nvmlEnableState_t = int;             // NVML_FEATURE_DISABLED 0, ENABLED 1
using nvmlDeviceArchitecture_t = unsigned int;
using nvmlClockType_t = int;
using nvmlAffinityScope_t = unsigned int;
using nvmlGpuTopologyLevel_t = int;
using nvmlGpuVirtualizationMode_t = int;
using nvmlPageRetirementCause_t = int;
using nvmlIntNvLinkDeviceType_t = int;
using nvmlValueType_t = int;
using nvmlPstates_t = int;                 // 0 (P0, max performance) .. 15, 32 = unknown

// nvmlReturn_t values.
inline constexpr nvmlReturn_t kSuccess = 0;
inline constexpr nvmlReturn_t kErrorUninitialized = 1;
inline constexpr nvmlReturn_t kErrorInvalidArgument = 2;
inline constexpr nvmlReturn_t kErrorNotSupported = 3;
inline constexpr nvmlReturn_t kErrorNoPermission = 4;
inline constexpr nvmlReturn_t kErrorNotFound = 6;
inline constexpr nvmlReturn_t kErrorInsufficientSize = 7;
inline constexpr nvmlReturn_t kErrorDriverNotLoaded = 9;
inline constexpr nvmlReturn_t kErrorLibraryNotFound = 12;
inline constexpr nvmlReturn_t kErrorFunctionNotFound = 13;
inline constexpr nvmlReturn_t kErrorGpuIsLost = 15;
inline constexpr nvmlReturn_t kErrorArgumentVersionMismatch = 25;
inline constexpr nvmlReturn_t kErrorUnknown = 999;

inline constexpr nvmlEnableState_t kFeatureEnabled = 1;

// Buffer sizes (bytes, NUL included).
inline constexpr unsigned kDeviceNameV2BufferSize = 96;
inline constexpr unsigned kDeviceUuidV2BufferSize = 96;
inline constexpr unsigned kDeviceSerialBufferSize = 30;
inline constexpr unsigned kDevicePartNumberBufferSize = 80;
inline constexpr unsigned kDeviceVbiosVersionBufferSize = 32;
inline constexpr unsigned kDeviceInforomVersionBufferSize = 16;
inline constexpr unsigned kSystemDriverVersionBufferSize = 80;
inline constexpr unsigned kDevicePciBusIdBufferSize = 32;
inline constexpr unsigned kDevicePciBusIdBufferV2Size = 16;

// nvmlDeviceArchitecture_t values.
inline constexpr nvmlDeviceArchitecture_t kArchKepler = 2;
inline constexpr nvmlDeviceArchitecture_t kArchMaxwell = 3;
inline constexpr nvmlDeviceArchitecture_t kArchPascal = 4;
inline constexpr nvmlDeviceArchitecture_t kArchVolta = 5;
inline constexpr nvmlDeviceArchitecture_t kArchTuring = 6;
inline constexpr nvmlDeviceArchitecture_t kArchAmpere = 7;
inline constexpr nvmlDeviceArchitecture_t kArchAda = 8;
inline constexpr nvmlDeviceArchitecture_t kArchHopper = 9;
inline constexpr nvmlDeviceArchitecture_t kArchBlackwell = 10;
inline constexpr nvmlDeviceArchitecture_t kArchRubin = 13;
inline constexpr nvmlDeviceArchitecture_t kArchUnknown = 0xFFFFFFFFu;

inline constexpr nvmlPstates_t kPstateUnknown = 32;

// nvmlClockType_t values.
inline constexpr nvmlClockType_t kClockSm = 1;
inline constexpr nvmlClockType_t kClockMem = 2;

inline constexpr nvmlAffinityScope_t kAffinityScopeNode = 0;

// nvmlGpuTopologyLevel_t values.
inline constexpr nvmlGpuTopologyLevel_t kTopologyInternal = 0;
inline constexpr nvmlGpuTopologyLevel_t kTopologySingle = 10;
inline constexpr nvmlGpuTopologyLevel_t kTopologyMultiple = 20;
inline constexpr nvmlGpuTopologyLevel_t kTopologyHostbridge = 30;
inline constexpr nvmlGpuTopologyLevel_t kTopologyNode = 40;
inline constexpr nvmlGpuTopologyLevel_t kTopologySystem = 50;

// nvmlGpuVirtualizationMode_t values.
inline constexpr nvmlGpuVirtualizationMode_t kVirtNone = 0;
inline constexpr nvmlGpuVirtualizationMode_t kVirtPassthrough = 1;
inline constexpr nvmlGpuVirtualizationMode_t kVirtVgpu = 2;
inline constexpr nvmlGpuVirtualizationMode_t kVirtHostVgpu = 3;
inline constexpr nvmlGpuVirtualizationMode_t kVirtHostVsga = 4;

// nvmlPageRetirementCause_t values.
inline constexpr nvmlPageRetirementCause_t kRetireMultipleSingleBit = 0;
inline constexpr nvmlPageRetirementCause_t kRetireDoubleBit = 1;

// nvmlIntNvLinkDeviceType_t values.
inline constexpr nvmlIntNvLinkDeviceType_t kNvLinkDeviceGpu = 0x00;
inline constexpr nvmlIntNvLinkDeviceType_t kNvLinkDeviceIbmNpu = 0x01;
inline constexpr nvmlIntNvLinkDeviceType_t kNvLinkDeviceSwitch = 0x02;
inline constexpr nvmlIntNvLinkDeviceType_t kNvLinkDeviceUnknown = 0xFF;

// Compile-time ceiling of NVLink ports (NVML_NVLINK_MAX_LINKS in the 13.3 header).
inline constexpr unsigned kNvLinkMaxLinks = 36;

// Clocks-event-reason bits (nvmlClocksEventReason* / nvmlClocksThrottleReason*).
inline constexpr std::uint64_t kReasonGpuIdle = 0x1;
inline constexpr std::uint64_t kReasonApplicationsClocks = 0x2;
inline constexpr std::uint64_t kReasonSwPowerCap = 0x4;
inline constexpr std::uint64_t kReasonHwSlowdown = 0x8;
inline constexpr std::uint64_t kReasonSyncBoost = 0x10;
inline constexpr std::uint64_t kReasonSwThermalSlowdown = 0x20;
inline constexpr std::uint64_t kReasonHwThermalSlowdown = 0x40;
inline constexpr std::uint64_t kReasonHwPowerBrakeSlowdown = 0x80;
inline constexpr std::uint64_t kReasonDisplayClock = 0x100;

// Field ids for nvmlDeviceGetFieldValues.
inline constexpr unsigned kFieldNvLinkLinkCount = 91;     // NVML_FI_DEV_NVLINK_LINK_COUNT
inline constexpr unsigned kFieldNvLinkGetSpeed = 164;     // MBps, scopeId = link
inline constexpr unsigned kFieldNvLinkGetState = 165;     // scopeId = link: 0 inactive, 1 active, 2 sleep
inline constexpr unsigned kFieldNvLinkGetVersion = 166;   // scopeId = link

// nvmlValueType_t values.
inline constexpr nvmlValueType_t kValueDouble = 0;
inline constexpr nvmlValueType_t kValueUnsignedInt = 1;
inline constexpr nvmlValueType_t kValueUnsignedLong = 2;
inline constexpr nvmlValueType_t kValueUnsignedLongLong = 3;
inline constexpr nvmlValueType_t kValueSignedLongLong = 4;
inline constexpr nvmlValueType_t kValueSignedInt = 5;
inline constexpr nvmlValueType_t kValueUnsignedShort = 6;

struct nvmlMemory_t {
  unsigned long long total;
  unsigned long long free;
  unsigned long long used;
};
static_assert(sizeof(nvmlMemory_t) == 24);

struct nvmlMemory_v2_t {
  unsigned int version;
  unsigned long long total;
  unsigned long long reserved;
  unsigned long long free;
  unsigned long long used;
};
static_assert(sizeof(nvmlMemory_v2_t) == 40);
static_assert(offsetof(nvmlMemory_v2_t, total) == 8);
static_assert(offsetof(nvmlMemory_v2_t, used) == 32);
// NVML_STRUCT_VERSION(Memory, 2) = sizeof | 2 << 24. A literal 2 is rejected by the driver
// (nvidia-settings issue #78).
inline constexpr unsigned int kMemoryV2Version = static_cast<unsigned int>(sizeof(nvmlMemory_v2_t)) | (2u << 24);
static_assert(kMemoryV2Version == 0x02000028u);

// The 68-byte v3 layout. Offsets 0-35 match the older 52-byte layout, so the same buffer can be
// passed to nvmlDeviceGetPciInfo_v2 and nvmlDeviceGetPciInfo; those fill busIdLegacy only.
struct nvmlPciInfo_t {
  char busIdLegacy[kDevicePciBusIdBufferV2Size];
  unsigned int domain;
  unsigned int bus;
  unsigned int device;
  unsigned int pciDeviceId;
  unsigned int pciSubSystemId;
  char busId[kDevicePciBusIdBufferSize];
};
static_assert(sizeof(nvmlPciInfo_t) == 68);
static_assert(offsetof(nvmlPciInfo_t, domain) == 16);
static_assert(offsetof(nvmlPciInfo_t, pciSubSystemId) == 32);
static_assert(offsetof(nvmlPciInfo_t, busId) == 36);

union nvmlValue_t {
  double dVal;
  int siVal;
  unsigned int uiVal;
  unsigned long ulVal;
  unsigned long long ullVal;
  signed long long sllVal;
  unsigned short usVal;
};
static_assert(sizeof(nvmlValue_t) == 8);

struct nvmlFieldValue_t {
  unsigned int fieldId;
  unsigned int scopeId;
  long long timestamp;    // microseconds since 1970
  long long latencyUsec;
  nvmlValueType_t valueType;
  nvmlReturn_t nvmlReturn;
  nvmlValue_t value;
};
static_assert(sizeof(nvmlFieldValue_t) == 40);
static_assert(offsetof(nvmlFieldValue_t, timestamp) == 8);
static_assert(offsetof(nvmlFieldValue_t, valueType) == 24);
static_assert(offsetof(nvmlFieldValue_t, nvmlReturn) == 28);
static_assert(offsetof(nvmlFieldValue_t, value) == 32);

static_assert(sizeof(unsigned long) == 8, "NVML affinity masks assume LP64: 64 CPUs per unsigned long");

// Burn-in telemetry (nvml_telemetry_source.cpp). Values from nvml.h (nvml-facts.md §1.10, §2).
using nvmlTemperatureSensors_t = int;
using nvmlTemperatureThresholds_t = int;
using nvmlMemoryErrorType_t = int;
using nvmlEccCounterType_t = int;
using nvmlNvLinkErrorCounter_t = int;
struct nvmlEventSet_st;
using nvmlEventSet_t = nvmlEventSet_st*;

inline constexpr nvmlReturn_t kErrorTimeout = 10;
inline constexpr nvmlTemperatureSensors_t kTemperatureGpu = 0;
inline constexpr nvmlTemperatureThresholds_t kThresholdShutdown = 0;
inline constexpr nvmlTemperatureThresholds_t kThresholdSlowdown = 1;
inline constexpr nvmlMemoryErrorType_t kMemoryErrorCorrected = 0;
inline constexpr nvmlMemoryErrorType_t kMemoryErrorUncorrected = 1;
inline constexpr nvmlEccCounterType_t kEccVolatile = 0;
inline constexpr nvmlNvLinkErrorCounter_t kNvLinkErrorDlReplay = 0;
inline constexpr nvmlNvLinkErrorCounter_t kNvLinkErrorDlRecovery = 1;
inline constexpr nvmlNvLinkErrorCounter_t kNvLinkErrorDlCrcFlit = 2;
inline constexpr nvmlNvLinkErrorCounter_t kNvLinkErrorDlCrcData = 3;
inline constexpr unsigned kFieldMemoryTemp = 82;          // NVML_FI_DEV_MEMORY_TEMP, °C
inline constexpr unsigned kFieldPcieReplayCounter = 94;   // NVML_FI_DEV_PCIE_REPLAY_COUNTER
inline constexpr unsigned kFieldNvLinkErrorDlReplay = 161;    // scopeId = link (Hopper; not on Blackwell)
inline constexpr unsigned kFieldNvLinkErrorDlRecovery = 162;  // scopeId = link
inline constexpr unsigned kFieldNvLinkErrorDlCrc = 163;       // scopeId = link
inline constexpr unsigned long long kEventTypeXidCriticalError = 0x8;

struct nvmlUtilization_t {
  unsigned int gpu;     // percent
  unsigned int memory;  // percent
};
static_assert(sizeof(nvmlUtilization_t) == 8);

struct nvmlEventData_t {
  nvmlDevice_t device;
  unsigned long long eventType;
  unsigned long long eventData;  // the Xid for XidCriticalError (999 = unknown Xid)
  unsigned int gpuInstanceId;
  unsigned int computeInstanceId;
};
static_assert(sizeof(nvmlEventData_t) == 32);
static_assert(offsetof(nvmlEventData_t, eventData) == 16);


}  // namespace gpuvet::nvml
