// The burn-in vocabulary: one telemetry sample of one GPU at one instant, the events seen
// between samples (Xid, GPU lost, safety stop) and the run they belong to. Filled by telemetry
// sources (NVML, simulator) and the stress backend, stored by src/telemetry, judged by
// analysis/burnin_*. Every measured field is a Reading: a field a GPU does not support is
// absent with the reason, never zero. Units are in the names (docs/measurement.md "Burn-in").
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/finding.hpp"
#include "core/reading.hpp"
#include "core/traffic.hpp"

namespace gpuvet::core {

// Clocks-event (throttle) reason bits, exactly as NVML's bitmask defines them.
namespace clocks_event {
inline constexpr std::uint64_t gpu_idle = 0x1;
inline constexpr std::uint64_t applications_clocks = 0x2;
inline constexpr std::uint64_t sw_power_cap = 0x4;
inline constexpr std::uint64_t hw_slowdown = 0x8;
inline constexpr std::uint64_t sync_boost = 0x10;
inline constexpr std::uint64_t sw_thermal_slowdown = 0x20;
inline constexpr std::uint64_t hw_thermal_slowdown = 0x40;
inline constexpr std::uint64_t hw_power_brake = 0x80;
inline constexpr std::uint64_t display_clock = 0x100;

// The reasons that count as throttled time (a thermal or hardware slowdown; not the power cap,
// idle or application clocks): the store's throttled samples, the judge, the spec's tolerance.
inline constexpr std::uint64_t throttling = hw_slowdown | sw_thermal_slowdown | hw_thermal_slowdown | hw_power_brake;

// The one clock-event table: each bit with gpuvet's name (metrics, JSON, progress), the suffix
// of nvidia-smi -q -x (<clocks_event_reason_...>) and nvidia-smi -q's words.
struct Info {
  std::uint64_t bit;
  std::string_view name;
  std::string_view smi_xml_suffix;
  std::string_view smi_text;
};
inline constexpr Info kTable[] = {
    {gpu_idle, "gpu_idle", "gpu_idle", "Idle"},
    {applications_clocks, "applications_clocks", "applications_clocks_setting", "Applications Clocks Setting"},
    {sw_power_cap, "sw_power_cap", "sw_power_cap", "SW Power Cap"},
    {hw_slowdown, "hw_slowdown", "hw_slowdown", "HW Slowdown"},
    {sync_boost, "sync_boost", "sync_boost", "Sync Boost"},
    {sw_thermal_slowdown, "sw_thermal_slowdown", "sw_thermal_slowdown", "SW Thermal Slowdown"},
    {hw_thermal_slowdown, "hw_thermal_slowdown", "hw_thermal_slowdown", "HW Thermal Slowdown"},
    {hw_power_brake, "hw_power_brake", "hw_power_brake_slowdown", "HW Power Brake Slowdown"},
    {display_clock, "display_clock", "display_clocks_setting", "Display Clock Setting"},
};
}  // namespace clocks_event

// "hw_slowdown", "sw_thermal_slowdown", ... for one bit; "bit_0x200" for bits we do not know.
std::string clocks_event_name(std::uint64_t bit);

// Error counters of one NVLink port, cumulative since the driver loaded.
struct NvLinkErrorSample {
  int link = 0;
  Reading<std::uint64_t> crc_flit;   // flow-control CRC errors
  Reading<std::uint64_t> crc_data;   // data CRC errors
  Reading<std::uint64_t> replay;     // link-level replays
  Reading<std::uint64_t> recovery;   // link recoveries (retraining)
  bool operator==(const NvLinkErrorSample&) const = default;
};

struct TelemetrySample {
  int gpu = 0;                              // GPU index as the run numbers them
  double t_s = 0;                           // seconds since the run started (virtual in simulation)
  std::int64_t unix_ms = 0;                 // wall clock when taken (simulation: start + t_s)
  Reading<double> gpu_temp_c;
  Reading<double> mem_temp_c;               // HBM temperature
  Reading<double> sm_clock_mhz;
  Reading<double> mem_clock_mhz;
  Reading<double> power_w;                  // board power draw
  Reading<double> energy_j;                 // cumulative since the driver loaded
  Reading<double> util_gpu_pct;
  Reading<double> util_mem_pct;
  Reading<std::uint64_t> clocks_event_reasons;  // bitmask, clocks_event::*
  Reading<int> pstate;                      // 0..15 (P0 = maximum performance)
  Reading<std::uint64_t> ecc_corrected;     // volatile totals since the driver loaded
  Reading<std::uint64_t> ecc_uncorrected;
  Reading<int> retired_pages_sbe;
  Reading<int> retired_pages_dbe;
  Reading<bool> retired_pages_pending;
  Reading<bool> remap_pending;              // row remap waiting for a GPU reset
  Reading<std::uint64_t> pcie_replays;      // cumulative PCIe replay counter
  Reading<std::vector<NvLinkErrorSample>> nvlink;
  Reading<double> tflops;                   // achieved GEMM TFLOP/s since the previous sample
  Reading<std::uint64_t> miscompares;       // cumulative GEMM result miscompares
  // Stored from schema 4 on (older files read them as absent, "not recorded").
  Reading<std::uint64_t> fb_used_bytes;     // framebuffer (device) memory in use
  Reading<std::uint64_t> fb_total_bytes;    // framebuffer memory the driver reports in total
  Reading<int> pcie_link_gen;               // current PCIe link generation (idle GPUs drop it to save power)
  Reading<int> pcie_link_width;             // current PCIe link width (lanes)
  Reading<int> pcie_link_gen_max;           // the most this GPU in this slot can train to
  Reading<int> pcie_link_width_max;
  Reading<std::uint64_t> remapped_rows_correctable;    // rows remapped after correctable errors
  Reading<std::uint64_t> remapped_rows_uncorrectable;  // rows remapped after uncorrectable errors
  Reading<bool> remap_failed;               // a row remap failed: no spare row left in a bank
  bool operator==(const TelemetrySample&) const = default;
};

enum class TelemetryEventKind { xid, gpu_lost, safety_stop, stress_error };
std::string_view to_string(TelemetryEventKind kind);
bool parse_telemetry_event_kind(std::string_view text, TelemetryEventKind& out);

struct TelemetryEvent {
  int gpu = 0;
  double t_s = 0;
  TelemetryEventKind kind = TelemetryEventKind::xid;
  int code = 0;             // Xid number for xid; 0 otherwise
  std::string message;
  bool operator==(const TelemetryEvent&) const = default;
};

// What a run knows about a GPU before it starts: identity and the limits the judges compare with.
struct BurninGpu {
  int index = 0;
  Reading<std::string> name;
  Reading<std::string> uuid;
  Reading<std::string> pci_bus_id;
  Reading<double> power_limit_w;            // enforced power limit
  Reading<double> shutdown_temp_c;          // hardware shutdown threshold
  Reading<double> slowdown_temp_c;          // hardware slowdown threshold
  Reading<double> max_sm_clock_mhz;
  bool operator==(const BurninGpu&) const = default;
};

// A field a telemetry source could not read on a GPU, found once when the run starts.
struct UnsupportedField {
  int gpu = 0;
  std::string field;        // column name, e.g. "mem_temp_c"
  std::string reason;
  bool operator==(const UnsupportedField&) const = default;
};

enum class BurninStatus { running, completed, interrupted, failed };
std::string_view to_string(BurninStatus status);
bool parse_burnin_status(std::string_view text, BurninStatus& out);

struct BurninRunInfo {
  std::string source;               // "simulated: hgx-h100-8x" or "live (NVML + CUDA)"
  bool simulated = false;
  std::string hostname;
  std::string dtype = "bf16";
  std::vector<std::string> faults;  // simulation only
  double interval_s = 1.0;
  double planned_duration_s = 0;
  std::int64_t started_unix_ms = 0;
  BurninStatus status = BurninStatus::running;
  Reading<double> ended_t_s;        // when the runner stopped; absent while running or after a crash
  std::string stress_backend;       // describe() of the stress backend
  std::string telemetry_source;     // describe() of the telemetry source
  TrafficSettings traffic;          // link traffic beside the load (none: the GEMM load alone)
  bool operator==(const BurninRunInfo&) const = default;
};

// A whole run as the store gives it back: what every burn-in report is rebuilt from.
struct BurninRecord {
  BurninRunInfo run;
  std::vector<BurninGpu> gpus;
  std::vector<UnsupportedField> unsupported;
  std::vector<TelemetrySample> samples;   // ordered by t_s, then gpu
  std::vector<TelemetryEvent> events;     // ordered by t_s
  std::vector<TrafficInterval> traffic;   // ordered by t_s; empty without traffic
};

// What the burn-in judge concludes (analysis/burnin_judge.hpp), rendered by report/burnin_report.
struct BurninGpuSummary {
  int gpu = 0;
  std::size_t samples = 0;
  Reading<double> median_tflops;         // steady state (after warm-up) under load
  Reading<double> median_temp_c;
  Reading<double> max_temp_c;            // whole run
  Reading<double> median_power_w;
  Reading<double> median_sm_clock_mhz;
  bool stopped = false;                  // load stopped early (safety, lost, error)
};

struct BurninAssessment {
  std::vector<Finding> findings;
  std::vector<std::string> unverified;   // any entry makes the verdict incomplete
  std::vector<BurninGpuSummary> gpus;
  double recorded_s = 0;                 // run time covered by samples
};

}  // namespace gpuvet::core
