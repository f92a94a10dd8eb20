// The burn-in database schema (internal to src/telemetry): tables, the schema version, and the
// tables of fields (samples, GPUs, NVLink counters) that both the writer and the reader walk, so a
// column can never be written under one name and read under another. Version history in
// docs/measurement.md.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

#include "core/error.hpp"
#include "core/telemetry.hpp"

namespace gpuvet::telemetry {

// Bump on any incompatible change; the reader refuses other versions with a clear error.
// 1: one row per GPU-sample (gpuvet before the streaming judge); 2: one row per tick, samples
// delta-encoded (sample_codec.hpp), per-minute rollups; 3: keyframes in the sample encoding (rows
// pruned from the front), hourly rollups, segments (each process that wrote the file) and
// meta.purpose ("burnin" or "monitor"); 4: nine more sample fields after the NVLink count
// (kSchema4Fields: framebuffer memory, PCIe link current/max, remapped rows, remap failure), so the
// sample encoding has 29 fields instead of 20 (the tables are unchanged); 5: the minute rollups hold
// what the hourly ones hold (min/mean/max of utilization, temperature, power, SM clock; counter
// growth; minute_rollup.hpp) and each segment its sampling interval (the sample encoding is 4's).
// 6: the soak's link traffic (traffic_table.hpp: tables traffic_collectives and traffic_gpus, the
// settings in meta; the sample encoding and other tables are 5's).
// This gpuvet reads 2 to 6 and writes 6. A monitor continuing a schema 4 or 5 history migrates it
// to 6 in place (schema_migration_sql: columns and tables added, nothing rewritten); one continuing
// a schema 3 history keeps writing that file's encoding and tables (without the new fields), so
// the file stays one version.
inline constexpr int kSchemaVersion = 6;
inline constexpr int kOldestReadableSchemaVersion = 2;

using core::BurninGpu;
using core::NvLinkErrorSample;
using core::TelemetrySample;

// A table of fields: column name -> member of Row holding a Reading<T>.
template <class Row, class T, std::size_t N>
using FieldTable = std::array<std::pair<std::string_view, core::Reading<T> Row::*>, N>;

inline constexpr FieldTable<TelemetrySample, double, 9> kRealFields = {{
    {"gpu_temp_c", &TelemetrySample::gpu_temp_c},
    {"mem_temp_c", &TelemetrySample::mem_temp_c},
    {"sm_clock_mhz", &TelemetrySample::sm_clock_mhz},
    {"mem_clock_mhz", &TelemetrySample::mem_clock_mhz},
    {"power_w", &TelemetrySample::power_w},
    {"energy_j", &TelemetrySample::energy_j},
    {"util_gpu_pct", &TelemetrySample::util_gpu_pct},
    {"util_mem_pct", &TelemetrySample::util_mem_pct},
    {"tflops", &TelemetrySample::tflops},
}};

// Stored steps per unit of each real field, in kRealFields' order: 0.01 °C, whole MHz (NVML's
// unit), 0.01 W (NVML reports mW; its power readings are good to a few W), mJ (NVML's unit),
// 0.01 %, 0.01 TFLOP/s. The steps also bound the burn-in judge's memory: it keeps each distinct
// value of a reading once, so at most (range / step) of them, however long the run.
inline constexpr std::array<double, 9> kRealScale = {100, 100, 1, 1, 100, 1000, 100, 100, 100};

inline constexpr FieldTable<TelemetrySample, std::uint64_t, 5> kCountFields = {{
    {"clocks_event_reasons", &TelemetrySample::clocks_event_reasons},
    {"ecc_corrected", &TelemetrySample::ecc_corrected},
    {"ecc_uncorrected", &TelemetrySample::ecc_uncorrected},
    {"pcie_replays", &TelemetrySample::pcie_replays},
    {"miscompares", &TelemetrySample::miscompares},
}};

inline constexpr FieldTable<TelemetrySample, int, 3> kIntFields = {{
    {"pstate", &TelemetrySample::pstate},
    {"retired_pages_sbe", &TelemetrySample::retired_pages_sbe},
    {"retired_pages_dbe", &TelemetrySample::retired_pages_dbe},
}};

inline constexpr FieldTable<TelemetrySample, bool, 2> kBoolFields = {{
    {"retired_pages_pending", &TelemetrySample::retired_pages_pending},
    {"remap_pending", &TelemetrySample::remap_pending},
}};

// Calls visit(name, member) for each field of the tables in order, each member with its own type.
template <class Visit, class... Tables>
void for_each_field(Visit&& visit, const Tables&... tables) {
  const auto walk = [&](const auto& table) {
    for (const auto& [name, member] : table) visit(name, member);
  };
  (walk(tables), ...);
}

// The sample fields in encoding order (sample_codec.hpp; before the NVLink count).
template <class Visit>
void for_each_sample_field(Visit&& visit) {
  for_each_field(visit, kRealFields, kCountFields, kIntFields, kBoolFields);
}

// The number of links in the sample (absent: not read): the last field of schemas 2 and 3.
inline constexpr std::string_view kNvlinkField = "nvlink";

// Schema 4 appends these after the NVLink count, in this order (sample_codec.hpp).
inline constexpr FieldTable<TelemetrySample, std::uint64_t, 4> kSchema4CountFields = {{
    {"fb_used_bytes", &TelemetrySample::fb_used_bytes},
    {"fb_total_bytes", &TelemetrySample::fb_total_bytes},
    {"remapped_rows_correctable", &TelemetrySample::remapped_rows_correctable},
    {"remapped_rows_uncorrectable", &TelemetrySample::remapped_rows_uncorrectable},
}};
inline constexpr FieldTable<TelemetrySample, int, 4> kSchema4IntFields = {{
    {"pcie_link_gen", &TelemetrySample::pcie_link_gen},
    {"pcie_link_width", &TelemetrySample::pcie_link_width},
    {"pcie_link_gen_max", &TelemetrySample::pcie_link_gen_max},
    {"pcie_link_width_max", &TelemetrySample::pcie_link_width_max},
}};
inline constexpr FieldTable<TelemetrySample, bool, 1> kSchema4BoolFields = {{
    {"remap_failed", &TelemetrySample::remap_failed},
}};

template <class Visit>
void for_each_schema4_field(Visit&& visit) {
  for_each_field(visit, kSchema4CountFields, kSchema4IntFields, kSchema4BoolFields);
}

// The gpus table after idx. Why one of them is absent is kept in the unsupported table under
// kGpuFieldPrefix + name ("gpu.uuid").
inline constexpr FieldTable<BurninGpu, std::string, 3> kGpuTextFields = {{
    {"name", &BurninGpu::name},
    {"uuid", &BurninGpu::uuid},
    {"pci_bus_id", &BurninGpu::pci_bus_id},
}};
inline constexpr FieldTable<BurninGpu, double, 4> kGpuRealFields = {{
    {"power_limit_w", &BurninGpu::power_limit_w},
    {"shutdown_temp_c", &BurninGpu::shutdown_temp_c},
    {"slowdown_temp_c", &BurninGpu::slowdown_temp_c},
    {"max_sm_clock_mhz", &BurninGpu::max_sm_clock_mhz},
}};
inline constexpr std::string_view kGpuFieldPrefix = "gpu.";

template <class Visit>
void for_each_gpu_field(Visit&& visit) {
  for_each_field(visit, kGpuTextFields, kGpuRealFields);
}

// The counters of the nvlink table, after gpu, t_s, link.
inline constexpr FieldTable<NvLinkErrorSample, std::uint64_t, 4> kNvlinkCounters = {{
    {"crc_flit", &NvLinkErrorSample::crc_flit},
    {"crc_data", &NvLinkErrorSample::crc_data},
    {"replay", &NvLinkErrorSample::replay},
    {"recovery", &NvLinkErrorSample::recovery},
}};

// DDL for a new database; `purpose` is "burnin" or "monitor" (meta.purpose).
std::string schema_sql(std::string_view purpose);
// "idx, name, ..., max_sm_clock_mhz": the gpus columns in the order above.
std::string gpu_columns();
// "gpu, t_s, link, crc_flit, ..., recovery": the nvlink columns in the order above.
std::string nvlink_columns();
// "INSERT INTO table (columns) VALUES (?,...)" for one of the column lists above.
std::string insert_sql(std::string_view table, const std::string& columns);

// SQL that turns a monitor history of schema `from` into the current schema in place, run in the
// caller's transaction; empty when `from` cannot be migrated (a schema 2 or 3 encoding differs).
std::string schema_migration_sql(int from);

// Why a reading a file of `schema_version` predates is absent:
// "not recorded (a schema 4 history, before gpuvet stored this reading)".
std::string not_recorded_reason(int schema_version);

}  // namespace gpuvet::telemetry
