// nccl-tests style tables for gpuvet nccl: the column layout of nccl-tests' own output, with
// "n/a" for a reading the probe could not take.
#include "report/nccl_text.hpp"

#include <fmt/format.h>

namespace gpuvet::report {
namespace {

std::string join(const std::vector<int>& v) {
  std::string out;
  for (int g : v) out += (out.empty() ? "" : ",") + std::to_string(g);
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

std::string sweep_table(const NcclSweep& m) {
  const char* reduction = m.run.rows.empty() || !m.run.rows.front().redop ? "no reduction" : "sum";
  std::string out =
      m.nodes > 1 ? fmt::format("# {} across {} nodes, GPUs {} of each ({} ranks), float, {}\n", m.run.op, m.nodes,
                                gpu_ranges(m.gpus), m.run.ranks.value_or(0), reduction)
                  : fmt::format("# {} on GPUs {} ({} ranks){}, float, {}\n", m.run.op, gpu_ranges(m.gpus), m.gpus.size(),
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

std::string gpu_ranges(const std::vector<int>& v) {
  std::string out;
  for (std::size_t i = 0; i < v.size();) {
    std::size_t j = i;
    while (j + 1 < v.size() && v[j + 1] == v[j] + 1) ++j;
    out += out.empty() ? "" : ",";
    out += j >= i + 2 ? fmt::format("{}-{}", v[i], v[j])
                      : join(std::vector<int>(v.begin() + static_cast<long>(i), v.begin() + static_cast<long>(j) + 1));
    i = j + 1;
  }
  return out;
}

std::string nvls_label(const std::optional<bool>& nvls) {
  if (!nvls) return "";
  return *nvls ? ", NVLS on (NCCL_NVLS_ENABLE=1)" : ", NVLS off (NCCL_NVLS_ENABLE=0)";
}

std::string render_nccl_tables(const NcclTables& tables, const core::Machine& machine) {
  std::string out = fmt::format("# gpuvet nccl: {}\n", tables.backend);
  if (tables.simulated) out += "# SIMULATED: every time and bandwidth below comes from a model, not a measurement\n";
  out += "# busbw as nccl-tests defines it (doc/PERFORMANCE.md); GB/s = 1e9 B/s; time = median of the iterations\n#\n";
  for (const auto& note : tables.notes) out += "# note: " + note + "\n#\n";
  out += render_nccl_sweeps(tables.sweeps);
  for (const auto& s : tables.scaling) {
    out += fmt::format("# scaling: {} at {} B, out-of-place busbw (GB/s)\n", s.op, s.bytes);
    out += fmt::format("# {:<18} {:>6}  {:>8}\n", "GPUs", "path", "busbw");
    for (const auto& set : s.sets) {
      out += fmt::format("  {:<18} {:>6}  {:>8}\n", join(set.gpus), path_between(machine, set.gpus), cell(set.busbw_gbps, "{:.2f}"));
    }
    out += "#\n";
  }
  return out;
}

std::string render_nccl_sweeps(const std::vector<NcclSweep>& sweeps) {
  std::string out;
  for (const auto& m : sweeps) out += sweep_table(m) + "#\n";
  return out;
}

}  // namespace gpuvet::report
