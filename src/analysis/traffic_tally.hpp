// What the burn-in judge keeps of a run's link traffic (internal to analysis/): the traffic
// intervals' rates and wrong counts, and each GPU's NVLink and PCIe error counter growth split into
// growth while traffic ran and growth while the links were idle. Fed the intervals first (the
// store hands them over with the run's header), then every sample in time order. Memory: a few
// numbers per traffic interval and per link, never the samples.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/telemetry.hpp"
#include "core/traffic.hpp"

namespace gpuvet::analysis::burnin {

// Growth of one cumulative counter, while traffic ran and while it did not.
struct SplitGrowth {
  std::optional<std::uint64_t> last;
  std::uint64_t under_traffic = 0;
  std::uint64_t idle = 0;
  double first_under_traffic_s = -1;
  void observe(std::uint64_t value, double t_s, bool traffic);
};

struct LinkCounters {
  SplitGrowth crc, replay, recovery;
};

// One GPU's traffic rates over one interval (absent readings left out).
struct GpuRates {
  std::optional<double> send, recv, h2d, d2h;
};

struct TrafficTally {
  std::vector<std::pair<double, double>> windows;        // (from_s, t_s) of each interval, in time order
  std::map<std::string, std::vector<std::pair<double, double>>> busbw;  // op -> (t_s, GB/s)
  std::map<std::string, std::int64_t> op_wrong;           // op -> wrong elements summed over intervals
  std::map<std::string, double> op_first_wrong_s;
  std::map<int, std::vector<std::pair<double, GpuRates>>> rates;  // gpu -> (interval end, rates)
  std::map<int, std::int64_t> gpu_wrong;                  // wrong elements in the GPU's own outputs
  std::map<int, double> gpu_first_wrong_s;
  std::map<int, std::size_t> digest_mismatches;           // intervals the GPU's cross-check differed
  std::map<int, double> first_mismatch_s;
  std::size_t digests_compared = 0;                       // intervals with two or more digests
  std::string digest_absent;                              // why no digest was known, when none was
  std::string collectives_absent;                         // why no busbw was known, when none was
  bool any_busbw = false;
  bool any_copy = false;
  // Counters (from samples).
  std::map<std::pair<int, int>, LinkCounters> links;      // (gpu, link)
  std::map<int, SplitGrowth> pcie;                        // gpu -> PCIe replays
  std::map<int, std::size_t> nvlink_links;                // gpu -> links it reported (any sample)
  std::size_t cursor = 0;                                 // first window not ended before the last sample

  // `names`: each GPU's model name, so digests are compared among GPUs of one model only.
  void on_interval(const core::TrafficInterval& interval, const std::map<int, std::string>& names);
  void on_sample(const core::TelemetrySample& sample);
  // Run time covered by traffic intervals.
  [[nodiscard]] double traffic_s() const;

 private:
  [[nodiscard]] bool under_traffic(double t_s);
};

}  // namespace gpuvet::analysis::burnin
