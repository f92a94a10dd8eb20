// gpuvet nccl's measurements as the report's tables model, and the names its runs carry into the
// judge ("gpuvet nccl, GPUs 0-7, NVLS off (...), simulated").
#include "cli/nccl_node.hpp"

#include <fmt/format.h>

namespace gpuvet::cli {
namespace {

report::NcclSweep sweep_of(const probes::CollectiveMeasurement& m, const OrdinalMap& map) {
  return report::NcclSweep{m.run, map.indices(m.gpus), m.nvls, m.nodes};
}

// The busbw of a scaling set's one size (out of place).
core::Reading<double> busbw_of(const probes::CollectiveMeasurement& m) {
  if (m.run.rows.empty()) return core::Reading<double>::absent("not run");
  return m.run.rows.back().out_of_place.busbw_gbps;
}

}  // namespace

accept::CollectiveRunNamer nccl_run_namer(bool simulated) {
  return [simulated](const probes::CollectiveMeasurement& m, const std::vector<int>& indices) {
    return m.nodes > 1 ? fmt::format("gpuvet nccl across {} nodes, GPUs {} of each{}", m.nodes, report::gpu_ranges(indices),
                                     simulated ? ", simulated" : "")
                       : fmt::format("gpuvet nccl, GPUs {}{}{}", report::gpu_ranges(indices), report::nvls_label(m.nvls),
                                     simulated ? ", simulated" : "");
  };
}

report::NcclTables nccl_tables(const NcclResults& results, const OrdinalMap& map) {
  report::NcclTables tables;
  tables.backend = results.backend;
  tables.simulated = results.simulated;
  tables.notes = results.notes;
  tables.sweeps = nccl_sweeps(results.sweeps, map);
  for (const auto& s : results.scaling) {
    report::NcclScaling scaling{std::string(api::to_string(s.op)), s.bytes, {}};
    auto add = [&](const probes::CollectiveMeasurement& m) { scaling.sets.push_back({map.indices(m.gpus), busbw_of(m)}); };
    for (const auto& m : s.pairs) add(m);
    for (const auto& m : s.subsets) add(m);
    if (s.all) add(*s.all);
    tables.scaling.push_back(std::move(scaling));
  }
  return tables;
}

std::vector<report::NcclSweep> nccl_sweeps(const std::vector<probes::CollectiveMeasurement>& sweeps, const OrdinalMap& map) {
  std::vector<report::NcclSweep> out;
  for (const auto& m : sweeps) out.push_back(sweep_of(m, map));
  return out;
}

}  // namespace gpuvet::cli
