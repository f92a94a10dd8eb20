// The soak's link traffic vocabulary: which traffic a burn-in runs beside its GEMM load
// (`--traffic`), and what one traffic interval measured: each collective's busbw and wrong
// elements, and per GPU its ring-neighbour send/receive rate, host copy rates, the wrong elements in
// its collective outputs and the digest of the cross-check GEMM (identical inputs on every GPU).
// Filled by the traffic backend (backends/api/traffic_backend.hpp), stored by src/telemetry, judged
// by analysis/traffic_*. Rates are GB/s (1e9 B/s); busbw as nccl-tests defines it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/reading.hpp"

namespace gpuvet::core {

// Why a traffic reading is absent when the run's traffic did not include it (host copies not asked
// for): the store writes no reason for it and reads this one back.
inline constexpr std::string_view kTrafficNotAsked = "not part of this run's traffic";

// What --traffic can ask for; names as the command line and the spec spell them.
enum class TrafficKind { all_reduce, all_to_all, copies };
inline constexpr TrafficKind kTrafficKinds[] = {TrafficKind::all_reduce, TrafficKind::all_to_all, TrafficKind::copies};
std::string_view to_string(TrafficKind kind);

// The traffic a run asked for: empty kinds = none (the burn-in loads the GEMM units only).
struct TrafficSettings {
  std::vector<TrafficKind> kinds;   // in kTrafficKinds order, each once
  double share = 0.5;               // share of the time the traffic streams are busy, (0, 1]
  double interval_s = 60;           // one traffic interval: results are reported per interval
  [[nodiscard]] bool on() const { return !kinds.empty(); }
  [[nodiscard]] bool has(TrafficKind k) const;
  // Traffic that crosses the NVLinks (collectives; copies go over PCIe).
  [[nodiscard]] bool loads_nvlink() const { return has(TrafficKind::all_reduce) || has(TrafficKind::all_to_all); }
  bool operator==(const TrafficSettings&) const = default;
};

// "all_reduce", "all_to_all", "copies", "all", "none" or a comma list of the first three -> the
// kinds (sorted, each once); nullopt when a word is none of them.
std::optional<std::vector<TrafficKind>> parse_traffic_kinds(std::string_view text);
// "all_reduce,copies" (empty: "none").
std::string traffic_kinds_text(const std::vector<TrafficKind>& kinds);

// One collective over the interval: busbw of its iterations, wrong elements summed over ranks.
struct CollectiveTraffic {
  std::string op;                   // "all_reduce" or "all_to_all"
  Reading<double> busbw_gbps;
  Reading<std::int64_t> wrong;
  bool operator==(const CollectiveTraffic&) const = default;
};

// One GPU over the interval.
struct GpuTraffic {
  int gpu = 0;
  Reading<double> send_gbps;        // to its ring neighbour, timed on this GPU
  Reading<double> recv_gbps;        // from its ring neighbour
  Reading<double> h2d_gbps;         // pinned host -> device (copies)
  Reading<double> d2h_gbps;
  Reading<std::int64_t> wrong;      // wrong elements in this rank's collective outputs
  Reading<std::uint64_t> gemm_digest;  // the cross-check GEMM's result digest
  bool operator==(const GpuTraffic&) const = default;
};

struct TrafficInterval {
  double from_s = 0;                // run time the interval began
  double t_s = 0;                   // and ended
  std::vector<CollectiveTraffic> collectives;
  std::vector<GpuTraffic> gpus;
  bool operator==(const TrafficInterval&) const = default;
};

}  // namespace gpuvet::core
