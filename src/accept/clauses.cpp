// Builds the clause list of each stage from the spec: id, title, what is expected and where the
// spec says so. Status starts as not_run; the stage that runs decides it.
#include "accept/clauses.hpp"

#include "core/duration.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace gpuvet::accept {

namespace {

template <class T>
std::string source_of(const spec::Field<T>& field) {
  if (field.line > 0) return fmt::format("spec line {}", field.line);
  return field.origin.empty() ? "default" : "default (" + field.origin + ")";
}

template <class T>
ClauseResult clause(std::string_view id, std::string title, std::string expected, const spec::Field<T>& field,
                    const char* stage) {
  ClauseResult c;
  c.id = std::string(id);
  c.title = std::move(title);
  c.expected = std::move(expected);
  c.source = source_of(field);
  c.stage = stage;
  c.observed = "n/a";
  return c;
}

std::string floor_text(const spec::Floor& floor, const char* what) {
  return floor ? fmt::format("{} >= {:g} GB/s", what, *floor) : fmt::format("{} at the envelope of this machine", what);
}

}  // namespace

std::string collective_clause_id(std::string_view op, int gpus) {
  return fmt::format("collectives.{}.{}", op, gpus == 0 ? "all" : std::to_string(gpus));
}

std::vector<ClauseResult> inventory_clauses(const spec::Spec& s) {
  std::vector<ClauseResult> out;
  if (s.gpu_count) out.push_back(clause(clause_id::gpu_count, "GPU count", fmt::format("{} GPUs", s.gpu_count->value), *s.gpu_count, "inventory"));
  if (s.gpu_model) out.push_back(clause(clause_id::gpu_model, "GPU model", s.gpu_model->value, *s.gpu_model, "inventory"));
  if (s.same_batch) {
    out.push_back(clause(clause_id::gpu_same_batch, "Same batch", fmt::format("equal on every GPU: {}", fmt::join(s.same_batch->value, ", ")),
                         *s.same_batch, "inventory"));
  }
  // `infer` promises nothing a machine could break (every card class serves inference), so it
  // is no clause: a clause that can only pass would be a check that cannot fail.
  if (s.workload && s.workload->value == spec::Workload::train) {
    out.push_back(clause(clause_id::workload, "Cards suit the workload", "training-class cards (train)", *s.workload, "inventory"));
  }
  return out;
}

std::vector<ClauseResult> topology_clauses(const spec::Spec& s) {
  std::vector<ClauseResult> out;
  if (s.interconnect) {
    const auto& claim = s.interconnect->value;
    out.push_back(clause(clause_id::interconnect, "GPU interconnect",
                         claim.any_nvlink_mesh ? "an NVLink full mesh (nvswitch_full_mesh or nvlink_direct_full_mesh)"
                                               : std::string(core::to_string(claim.cls)),
                         *s.interconnect, "topology"));
  }
  if (s.pcie_gen || s.pcie_width) {
    std::string expected = "every GPU at";
    if (s.pcie_gen) expected += fmt::format(" Gen{}", s.pcie_gen->value);
    if (s.pcie_width) expected += fmt::format(" x{}", s.pcie_width->value);
    out.push_back(clause(clause_id::pcie, "PCIe links", expected, s.pcie_gen ? *s.pcie_gen : *s.pcie_width, "topology"));
  }
  if (s.nics) {
    const auto& n = s.nics->value;
    out.push_back(clause(clause_id::nics, "Network ports",
                         n.min_rate_gbit_s ? fmt::format("{} ACTIVE ports at >= {:g} Gb/s", n.count, *n.min_rate_gbit_s)
                                           : fmt::format("{} ACTIVE ports", n.count),
                         *s.nics, "topology"));
  }
  return out;
}

std::vector<ClauseResult> numa_clauses(const spec::Spec& s) {
  if (!s.numa) return {};
  const auto& l = s.numa->value;
  return {clause(clause_id::numa, "NUMA layout",
                 l.gpus_per_node > 0 ? fmt::format("GPUs on {} NUMA nodes, {} on each", l.nodes, l.gpus_per_node)
                                     : fmt::format("GPUs on {} NUMA nodes", l.nodes),
                 *s.numa, "numa")};
}

std::vector<ClauseResult> memory_clauses(const spec::Spec& s) {
  std::vector<ClauseResult> out;
  if (s.memory_gib) out.push_back(clause(clause_id::gpu_memory, "Memory per GPU", fmt::format("{:g} GiB as sold", s.memory_gib->value), *s.memory_gib, "memory"));
  if (s.healthy && s.healthy->value) {
    out.push_back(clause(clause_id::gpu_health, "Memory health", "no pending row remap, remap failure or retired pages", *s.healthy, "memory"));
  }
  return out;
}

std::vector<ClauseResult> bandwidth_clauses(const spec::Spec& s) {
  std::vector<ClauseResult> out;
  if (s.h2d_gbps) out.push_back(clause(clause_id::bandwidth_h2d, "Host<->device copy bandwidth", floor_text(s.h2d_gbps->value, "every GPU"), *s.h2d_gbps, "bandwidth"));
  if (s.p2p_gbps) out.push_back(clause(clause_id::bandwidth_p2p, "Peer copy bandwidth", floor_text(s.p2p_gbps->value, "every GPU pair"), *s.p2p_gbps, "bandwidth"));
  for (auto& c : out) c.unit = "GB/s";
  return out;
}

std::vector<ClauseResult> vram_clauses(const spec::Spec& s) {
  if (!s.vram_min_fraction) return {};
  auto c = clause(clause_id::vram, "Usable VRAM",
                  fmt::format("{:g} % of the memory per GPU allocatable and error-free", s.vram_min_fraction->value * 100),
                  *s.vram_min_fraction, "vram");
  c.unit = "GiB";
  return {c};
}

std::vector<ClauseResult> collectives_clauses(const spec::Spec& s) {
  std::vector<ClauseResult> out;
  for (const auto& f : s.busbw) {
    const std::string n = f.gpus == 0 ? "all" : std::to_string(f.gpus);
    auto c = clause(collective_clause_id(f.op, f.gpus), fmt::format("{} busbw on {} GPUs", f.op, n),
                    f.gbps ? fmt::format("busbw >= {:g} GB/s", *f.gbps) : std::string("busbw at the envelope of this machine"),
                    spec::Field<int>{0, f.line, {}}, "collectives");
    c.unit = "GB/s";
    out.push_back(std::move(c));
  }
  if (s.scaling_efficiency) {
    out.push_back(clause(clause_id::collectives_scaling, "Scaling efficiency",
                         fmt::format("all_reduce busbw on all GPUs >= {:g} % of busbw on half as many", s.scaling_efficiency->value * 100),
                         *s.scaling_efficiency, "collectives"));
  }
  return out;
}

std::vector<ClauseResult> burnin_clauses(const spec::Spec& s) {
  if (!s.burnin) return {};
  const auto& b = s.burnin->value;
  const std::string traffic =
      b.traffic.on() ? fmt::format(" with {} traffic on the links ({:g} % of the time; busbw hot >= {:g} % of cold)",
                                   core::traffic_kinds_text(b.traffic.kinds), b.traffic.share * 100, b.busbw_hot_min_fraction * 100)
                     : std::string();
  return {clause(clause_id::burnin, "Burn-in",
                 fmt::format("{} under full load{}; throttled <= {:g} % of the time, <= {} new uncorrectable ECC, <= {} XID, "
                             "<= {} new NVLink errors",
                             core::format_duration(b.duration_s), traffic, b.throttle_max_fraction * 100, b.ecc_uncorrectable_max,
                             b.xid_max, b.nvlink_errors_max),
                 *s.burnin, "burnin")};
}

}  // namespace gpuvet::accept
