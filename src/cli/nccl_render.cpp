// nccl-tests style tables for gpuvet nccl, and the names its runs carry into the judge.
#include "cli/nccl_render.hpp"

#include <fmt/format.h>

namespace gpuvet::cli {
namespace {

std::string join(const std::vector<int>& v) {
  std::string out;
  for (int g : v) out += (out.empty() ? "" : ",") + std::to_string(g);
  return out;
}

// "0-7", "0,2,4-6": consecutive runs of three or more collapsed, order kept.
std::string compact(const std::vector<int>& v) {
  std::string out;
  for (std::size_t i = 0; i < v.size();) {
    std::size_t j = i;
    while (j + 1 < v.size() && v[j + 1] == v[j] + 1) ++j;
    out += out.empty() ? "" : ",";
    out += j >= i + 2 ? fmt::format("{}-{}", v[i], v[j]) : join(std::vector<int>(v.begin() + static_cast<long>(i), v.begin() + static_cast<long>(j) + 1));
    i = j + 1;
  }
  return out;
}

std::string cell(const core::Reading<double>& r, const char* format) {
  return r ? fmt::format(fmt::runtime(format), *r) : std::string("n/a");
}

std::string wrong_cell(const core::Reading<std::int64_t>& r) { return r ? std::to_string(*r) : std::string("N/A"); }

std::string result_cells(const core::CollectiveResult& r) {
  return fmt::format("  {:>9}  {:>7}  {:>7}  {:>6}", cell(r.time_us, "{:.1f}"), cell(r.algbw_gbps, "{:.2f}"),
                     cell(r.busbw_gbps, "{:.2f}"), wrong_cell(r.wrong));
}

std::string path_between(const core::Machine& machine, const std::vector<int>& gpus) {
  if (gpus.size() != 2 || !machine.links) return "";
  const int a = core::position_of_gpu(machine, gpus[0]);
  const int b = core::position_of_gpu(machine, gpus[1]);
  if (a < 0 || b < 0 || a >= machine.links->size() || b >= machine.links->size()) return "";
  return core::to_string(machine.links->at(a, b));
}

core::Reading<double> busbw_of(const probes::CollectiveMeasurement& m) {
  if (m.run.rows.empty()) return core::Reading<double>::absent("not run");
  return m.run.rows.back().out_of_place.busbw_gbps;
}

std::string nvls_label(const std::optional<bool>& nvls) {
  if (!nvls) return "";
  return *nvls ? ", NVLS on (NCCL_NVLS_ENABLE=1)" : ", NVLS off (NCCL_NVLS_ENABLE=0)";
}

std::string sweep_table(const probes::CollectiveMeasurement& m, const std::vector<int>& indices) {
  const char* reduction = m.run.rows.empty() || !m.run.rows.front().redop ? "no reduction" : "sum";
  std::string out =
      m.nodes > 1 ? fmt::format("# {} across {} nodes, GPUs {} of each ({} ranks), float, {}\n", m.run.op, m.nodes,
                                compact(indices), m.run.ranks.value_or(0), reduction)
                  : fmt::format("# {} on GPUs {} ({} ranks){}, float, {}\n", m.run.op, compact(indices), indices.size(),
                                nvls_label(m.nvls), reduction);
  out += fmt::format("#{:>61}{:>38}\n", "out-of-place", "in-place");
  out += fmt::format("#{:>11}  {:>12}  {:>6}  {:>5}  {:>4}  {:>9}  {:>7}  {:>7}  {:>6}  {:>9}  {:>7}  {:>7}  {:>6}\n", "size",
                     "count", "type", "redop", "root", "time", "algbw", "busbw", "#wrong", "time", "algbw", "busbw", "#wrong");
  out += fmt::format("#{:>11}  {:>12}  {:>6}  {:>5}  {:>4}  {:>9}  {:>7}  {:>7}  {:>6}  {:>9}  {:>7}  {:>7}\n", "(B)",
                     "(elements)", "", "", "", "(us)", "(GB/s)", "(GB/s)", "", "(us)", "(GB/s)", "(GB/s)");
  for (const auto& row : m.run.rows) {
    out += fmt::format(" {:>11}  {:>12}  {:>6}  {:>5}  {:>4}", row.size_bytes, row.count ? std::to_string(*row.count) : "n/a",
                       row.type.value_or("float"), row.redop.value_or("none"), row.root.value_or(-1));
    out += result_cells(row.out_of_place) + result_cells(row.in_place) + "\n";
  }
  const auto avg = core::average_busbw_gbps(m.run);
  out += fmt::format("# Avg bus bandwidth    : {}\n", cell(avg, "{:.4f}"));
  for (const auto& note : m.run.notes) out += "# note: " + note + "\n";
  return out;
}

}  // namespace

accept::CollectiveRunNamer nccl_run_namer(bool simulated) {
  return [simulated](const probes::CollectiveMeasurement& m, const std::vector<int>& indices) {
    return m.nodes > 1 ? fmt::format("gpuvet nccl across {} nodes, GPUs {} of each{}", m.nodes, compact(indices),
                                     simulated ? ", simulated" : "")
                       : fmt::format("gpuvet nccl, GPUs {}{}{}", compact(indices), nvls_label(m.nvls), simulated ? ", simulated" : "");
  };
}

std::string render_nccl_tables(const NcclResults& results, const OrdinalMap& map, const core::Machine& machine) {
  std::string out = fmt::format("# gpuvet nccl: {}\n", results.backend);
  if (results.simulated) out += "# SIMULATED: every time and bandwidth below comes from a model, not a measurement\n";
  out += "# busbw as nccl-tests defines it (doc/PERFORMANCE.md); GB/s = 1e9 B/s; time = median of the iterations\n#\n";
  for (const auto& note : results.notes) out += "# note: " + note + "\n#\n";
  for (const auto& m : results.sweeps) out += sweep_table(m, map.indices(m.gpus)) + "#\n";
  for (const auto& s : results.scaling) {
    out += fmt::format("# scaling: {} at {} B, out-of-place busbw (GB/s)\n", api::to_string(s.op), s.bytes);
    out += fmt::format("# {:<18} {:>6}  {:>8}\n", "GPUs", "path", "busbw");
    auto line = [&](const probes::CollectiveMeasurement& m) {
      const auto idx = map.indices(m.gpus);
      out += fmt::format("  {:<18} {:>6}  {:>8}\n", join(idx), path_between(machine, idx), cell(busbw_of(m), "{:.2f}"));
    };
    for (const auto& m : s.pairs) line(m);
    for (const auto& m : s.subsets) line(m);
    if (s.all) line(*s.all);
    out += "#\n";
  }
  return out;
}

std::string render_cross_node_tables(const std::vector<probes::CollectiveMeasurement>& sweeps, const OrdinalMap& map) {
  std::string out;
  for (const auto& m : sweeps) out += sweep_table(m, map.indices(m.gpus)) + "#\n";
  return out;
}

}  // namespace gpuvet::cli
