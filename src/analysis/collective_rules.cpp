// Judges collective benchmark runs (nccl-tests logs, later gpuvet's own probe) against the
// envelope of the machine they ran on: busbw at the plateau, wrong results, and why a run
// could not be judged.
#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "analysis/collective_envelope.hpp"
#include "analysis/collective_judge.hpp"
#include "analysis/fabric_inference.hpp"
#include "analysis/judge.hpp"
#include "analysis/rule_support.hpp"

namespace gpuvet::analysis {

namespace {

// Below this size busbw has not reached its plateau on NVLink machines: 256 MiB is too small on
// H100 (nccl-tests#212); healthy machines plateau at 8-16 GiB (perf-anchors.md section 0).
constexpr std::uint64_t kPlateauBytes = 1ull << 30;
constexpr double kWarnRatio = 0.90;  // below 90 % of the envelope: warn
constexpr double kFailRatio = 0.80;  // below 80 %: fail

std::string size_text(std::uint64_t bytes) {
  if (bytes >= (1ull << 30)) return fmt::format("{:g} GiB", static_cast<double>(bytes) / (1ull << 30));
  if (bytes >= (1ull << 20)) return fmt::format("{:g} MiB", static_cast<double>(bytes) / (1ull << 20));
  return fmt::format("{} B", bytes);
}

core::CollectiveSummary summarize(const core::CollectiveRun& run) {
  core::CollectiveSummary s;
  s.op = run.op;
  s.source = run.source;
  s.ranks = run.ranks;
  s.nodes = run.nodes;
  s.printed_avg_busbw_gbps = run.printed_avg_busbw_gbps;
  s.avg_busbw_gbps = core::average_busbw_gbps(run);
  s.peak_busbw_gbps = core::peak_busbw_gbps(run);
  s.wrong = core::wrong_total(run);
  s.max_size_bytes = core::Reading<std::uint64_t>::absent("empty table");
  for (const auto& row : run.rows) {
    if (!s.max_size_bytes || row.size_bytes > *s.max_size_bytes) s.max_size_bytes = row.size_bytes;
    for (const auto* r : {&row.out_of_place, &row.in_place}) {
      if (r->busbw_gbps && s.peak_busbw_gbps && *r->busbw_gbps == *s.peak_busbw_gbps) s.peak_size_bytes = row.size_bytes;
    }
  }
  return s;
}

// busbw_below_expected, or collective_not_judged saying why; nullopt when the run is fine.
std::optional<core::Finding> judge_busbw(const std::string& what, const core::CollectiveSummary& s,
                                         const BusbwExpectation& env) {
  if (!env.busbw_gbps || !s.peak_busbw_gbps) {
    return make_finding("collective_not_judged", core::Severity::info, {},
                        fmt::format("{}: busbw not judged: {}", what, s.expected_basis));
  }
  if (!s.max_size_bytes || *s.max_size_bytes < kPlateauBytes) {
    return make_finding("collective_not_judged", core::Severity::info, {},
                        fmt::format("{}: the largest message is {}, too small to reach the busbw plateau; "
                                    "run up to 8-16 GiB (-e 16G) to compare with the expected {} GB/s",
                                    what, s.max_size_bytes ? size_text(*s.max_size_bytes) : "unknown",
                                    format_gbps(*env.busbw_gbps)));
  }
  const double ratio = *s.peak_busbw_gbps / *env.busbw_gbps;
  if (ratio >= kWarnRatio) return std::nullopt;
  auto f = make_finding("busbw_below_expected", ratio < kFailRatio ? core::Severity::fail : core::Severity::warn, {},
                        fmt::format("{}: peak busbw {} GB/s is {:.0f} % of the {} GB/s this machine should reach",
                                    what, format_gbps(*s.peak_busbw_gbps), ratio * 100, format_gbps(*env.busbw_gbps)));
  f.evidence = {{"measured peak busbw", format_gbps(*s.peak_busbw_gbps) + " GB/s"},
                {"expected busbw", format_gbps(*env.busbw_gbps) + " GB/s"},
                {"basis", s.expected_basis}};
  return f;
}

// Records the summary and its findings: collective_wrong_results, then busbw_below_expected (with
// `extra` evidence) or collective_not_judged.
void judge_one(const std::string& what, core::CollectiveSummary s, const BusbwExpectation& env, core::Assessment& assessment,
               const std::vector<std::pair<std::string, std::string>>& extra = {}) {
  if (s.wrong && *s.wrong > 0) {
    auto f = make_finding("collective_wrong_results", core::Severity::fail, {},
                          fmt::format("{}: {} wrong elements: the GPUs or links corrupt data", what, *s.wrong));
    f.evidence = {{"#wrong", std::to_string(*s.wrong)}};
    assessment.findings.push_back(std::move(f));
  }
  if (auto f = judge_busbw(what, s, env)) {
    if (f->code == "busbw_below_expected") f->evidence.insert(f->evidence.end(), extra.begin(), extra.end());
    assessment.findings.push_back(std::move(*f));
  }
  assessment.collectives.push_back(std::move(s));
}

}  // namespace

void judge_collectives(const std::vector<core::CollectiveRun>& runs, const core::Machine& machine,
                       const core::Catalog& catalog, core::Assessment& assessment) {
  judge_collectives(runs, std::vector<CollectiveAlgorithm>{}, machine, catalog, assessment);
}

void judge_collectives(const std::vector<core::CollectiveRun>& runs, const std::vector<CollectiveAlgorithm>& algorithms,
                       const core::Machine& machine, const core::Catalog& catalog, core::Assessment& assessment) {
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const auto& run = runs[i];
    const auto algorithm = i < algorithms.size() ? algorithms[i] : CollectiveAlgorithm::nccl_default;
    auto s = summarize(run);
    const Fabric fabric = fabric_for(run.device_names, run.ranks.value_or(0), run.nodes.value_or(1), machine, catalog,
                                     assessment.interconnect);
    const int ranks = run.ranks.value_or(0);
    auto env = ranks > 0 ? expected_busbw(run.op, ranks, run.nodes.value_or(1), fabric.model, fabric.per_gpu_gbps,
                                          fabric.cls, algorithm)
                         : BusbwExpectation{core::Reading<double>::absent("rank count not in the log"),
                                            "rank count not in the log"};
    s.expected_busbw_gbps = env.busbw_gbps;
    s.expected_basis = fabric.inferred + env.basis;
    const char* forced = algorithm == CollectiveAlgorithm::ring ? ", NVLS off"
                         : algorithm == CollectiveAlgorithm::nvls ? ", NVLS on"
                                                                   : "";
    const std::string what = fmt::format("{} on {} ranks{} ({})", run.op, ranks > 0 ? std::to_string(ranks) : "?", forced,
                                         run.source);
    judge_one(what, std::move(s), env, assessment);
  }
}

std::string nvls_unsupported(const core::Machine& machine, int ranks, const core::Catalog& catalog,
                             const core::InterconnectSummary& interconnect) {
  const Fabric fabric = fabric_for({}, ranks, 1, machine, catalog, interconnect);
  return nvls_unsupported_reason(fabric.model, fabric.cls, ranks);
}

void judge_cross_node_collectives(const std::vector<core::CollectiveRun>& runs, int local_ranks, const core::Machine& node,
                                  const std::vector<NodeNetwork>& networks, const core::Catalog& catalog,
                                  core::Assessment& assessment) {
  const NodeNetwork* usual = usual_network(networks);
  for (const auto& run : runs) {
    auto s = summarize(run);
    const int nodes = run.nodes.value_or(1);
    const Fabric fabric = fabric_for({}, local_ranks, 1, node, catalog, assessment.interconnect);
    const auto env = expected_cross_node_busbw(run.op, local_ranks, nodes, fabric.model, fabric.per_gpu_gbps, fabric.cls,
                                               networks);
    s.expected_busbw_gbps = env.busbw_gbps;
    s.expected_basis = env.basis;
    const std::string what = fmt::format("{} across {} nodes, {} ranks ({})", run.op, nodes,
                                         run.ranks ? std::to_string(*run.ranks) : "?", run.source);
    std::vector<std::pair<std::string, std::string>> weak;
    if (usual != nullptr) {
      for (const auto& n : networks) {
        if (n.described && n.active_gbit_s < usual->active_gbit_s) {
          weak.emplace_back(n.host, fmt::format("{} of {} NICs ACTIVE, {:g} Gb/s in all (most nodes: {} ACTIVE, {:g} Gb/s)",
                                                n.active_nics, n.nics, n.active_gbit_s, usual->active_nics,
                                                usual->active_gbit_s));
        }
      }
    }
    judge_one(what, std::move(s), env, assessment, weak);
  }
}
}  // namespace gpuvet::analysis
