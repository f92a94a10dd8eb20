// The burn-in database schema (internal to src/telemetry): tables, the schema version, and the
// one table of sample fields that both the writer and the reader walk, so a column can never be
// written under one name and read under another. Version history in docs/measurement.md.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>
#include <utility>

#include "core/error.hpp"
#include "core/telemetry.hpp"

namespace gpuvet::telemetry {

// Bump on any incompatible change; the reader refuses other versions with a clear error.
inline constexpr int kSchemaVersion = 1;

using core::TelemetrySample;

inline constexpr std::array<std::pair<std::string_view, core::Reading<double> TelemetrySample::*>, 9> kRealFields = {{
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

inline constexpr std::array<std::pair<std::string_view, core::Reading<std::uint64_t> TelemetrySample::*>, 5> kCountFields = {{
    {"clocks_event_reasons", &TelemetrySample::clocks_event_reasons},
    {"ecc_corrected", &TelemetrySample::ecc_corrected},
    {"ecc_uncorrected", &TelemetrySample::ecc_uncorrected},
    {"pcie_replays", &TelemetrySample::pcie_replays},
    {"miscompares", &TelemetrySample::miscompares},
}};

inline constexpr std::array<std::pair<std::string_view, core::Reading<int> TelemetrySample::*>, 3> kIntFields = {{
    {"pstate", &TelemetrySample::pstate},
    {"retired_pages_sbe", &TelemetrySample::retired_pages_sbe},
    {"retired_pages_dbe", &TelemetrySample::retired_pages_dbe},
}};

inline constexpr std::array<std::pair<std::string_view, core::Reading<bool> TelemetrySample::*>, 2> kBoolFields = {{
    {"retired_pages_pending", &TelemetrySample::retired_pages_pending},
    {"remap_pending", &TelemetrySample::remap_pending},
}};

// The nvlink column of samples holds the number of links in the sample (NULL: not read).
inline constexpr std::string_view kNvlinkField = "nvlink";

// DDL for a new database.
std::string schema_sql();
// "gpu, t_s, unix_ms, gpu_temp_c, ..., nvlink": the samples columns in the order above.
std::string sample_columns();
inline constexpr int kSampleColumnCount = 3 + 9 + 5 + 3 + 2 + 1;

class Database;
// Reads a whole run through an open connection (telemetry_reader.cpp).
core::Result<core::BurninRecord> read_record(Database& db);

}  // namespace gpuvet::telemetry
