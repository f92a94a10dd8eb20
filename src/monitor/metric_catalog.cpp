// The metric table of /metrics (see metric_catalog.hpp). Append-only: a name, once served, is a
// contract (CHANGELOG). HELP texts of the DCGM_FI_* rows follow dcgm-exporter's
// etc/default-counters.csv.
#include "monitor/metric_catalog.hpp"

#include <array>
#include <stdexcept>

#include <fmt/format.h>

namespace gpuvet::monitor {
namespace {

constexpr std::array kCatalog = std::to_array<MetricInfo>({
    {"gpuvet_gpu_lost", MetricType::gauge, MetricSet::native, "1 (0/1)", "gpu, uuid, pci_bus_id, model, hostname",
     "1 when the GPU fell off the bus or stopped answering, else 0.",
     "`NVML_ERROR_GPU_IS_LOST`, every reading failing, or a `gpu_lost` event",
     ""},
    {"gpuvet_gpu_last_sample_timestamp_seconds", MetricType::gauge, MetricSet::native, "seconds (Unix time)", "gpu, uuid, pci_bus_id, model, hostname",
     "When the GPU last answered a sample (Unix time; virtual time under --sim); kept when it is lost, so dashboards show since when. Absent while it has not answered since the daemon started (missing since a restart).",
     "the sampler's clock",
     ""},
    {"gpuvet_gpu_temperature_celsius", MetricType::gauge, MetricSet::native, "°C", "gpu, uuid, pci_bus_id, model, hostname",
     "GPU core temperature.",
     "`nvmlDeviceGetTemperature(NVML_TEMPERATURE_GPU)`",
     "`DCGM_FI_DEV_GPU_TEMP`"},
    {"gpuvet_memory_temperature_celsius", MetricType::gauge, MetricSet::native, "°C", "gpu, uuid, pci_bus_id, model, hostname",
     "GPU memory (HBM) temperature.",
     "`nvmlDeviceGetFieldValues(NVML_FI_DEV_MEMORY_TEMP)`",
     "`DCGM_FI_DEV_MEMORY_TEMP`"},
    {"gpuvet_sm_clock_hertz", MetricType::gauge, MetricSet::native, "Hz", "gpu, uuid, pci_bus_id, model, hostname",
     "SM clock.",
     "`nvmlDeviceGetClockInfo(NVML_CLOCK_SM)` MHz x 1e6",
     "`DCGM_FI_DEV_SM_CLOCK` (MHz)"},
    {"gpuvet_memory_clock_hertz", MetricType::gauge, MetricSet::native, "Hz", "gpu, uuid, pci_bus_id, model, hostname",
     "Memory clock.",
     "`nvmlDeviceGetClockInfo(NVML_CLOCK_MEM)` MHz x 1e6",
     "`DCGM_FI_DEV_MEM_CLOCK` (MHz)"},
    {"gpuvet_power_usage_watts", MetricType::gauge, MetricSet::native, "W", "gpu, uuid, pci_bus_id, model, hostname",
     "Board power draw.",
     "`nvmlDeviceGetPowerUsage` mW / 1000",
     "`DCGM_FI_DEV_POWER_USAGE`"},
    {"gpuvet_energy_consumption_joules_total", MetricType::counter, MetricSet::native, "J", "gpu, uuid, pci_bus_id, model, hostname",
     "Energy the board used since the driver loaded.",
     "`nvmlDeviceGetTotalEnergyConsumption` mJ / 1000",
     "`DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION` (mJ)"},
    {"gpuvet_gpu_utilization_ratio", MetricType::gauge, MetricSet::native, "ratio 0..1", "gpu, uuid, pci_bus_id, model, hostname",
     "Fraction of the last sample period a kernel ran on the GPU (0..1, NVML utilization.gpu).",
     "`nvmlDeviceGetUtilizationRates` `.gpu` / 100",
     "`DCGM_FI_DEV_GPU_UTIL` (%)"},
    {"gpuvet_memory_utilization_ratio", MetricType::gauge, MetricSet::native, "ratio 0..1", "gpu, uuid, pci_bus_id, model, hostname",
     "Fraction of the last sample period the memory was read or written (0..1, NVML utilization.memory).",
     "`nvmlDeviceGetUtilizationRates` `.memory` / 100",
     "`DCGM_FI_DEV_MEM_COPY_UTIL` (%)"},
    {"gpuvet_clocks_event_reason_active", MetricType::gauge, MetricSet::native, "1 (0/1)", "gpu, uuid, pci_bus_id, model, hostname, reason",
     "1 when the clocks-event (throttle) reason is active, else 0 (NVML reason names).",
     "`nvmlDeviceGetCurrentClocksEventReasons`, one series per bit",
     "`DCGM_FI_DEV_CLOCK_THROTTLE_REASONS` (bitmask)"},
    {"gpuvet_performance_state", MetricType::gauge, MetricSet::native, "P-state number", "gpu, uuid, pci_bus_id, model, hostname",
     "Performance state (0 = P0, maximum performance).",
     "`nvmlDeviceGetPerformanceState`",
     "`DCGM_FI_DEV_PSTATE` (not exported)"},
    {"gpuvet_ecc_corrected_errors_total", MetricType::counter, MetricSet::native, "errors", "gpu, uuid, pci_bus_id, model, hostname",
     "Corrected (single-bit) ECC errors since the driver loaded (volatile).",
     "`nvmlDeviceGetTotalEccErrors(CORRECTED, VOLATILE)`",
     "`DCGM_FI_DEV_ECC_SBE_VOL_TOTAL`"},
    {"gpuvet_ecc_uncorrected_errors_total", MetricType::counter, MetricSet::native, "errors", "gpu, uuid, pci_bus_id, model, hostname",
     "Uncorrected (double-bit) ECC errors since the driver loaded (volatile).",
     "`nvmlDeviceGetTotalEccErrors(UNCORRECTED, VOLATILE)`",
     "`DCGM_FI_DEV_ECC_DBE_VOL_TOTAL`"},
    {"gpuvet_retired_pages", MetricType::gauge, MetricSet::native, "pages", "gpu, uuid, pci_bus_id, model, hostname, cause",
     "Memory pages retired, by cause.",
     "`nvmlDeviceGetRetiredPages` (single-bit, double-bit cause)",
     "`DCGM_FI_DEV_RETIRED_SBE`, `DCGM_FI_DEV_RETIRED_DBE`"},
    {"gpuvet_retired_pages_pending", MetricType::gauge, MetricSet::native, "1 (0/1)", "gpu, uuid, pci_bus_id, model, hostname",
     "1 when a page retirement waits for a reboot, else 0.",
     "`nvmlDeviceGetRetiredPagesPendingStatus`",
     "`DCGM_FI_DEV_RETIRED_PENDING` (a count there; not exported)"},
    {"gpuvet_row_remap_pending", MetricType::gauge, MetricSet::native, "1 (0/1)", "gpu, uuid, pci_bus_id, model, hostname",
     "1 when a memory row remap waits for a GPU reset, else 0.",
     "`nvmlDeviceGetRemappedRows` `isPending`",
     "`DCGM_FI_DEV_ROW_REMAP_PENDING`"},
    {"gpuvet_pcie_replays_total", MetricType::counter, MetricSet::native, "replays", "gpu, uuid, pci_bus_id, model, hostname",
     "PCIe replays since the driver loaded.",
     "`nvmlDeviceGetFieldValues(NVML_FI_DEV_PCIE_REPLAY_COUNTER)`",
     "`DCGM_FI_DEV_PCIE_REPLAY_COUNTER`"},
    {"gpuvet_nvlink_crc_flit_errors_total", MetricType::counter, MetricSet::native, "errors", "gpu, uuid, pci_bus_id, model, hostname, link",
     "NVLink flow-control CRC errors on the link since the driver loaded.",
     "`nvmlDeviceGetNvLinkErrorCounter(NVML_NVLINK_ERROR_DL_CRC_FLIT)` per link (field value 163 where only that answers)",
     "`DCGM_FI_DEV_NVLINK_CRC_FLIT_ERROR_COUNT_TOTAL` (sum of links)"},
    {"gpuvet_nvlink_crc_data_errors_total", MetricType::counter, MetricSet::native, "errors", "gpu, uuid, pci_bus_id, model, hostname, link",
     "NVLink data CRC errors on the link since the driver loaded.",
     "`nvmlDeviceGetNvLinkErrorCounter(NVML_NVLINK_ERROR_DL_CRC_DATA)` per link",
     "`DCGM_FI_DEV_NVLINK_CRC_DATA_ERROR_COUNT_TOTAL` (sum of links)"},
    {"gpuvet_nvlink_replay_errors_total", MetricType::counter, MetricSet::native, "replays", "gpu, uuid, pci_bus_id, model, hostname, link",
     "NVLink link-level replays on the link since the driver loaded.",
     "`nvmlDeviceGetNvLinkErrorCounter(NVML_NVLINK_ERROR_DL_REPLAY)` per link (field value 161)",
     "`DCGM_FI_DEV_NVLINK_REPLAY_ERROR_COUNT_TOTAL` (sum of links)"},
    {"gpuvet_nvlink_recovery_errors_total", MetricType::counter, MetricSet::native, "recoveries", "gpu, uuid, pci_bus_id, model, hostname, link",
     "NVLink link recoveries (retraining) on the link since the driver loaded.",
     "`nvmlDeviceGetNvLinkErrorCounter(NVML_NVLINK_ERROR_DL_RECOVERY)` per link (field value 162)",
     "`DCGM_FI_DEV_NVLINK_RECOVERY_ERROR_COUNT_TOTAL` (sum of links)"},
    {"gpuvet_xid_events_total", MetricType::counter, MetricSet::native, "events", "gpu, uuid, pci_bus_id, model, hostname",
     "Xid events seen since the daemon started.",
     "`nvmlEventSetWait` (`nvmlEventTypeXidCriticalError`)",
     ""},
    {"gpuvet_last_xid", MetricType::gauge, MetricSet::native, "Xid code", "gpu, uuid, pci_bus_id, model, hostname",
     "The most recent Xid code seen (0: none since the daemon started).",
     "`nvmlEventSetWait` (`nvmlEventTypeXidCriticalError`)",
     "`DCGM_FI_DEV_XID_ERRORS`"},
    {"gpuvet_last_xid_info", MetricType::gauge, MetricSet::native, "1", "gpu, uuid, pci_bus_id, model, hostname, xid, action, severity",
     "The most recent Xid with NVIDIA's action for it and gpuvet's severity (always 1).",
     "the last Xid and NVIDIA's action for it (gpuvet's Xid catalogue)",
     ""},
    {"gpuvet_power_limit_watts", MetricType::gauge, MetricSet::native, "W", "gpu, uuid, pci_bus_id, model, hostname",
     "Enforced power limit.",
     "`nvmlDeviceGetEnforcedPowerLimit` mW / 1000",
     "`DCGM_FI_DEV_POWER_MGMT_LIMIT` (not exported)"},
    {"gpuvet_slowdown_temperature_celsius", MetricType::gauge, MetricSet::native, "°C", "gpu, uuid, pci_bus_id, model, hostname",
     "Hardware slowdown temperature threshold.",
     "`nvmlDeviceGetTemperatureThreshold(SLOWDOWN)`",
     "`DCGM_FI_DEV_SLOWDOWN_TEMP` (not exported)"},
    {"gpuvet_shutdown_temperature_celsius", MetricType::gauge, MetricSet::native, "°C", "gpu, uuid, pci_bus_id, model, hostname",
     "Hardware shutdown temperature threshold.",
     "`nvmlDeviceGetTemperatureThreshold(SHUTDOWN)`",
     "`DCGM_FI_DEV_SHUTDOWN_TEMP` (not exported)"},
    {"gpuvet_sm_clock_max_hertz", MetricType::gauge, MetricSet::native, "Hz", "gpu, uuid, pci_bus_id, model, hostname",
     "Maximum SM clock.",
     "`nvmlDeviceGetMaxClockInfo(NVML_CLOCK_SM)` MHz x 1e6",
     "`DCGM_FI_DEV_MAX_SM_CLOCK` (not exported)"},
    {"gpuvet_framebuffer_used_bytes", MetricType::gauge, MetricSet::native, "bytes", "gpu, uuid, pci_bus_id, model, hostname",
     "Framebuffer (device) memory in use.",
     "`nvmlDeviceGetMemoryInfo_v2` `.used` (v1 on drivers before R510, whose `.used` includes the driver's reserve)",
     "`DCGM_FI_DEV_FB_USED` (MiB)"},
    {"gpuvet_framebuffer_total_bytes", MetricType::gauge, MetricSet::native, "bytes", "gpu, uuid, pci_bus_id, model, hostname",
     "Framebuffer (device) memory in total, as the driver reports it.",
     "`nvmlDeviceGetMemoryInfo_v2` `.total`",
     "`DCGM_FI_DEV_FB_TOTAL` (MiB)"},
    {"gpuvet_pcie_link_generation", MetricType::gauge, MetricSet::native, "PCIe generation", "gpu, uuid, pci_bus_id, model, hostname",
     "Current PCIe link generation (idle GPUs lower it to save power).",
     "`nvmlDeviceGetCurrPcieLinkGeneration`",
     "`DCGM_FI_DEV_PCIE_LINK_GEN`"},
    {"gpuvet_pcie_link_width", MetricType::gauge, MetricSet::native, "lanes", "gpu, uuid, pci_bus_id, model, hostname",
     "Current PCIe link width.",
     "`nvmlDeviceGetCurrPcieLinkWidth`",
     "`DCGM_FI_DEV_PCIE_LINK_WIDTH`"},
    {"gpuvet_pcie_link_max_generation", MetricType::gauge, MetricSet::native, "PCIe generation", "gpu, uuid, pci_bus_id, model, hostname",
     "Highest PCIe link generation this GPU in this slot can train to.",
     "`nvmlDeviceGetMaxPcieLinkGeneration` (read once at start)",
     "`DCGM_FI_DEV_PCIE_MAX_LINK_GEN` (not exported)"},
    {"gpuvet_pcie_link_max_width", MetricType::gauge, MetricSet::native, "lanes", "gpu, uuid, pci_bus_id, model, hostname",
     "Widest PCIe link this GPU in this slot can train to.",
     "`nvmlDeviceGetMaxPcieLinkWidth` (read once at start)",
     "`DCGM_FI_DEV_PCIE_MAX_LINK_WIDTH` (not exported)"},
    {"gpuvet_remapped_rows_total", MetricType::counter, MetricSet::native, "rows", "gpu, uuid, pci_bus_id, model, hostname, cause",
     "Memory rows remapped, by the kind of error that caused it (correctable, uncorrectable).",
     "`nvmlDeviceGetRemappedRows` `corrRows`, `uncRows`",
     "`DCGM_FI_DEV_CORRECTABLE_REMAPPED_ROWS`, `DCGM_FI_DEV_UNCORRECTABLE_REMAPPED_ROWS`"},
    {"gpuvet_row_remap_failed", MetricType::gauge, MetricSet::native, "1 (0/1)", "gpu, uuid, pci_bus_id, model, hostname",
     "1 when a row remap failed (no spare row left), else 0.",
     "`nvmlDeviceGetRemappedRows` `failureOccurred`",
     "`DCGM_FI_DEV_ROW_REMAP_FAILURE`"},
    {"gpuvet_baseline_temperature_celsius", MetricType::gauge, MetricSet::native, "°C", "gpu, uuid, pci_bus_id, model, hostname",
     "GPU temperature in the steady state of the acceptance burn-in it passed (--baseline; median of the second half of its per-minute chart).",
     "`--baseline BUNDLE_DIR`: the bundle's burn-in charts (report.json), read once at start",
     ""},
    {"gpuvet_baseline_sm_clock_hertz", MetricType::gauge, MetricSet::native, "Hz", "gpu, uuid, pci_bus_id, model, hostname",
     "SM clock in the steady state of the acceptance burn-in it passed (--baseline; median of the second half of its per-minute chart).",
     "`--baseline BUNDLE_DIR`: the bundle's burn-in charts, MHz x 1e6",
     ""},
    {"gpuvet_baseline_power_watts", MetricType::gauge, MetricSet::native, "W", "gpu, uuid, pci_bus_id, model, hostname",
     "Board power in the steady state of the acceptance burn-in it passed (--baseline; median of the second half of its per-minute chart).",
     "`--baseline BUNDLE_DIR`: the bundle's burn-in charts",
     ""},
    {"DCGM_FI_DEV_SM_CLOCK", MetricType::gauge, MetricSet::dcgm, "MHz", "gpu, UUID, pci_bus_id, device, modelName, Hostname",
     "SM clock frequency (in MHz).",
     "as `gpuvet_sm_clock_hertz`",
     "`gpuvet_sm_clock_hertz`"},
    {"DCGM_FI_DEV_MEM_CLOCK", MetricType::gauge, MetricSet::dcgm, "MHz", "gpu, UUID, pci_bus_id, device, modelName, Hostname",
     "Memory clock frequency (in MHz).",
     "as `gpuvet_memory_clock_hertz`",
     "`gpuvet_memory_clock_hertz`"},
    {"DCGM_FI_DEV_MEMORY_TEMP", MetricType::gauge, MetricSet::dcgm, "°C", "gpu, UUID, pci_bus_id, device, modelName, Hostname",
     "Memory temperature (in C).",
     "as `gpuvet_memory_temperature_celsius`",
     "`gpuvet_memory_temperature_celsius`"},
    {"DCGM_FI_DEV_GPU_TEMP", MetricType::gauge, MetricSet::dcgm, "°C", "gpu, UUID, pci_bus_id, device, modelName, Hostname",
     "GPU temperature (in C).",
     "as `gpuvet_gpu_temperature_celsius`",
     "`gpuvet_gpu_temperature_celsius`"},
    {"DCGM_FI_DEV_POWER_USAGE", MetricType::gauge, MetricSet::dcgm, "W", "gpu, UUID, pci_bus_id, device, modelName, Hostname",
     "Power draw (in W).",
     "as `gpuvet_power_usage_watts`",
     "`gpuvet_power_usage_watts`"},
    {"DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION", MetricType::counter, MetricSet::dcgm, "mJ", "gpu, UUID, pci_bus_id, device, modelName, Hostname",
     "Total energy consumption since boot (in mJ).",
     "as `gpuvet_energy_consumption_joules_total`",
     "`gpuvet_energy_consumption_joules_total`"},
    {"DCGM_FI_DEV_PCIE_REPLAY_COUNTER", MetricType::counter, MetricSet::dcgm, "replays", "gpu, UUID, pci_bus_id, device, modelName, Hostname",
     "Total number of PCIe retries.",
     "as `gpuvet_pcie_replays_total`",
     "`gpuvet_pcie_replays_total`"},
    {"DCGM_FI_DEV_GPU_UTIL", MetricType::gauge, MetricSet::dcgm, "%", "gpu, UUID, pci_bus_id, device, modelName, Hostname",
     "GPU utilization (in %).",
     "as `gpuvet_gpu_utilization_ratio`",
     "`gpuvet_gpu_utilization_ratio`"},
    {"DCGM_FI_DEV_MEM_COPY_UTIL", MetricType::gauge, MetricSet::dcgm, "%", "gpu, UUID, pci_bus_id, device, modelName, Hostname",
     "Memory utilization (in %).",
     "as `gpuvet_memory_utilization_ratio`",
     "`gpuvet_memory_utilization_ratio`"},
    {"DCGM_FI_DEV_XID_ERRORS", MetricType::gauge, MetricSet::dcgm, "Xid code", "gpu, UUID, pci_bus_id, device, modelName, Hostname",
     "Value of the last XID error encountered.",
     "as `gpuvet_last_xid`",
     "`gpuvet_last_xid`"},
    {"DCGM_FI_DEV_CLOCK_THROTTLE_REASONS", MetricType::gauge, MetricSet::dcgm, "bitmask", "gpu, UUID, pci_bus_id, device, modelName, Hostname",
     "Current clock throttle reasons (bitmask of DCGM_CLOCKS_THROTTLE_REASON_*).",
     "`nvmlDeviceGetCurrentClocksEventReasons`",
     "`gpuvet_clocks_event_reason_active`"},
    {"DCGM_FI_DEV_ECC_SBE_VOL_TOTAL", MetricType::counter, MetricSet::dcgm, "errors", "gpu, UUID, pci_bus_id, device, modelName, Hostname",
     "Total number of single-bit volatile ECC errors.",
     "as `gpuvet_ecc_corrected_errors_total`",
     "`gpuvet_ecc_corrected_errors_total`"},
    {"DCGM_FI_DEV_ECC_DBE_VOL_TOTAL", MetricType::counter, MetricSet::dcgm, "errors", "gpu, UUID, pci_bus_id, device, modelName, Hostname",
     "Total number of double-bit volatile ECC errors.",
     "as `gpuvet_ecc_uncorrected_errors_total`",
     "`gpuvet_ecc_uncorrected_errors_total`"},
    {"DCGM_FI_DEV_RETIRED_SBE", MetricType::counter, MetricSet::dcgm, "pages", "gpu, UUID, pci_bus_id, device, modelName, Hostname",
     "Total number of retired pages due to single-bit errors.",
     "as `gpuvet_retired_pages{cause=\"single_bit_ecc\"}`",
     "`gpuvet_retired_pages`"},
    {"DCGM_FI_DEV_RETIRED_DBE", MetricType::counter, MetricSet::dcgm, "pages", "gpu, UUID, pci_bus_id, device, modelName, Hostname",
     "Total number of retired pages due to double-bit errors.",
     "as `gpuvet_retired_pages{cause=\"double_bit_ecc\"}`",
     "`gpuvet_retired_pages`"},
    {"DCGM_FI_DEV_ROW_REMAP_PENDING", MetricType::gauge, MetricSet::dcgm, "1 (0/1)", "gpu, UUID, pci_bus_id, device, modelName, Hostname",
     "Whether remapping of rows is pending.",
     "as `gpuvet_row_remap_pending`",
     "`gpuvet_row_remap_pending`"},
    {"DCGM_FI_DEV_NVLINK_CRC_FLIT_ERROR_COUNT_TOTAL", MetricType::counter, MetricSet::dcgm, "errors", "gpu, UUID, pci_bus_id, device, modelName, Hostname",
     "Total number of NVLink flow-control CRC errors.",
     "sum over the GPU's links of `gpuvet_nvlink_crc_flit_errors_total`",
     "`gpuvet_nvlink_crc_flit_errors_total`"},
    {"DCGM_FI_DEV_NVLINK_CRC_DATA_ERROR_COUNT_TOTAL", MetricType::counter, MetricSet::dcgm, "errors", "gpu, UUID, pci_bus_id, device, modelName, Hostname",
     "Total number of NVLink data CRC errors.",
     "sum over the GPU's links of `gpuvet_nvlink_crc_data_errors_total`",
     "`gpuvet_nvlink_crc_data_errors_total`"},
    {"DCGM_FI_DEV_NVLINK_REPLAY_ERROR_COUNT_TOTAL", MetricType::counter, MetricSet::dcgm, "replays", "gpu, UUID, pci_bus_id, device, modelName, Hostname",
     "Total number of NVLink retries.",
     "sum over the GPU's links of `gpuvet_nvlink_replay_errors_total`",
     "`gpuvet_nvlink_replay_errors_total`"},
    {"DCGM_FI_DEV_NVLINK_RECOVERY_ERROR_COUNT_TOTAL", MetricType::counter, MetricSet::dcgm, "recoveries", "gpu, UUID, pci_bus_id, device, modelName, Hostname",
     "Total number of NVLink recovery errors.",
     "sum over the GPU's links of `gpuvet_nvlink_recovery_errors_total`",
     "`gpuvet_nvlink_recovery_errors_total`"},
    {"DCGM_FI_DEV_FB_USED", MetricType::gauge, MetricSet::dcgm, "MiB", "gpu, UUID, pci_bus_id, device, modelName, Hostname",
     "Framebuffer memory used (in MiB).",
     "`gpuvet_framebuffer_used_bytes` / 2^20",
     "`gpuvet_framebuffer_used_bytes`"},
    {"DCGM_FI_DEV_PCIE_LINK_GEN", MetricType::gauge, MetricSet::dcgm, "PCIe generation", "gpu, UUID, pci_bus_id, device, modelName, Hostname",
     "PCIe Current Link Generation.",
     "as `gpuvet_pcie_link_generation`",
     "`gpuvet_pcie_link_generation`"},
    {"DCGM_FI_DEV_PCIE_LINK_WIDTH", MetricType::gauge, MetricSet::dcgm, "lanes", "gpu, UUID, pci_bus_id, device, modelName, Hostname",
     "PCIe Current Link Width.",
     "as `gpuvet_pcie_link_width`",
     "`gpuvet_pcie_link_width`"},
    {"DCGM_FI_DEV_CORRECTABLE_REMAPPED_ROWS", MetricType::counter, MetricSet::dcgm, "rows", "gpu, UUID, pci_bus_id, device, modelName, Hostname",
     "Number of remapped rows for correctable errors",
     "`gpuvet_remapped_rows_total{cause=\"correctable\"}`",
     "`gpuvet_remapped_rows_total`"},
    {"DCGM_FI_DEV_UNCORRECTABLE_REMAPPED_ROWS", MetricType::counter, MetricSet::dcgm, "rows", "gpu, UUID, pci_bus_id, device, modelName, Hostname",
     "Number of remapped rows for uncorrectable errors",
     "`gpuvet_remapped_rows_total{cause=\"uncorrectable\"}`",
     "`gpuvet_remapped_rows_total`"},
    {"DCGM_FI_DEV_ROW_REMAP_FAILURE", MetricType::gauge, MetricSet::dcgm, "1 (0/1)", "gpu, UUID, pci_bus_id, device, modelName, Hostname",
     "Whether remapping of rows has failed",
     "as `gpuvet_row_remap_failed`",
     "`gpuvet_row_remap_failed`"},
    {"gpuvet_alert", MetricType::gauge, MetricSet::daemon, "1", "code, gpu, severity",
     "1 for each alert that fires now, by finding code (docs/findings.md), GPU and severity.",
     "the daemon's alert evaluator (docs/monitor.md \"Alert rules\")",
     ""},
    {"gpuvet_monitor_info", MetricType::gauge, MetricSet::daemon, "1", "source, simulated, hostname",
     "The monitor daemon: where its readings come from (always 1).",
     "the daemon",
     ""},
    {"gpuvet_monitor_healthy", MetricType::gauge, MetricSet::daemon, "1 (0/1)", "",
     "1 when sampling runs and the last tick was on time, else 0 (/healthz says why).",
     "the daemon (/healthz)",
     ""},
    {"gpuvet_monitor_interval_seconds", MetricType::gauge, MetricSet::daemon, "s", "",
     "Sampling interval.",
     "`--interval`",
     ""},
    {"gpuvet_monitor_last_tick_timestamp_seconds", MetricType::gauge, MetricSet::daemon, "seconds (Unix time)", "",
     "When the last tick sampled (Unix time; virtual time under --sim).",
     "the daemon's clock",
     ""},
    {"gpuvet_monitor_snapshot_age_seconds", MetricType::gauge, MetricSet::daemon, "s", "",
     "How old the served readings are at scrape time (not exported under --sim: virtual time).",
     "the daemon's clock at scrape time",
     ""},
    {"gpuvet_monitor_tick_duration_seconds", MetricType::gauge, MetricSet::daemon, "s", "",
     "Wall time the last tick took to sample every GPU.",
     "the daemon's clock around each tick",
     ""},
    {"gpuvet_monitor_ticks_total", MetricType::counter, MetricSet::daemon, "ticks", "",
     "Sampling ticks since the daemon started.",
     "the daemon",
     ""},
    {"gpuvet_monitor_samples_total", MetricType::counter, MetricSet::daemon, "samples", "",
     "GPU samples taken since the daemon started.",
     "the daemon",
     ""},
    {"gpuvet_monitor_samples_dropped_total", MetricType::counter, MetricSet::daemon, "ticks", "",
     "Ticks skipped because the previous one ran late.",
     "the daemon",
     ""},
    {"gpuvet_monitor_source_errors_total", MetricType::counter, MetricSet::daemon, "calls", "",
     "NVML (or simulator) calls that failed or timed out.",
     "NVML (or simulator) calls that returned an error or timed out",
     ""},
    {"gpuvet_monitor_store_errors_total", MetricType::counter, MetricSet::daemon, "writes", "",
     "History writes that failed.",
     "the SQLite history",
     ""},
    {"gpuvet_monitor_uptime_seconds", MetricType::gauge, MetricSet::daemon, "s", "",
     "Time since the daemon started sampling.",
     "the daemon's clock",
     ""},
});

std::string_view set_heading(MetricSet set) {
  switch (set) {
    case MetricSet::native: return "Per GPU (gpuvet_*)";
    case MetricSet::dcgm: return "dcgm-exporter names (--dcgm-names)";
    case MetricSet::daemon: return "Alerts and the daemon";
  }
  return "";
}

std::string_view type_name(MetricType type) { return type == MetricType::counter ? "counter" : "gauge"; }

// Label names as `a`, `b`; "-" for none.
std::string label_list(std::string_view labels) {
  if (labels.empty()) return "-";
  std::string out;
  std::size_t start = 0;
  while (start <= labels.size()) {
    const std::size_t comma = labels.find(", ", start);
    const std::string_view one = labels.substr(start, comma == std::string_view::npos ? labels.size() - start : comma - start);
    if (!out.empty()) out += ", ";
    out += fmt::format("`{}`", one);
    if (comma == std::string_view::npos) break;
    start = comma + 2;
  }
  return out;
}

}  // namespace

std::span<const MetricInfo> metric_catalog() { return kCatalog; }

const MetricInfo* find_metric_info(std::string_view name) {
  for (const auto& info : kCatalog) {
    if (info.name == name) return &info;
  }
  return nullptr;
}

MetricFamily metric_family(std::string_view name) {
  const MetricInfo* info = find_metric_info(name);
  if (info == nullptr) throw std::logic_error(fmt::format("metric {} is not in the metric catalogue", name));
  return MetricFamily(std::string(info->name), info->type, std::string(info->help));
}

std::string render_metric_catalog_markdown() {
  std::string out =
      "# Metrics\n\n"
      "Generated by `gpuvet monitor metrics --markdown` from the serializer's metric table\n"
      "(`src/monitor/metric_catalog.cpp`); do not edit by hand. Every family `gpuvet monitor` can serve on\n"
      "`/metrics` (docs/monitor.md \"Prometheus endpoint\"). Names are append-only. A reading that is absent\n"
      "(unsupported, not read yet, a lost GPU's) is left out, never written as 0, and a family no GPU has\n"
      "is not written at all. Per-GPU labels whose value is unknown (UUID, PCI bus id, model) are left out.\n";
  for (MetricSet set : {MetricSet::native, MetricSet::dcgm, MetricSet::daemon}) {
    out += fmt::format("\n## {}\n\n", set_heading(set));
    out += set == MetricSet::native ? "| Metric | Type | Unit | Labels | Meaning | Source | dcgm-exporter |\n"
           : set == MetricSet::dcgm ? "| Metric | Type | Unit | Labels | Meaning | Source | gpuvet name |\n"
                                    : "| Metric | Type | Unit | Labels | Meaning | Source | |\n";
    out += "|---|---|---|---|---|---|---|\n";
    for (const auto& info : kCatalog) {
      if (info.set != set) continue;
      out += fmt::format("| `{}` | {} | {} | {} | {} | {} | {} |\n", info.name, type_name(info.type), info.unit,
                         label_list(info.labels), info.help, info.source,
                         info.equivalent.empty() ? "-" : info.equivalent);
    }
  }
  return out;
}

}  // namespace gpuvet::monitor
