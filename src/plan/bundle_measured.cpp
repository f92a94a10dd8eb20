// What an acceptance bundle measured, read from its report (accept::AcceptReport): the clause
// headline numbers and the burn-in's GEMM series. The slowest GPU paces synchronous training, so
// TFLOP/s is the lowest per-GPU median and bandwidths are the clauses' lowest values.
#include <algorithm>
#include <cmath>
#include <optional>
#include <vector>

#include "accept/interconnect_observed.hpp"
#include "plan/offer.hpp"
#include "core/statistics.hpp"

namespace gpuvet::plan {

namespace {

// Most GPUs one machine of a bundle may have (an offer's gpus_per_node is at most 64).
constexpr double kMaxBundleGpus = 64;

// A GPU count as an int only when it is a whole number a machine can have: a double outside
// int's range must never reach static_cast (undefined behaviour: "-2147483648 GPUs").
std::optional<int> gpu_count(double measured) {
  if (!(measured >= 1 && measured <= kMaxBundleGpus) || measured != std::floor(measured)) return std::nullopt;
  return static_cast<int>(measured);
}

}  // namespace

Measured measured_from_report(const accept::AcceptReport& report, const std::string& label) {
  Measured m;
  m.source = "bundle " + label + " (report.json)";
  for (const auto* c : accept::all_clauses(report)) {
    const bool ran = c->status != accept::ClauseStatus::not_run;
    if (c->id == "gpu.model") m.gpu_display_name = c->observed;
    if (c->id == "interconnect" && ran) {
      core::InterconnectClass cls{};
      bool any = false;
      // The class part: a failed mesh adds what it misses after a comma (interconnect_observed.hpp).
      if (core::parse_interconnect_claim(accept::observed_interconnect_class(c->observed), cls, any) && !any) {
        m.interconnect = cls;
      }
    }
    if (!ran || !c->measured) continue;
    if (c->id == "gpu.count") m.gpus = gpu_count(*c->measured);
    if (c->id == "gpu.memory") m.memory_gib = c->measured;
    if (c->id == "collectives.all_reduce.all") m.all_reduce_busbw_gbps = c->measured;
    if (c->id == "collectives.all_gather.all") m.all_gather_busbw_gbps = c->measured;
    if (c->id == "bandwidth.p2p") m.p2p_gbps = c->measured;
  }
  for (const auto& stage : report.stages) {
    for (const auto& series : stage.series) {
      if (series.unit != "TFLOP/s") continue;
      std::optional<double> lowest;
      for (const auto& points : series.points) {
        std::vector<double> values;
        for (const auto& p : points) {
          if (p.second > 0) values.push_back(p.second);
        }
        if (values.empty()) continue;
        const double med = *core::median(values);
        if (!lowest || med < *lowest) lowest = med;
      }
      if (lowest) m.tflops = lowest;
    }
  }
  return m;
}

}  // namespace gpuvet::plan
