// Judges collective benchmark runs (nccl-tests logs, later gpuvet's own probe) against the
// envelope of the machine they ran on: busbw at the plateau, wrong results, and why a run
// could not be judged.
#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <set>

#include "analysis/collective_envelope.hpp"
#include "analysis/collective_judge.hpp"
#include "analysis/fabric_inference.hpp"
#include "analysis/judge.hpp"
#include "analysis/finding_codes.hpp"
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
    return make_finding(code::collective_not_judged, core::Severity::info, {},
                        fmt::format("{}: busbw not judged: {}", what, s.expected_basis));
  }
  if (!s.max_size_bytes || *s.max_size_bytes < kPlateauBytes) {
    return make_finding(code::collective_not_judged, core::Severity::info, {},
                        fmt::format("{}: the largest message is {}, too small to reach the busbw plateau; "
                                    "run up to 8-16 GiB (-e 16G) to compare with the expected {} GB/s",
                                    what, s.max_size_bytes ? size_text(*s.max_size_bytes) : "unknown",
                                    format_gbps(*env.busbw_gbps)));
  }
  const double ratio = *s.peak_busbw_gbps / *env.busbw_gbps;
  if (ratio >= kWarnRatio) return std::nullopt;
  auto f = make_finding(code::busbw_below_expected, ratio < kFailRatio ? core::Severity::fail : core::Severity::warn, {},
                        fmt::format("{}: peak busbw {} GB/s is {:.0f} % of the {} GB/s this machine should reach",
                                    what, format_gbps(*s.peak_busbw_gbps), ratio * 100, format_gbps(*env.busbw_gbps)));
  f.evidence = {{"measured peak busbw", format_gbps(*s.peak_busbw_gbps) + " GB/s"},
                {"expected busbw", format_gbps(*env.busbw_gbps) + " GB/s"},
                {"basis", s.expected_basis}};
  return f;
}

// The file a run came from: "f.txt" of "nccl-tests run 1 of 3 (f.txt)".
std::string file_of(const std::string& source) {
  const auto open = source.find('(');
  return open == std::string::npos || source.back() != ')' ? source : source.substr(open + 1, source.size() - open - 2);
}

// benchmark_failed for a run whose log says it failed; nccl_tests_not_joined once per file of
// separate one-process runs. `files_warned` keeps the files already named.
void judge_run_failures(const core::CollectiveRun& run, std::set<std::string>& files_warned, core::Assessment& assessment) {
  if (!run.failures.empty()) {
    auto f = make_finding(code::benchmark_failed, core::Severity::fail, {},
                          fmt::format("{}: the run failed{}: {}", run.source,
                                      run.rows.empty() ? " before its first result row" : "", run.failures.front()));
    for (const auto& line : run.failures) f.evidence.emplace_back("log", line);
    f.evidence.emplace_back("check", "rerun with NCCL_DEBUG=INFO and read the WARN lines; dmesg for Xid errors; driver "
                                     "and CUDA versions; nvidia-fabricmanager on NVSwitch machines; ibstat on every node "
                                     "of a multi-node run");
    assessment.findings.push_back(std::move(f));
  }
  if (run.separate_runs > 1 && files_warned.insert(file_of(run.source)).second) {
    auto f = make_finding(code::nccl_tests_not_joined, core::Severity::warn, {},
                          fmt::format("{}: {} separate runs of {} in one file, each with its own table: the processes did "
                                      "not join one communicator (nccl-tests built without MPI, started under mpirun "
                                      "or srun), so no GPU exchanged data with another",
                                      file_of(run.source), run.separate_runs, run.op));
    f.evidence = {{"runs", std::to_string(run.separate_runs)}};
    assessment.findings.push_back(std::move(f));
  }
}

// Records the summary and its findings: collective_wrong_results, then busbw_below_expected (with
// `extra` evidence) or collective_not_judged.
void judge_one(const std::string& what, core::CollectiveSummary s, const BusbwExpectation& env, core::Assessment& assessment,
               const std::vector<std::pair<std::string, std::string>>& extra = {}) {
  if (s.wrong && *s.wrong > 0) {
    auto f = make_finding(code::collective_wrong_results, core::Severity::fail, {},
                          fmt::format("{}: {} wrong elements: the GPUs or links corrupt data", what, *s.wrong));
    f.evidence = {{"#wrong", std::to_string(*s.wrong)}};
    assessment.findings.push_back(std::move(f));
  }
  if (auto f = judge_busbw(what, s, env)) {
    if (f->code == code::busbw_below_expected) f->evidence.insert(f->evidence.end(), extra.begin(), extra.end());
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
  std::set<std::string> files_warned;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const auto& run = runs[i];
    const auto algorithm = i < algorithms.size() ? algorithms[i] : CollectiveAlgorithm::nccl_default;
    judge_run_failures(run, files_warned, assessment);
    auto s = summarize(run);
    const int ranks = run.ranks.value_or(0);
    // A node count the log does not give is unknown, not 1: one node only when the machine
    // described holds every rank.
    const bool one_node = run.nodes ? *run.nodes <= 1 : ranks > 0 && ranks <= static_cast<int>(machine.gpus.size());
    const int nodes = run.nodes ? *run.nodes : 1;
    const Fabric fabric = fabric_for(run.device_names, ranks, nodes, machine, catalog, assessment.interconnect);
    auto env = ranks <= 0 ? BusbwExpectation{core::Reading<double>::absent("rank count not in the log"), "rank count not in the log"}
               : !run.nodes && !one_node
                   ? BusbwExpectation{core::Reading<double>::absent("node count unknown"),
                                      fmt::format("node count unknown: the log names no hosts and no machine with {} GPUs "
                                                  "was described",
                                                  ranks)}
                   : expected_busbw(run.op, ranks, nodes, fabric.model, fabric.per_gpu_gbps, fabric.cls, algorithm);
    s.expected_busbw_gbps = env.busbw_gbps;
    s.expected_basis = fabric.inferred + env.basis;
    const char* forced = algorithm == CollectiveAlgorithm::ring ? ", NVLS off"
                         : algorithm == CollectiveAlgorithm::nvls ? ", NVLS on"
                                                                   : "";
    const std::string what = fmt::format("{} on {} ranks{} ({})", run.op, ranks > 0 ? std::to_string(ranks) : "?", forced,
                                         run.source);
    if (run.rows.empty()) {
      assessment.findings.push_back(make_finding(
          code::collective_not_judged, core::Severity::info, {},
          fmt::format("{}: no result row in the log: {}", what,
                      run.failures.empty() ? "the run never finished a message size (hung, cut, or only the header "
                                             "was pasted)"
                                           : "the run failed first (benchmark_failed)")));
      assessment.collectives.push_back(std::move(s));
      continue;
    }
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

namespace gpuvet::analysis {

namespace {

// One 100 Gb/s link at the ring efficiency of the cross-node envelope (perf-anchors.md 2.3).
constexpr double kOneLinkGbps = 100.0 / 8.0 * 0.92;

// Why a cross-node run may be slow, from what the machine description shows; the causes it
// cannot see are named too, as things to check.
std::string likely_network_causes(const core::Machine& machine, int local_ranks, int nics) {
  std::vector<std::string> causes;
  if (nics > 0 && local_ranks > nics) {
    causes.push_back(fmt::format("one NIC for several GPUs ({} GPUs per node share {} NIC{})", local_ranks, nics, nics == 1 ? "" : "s"));
  }
  if (machine.nics) {
    for (const auto& nic : *machine.nics) {
      if (!nic.gpu_proximity) continue;
      std::vector<int> far;
      for (size_t g = 0; g < nic.gpu_proximity->size() && g < machine.gpus.size(); ++g) {
        if ((*nic.gpu_proximity)[g].kind == core::LinkKind::sys) far.push_back(machine.gpus[g].index);
      }
      if (!far.empty() && far.size() == std::min(machine.gpus.size(), nic.gpu_proximity->size())) {
        causes.push_back(fmt::format("NIC {} is on the far socket (SYS) from every GPU", nic.label));
      }
    }
  }
  for (const auto& gpu : machine.gpus) {
    if (gpu.virtualization_mode && *gpu.virtualization_mode != "None") {
      causes.push_back(fmt::format("a VM (virtualization mode {}) hides the PCIe topology from NCCL: give it NCCL_TOPO_FILE",
                                   *gpu.virtualization_mode));
      break;
    }
  }
  causes.push_back("GPUDirect RDMA off (NCCL_DEBUG=INFO shows no 'GDRDMA' on its NET/IB lines; load nvidia-peermem)");
  if (causes.size() == 1) {
    causes.push_back("a NIC on the far socket or one NIC for several GPUs (nvidia-smi topo -m of a node shows which)");
    causes.push_back("a VM hiding the PCIe topology from NCCL");
  }
  return fmt::format("{}", fmt::join(causes, "; "));
}

}  // namespace

void judge_multi_node_collectives(const std::vector<core::CollectiveRun>& runs, const core::Machine& machine,
                                  const Expectations& expect, const core::Catalog& catalog, core::Assessment& assessment) {
  std::set<std::string> files_warned;
  for (const auto& run : runs) {
    if (!run.nodes || *run.nodes < 2) continue;
    judge_run_failures(run, files_warned, assessment);
    auto s = summarize(run);
    const int nodes = *run.nodes;
    const int ranks = run.ranks.value_or(0);
    const int local = ranks > 0 && ranks % nodes == 0 ? ranks / nodes : 0;
    const std::string what = fmt::format("{} across {} nodes, {} ranks ({})", run.op, nodes,
                                         ranks > 0 ? std::to_string(ranks) : "?", run.source);
    if (run.rows.empty()) {
      assessment.findings.push_back(make_finding(code::collective_not_judged, core::Severity::info, {},
                                                 fmt::format("{}: no result row in the log", what)));
      assessment.collectives.push_back(std::move(s));
      continue;
    }
    // The NICs of a node: --expect-nic, else the rated ACTIVE ports of the machine described.
    NodeNetwork net;
    if (expect.nic_count && expect.nic_gbit_s) {
      net.host = "--expect-nic";
      net.described = true;
      net.nics = net.active_nics = *expect.nic_count;
      net.active_gbit_s = *expect.nic_count * *expect.nic_gbit_s;
      net.fastest_gbit_s = *expect.nic_gbit_s;
    } else {
      net = network_of(machine, "the machine described");
    }
    BusbwExpectation env;
    if (net.described && net.active_nics > 0 && local > 0) {
      // Without a machine description, each node's fabric as its Rank lines imply it.
      const Fabric fabric = node_fabric_for(run, local, machine, catalog, assessment.interconnect);
      env = expected_cross_node_busbw(run.op, local, nodes, fabric.model, fabric.per_gpu_gbps, fabric.cls,
                                      std::vector<NodeNetwork>(static_cast<size_t>(nodes), net));
      if (env.busbw_gbps) env.basis = fabric.inferred + env.basis;
      if (!env.busbw_gbps && env.basis.find("own envelope is unknown") != std::string::npos) {
        // The node's fabric is not described: the NICs alone bound the run (they are the narrow
        // part of every NVLink machine; on PCIe-only nodes the bound may be too high).
        const int used = std::min(net.active_nics, local);
        const double mean = net.active_gbit_s / net.active_nics;
        env.busbw_gbps = used * mean / 8.0 * 0.92;
        env.basis = fmt::format("between nodes, {} NIC{} x {:g} Gb/s (at most one per GPU) = {} GB/s x 0.92 = {} GB/s; the "
                                "node's own fabric is not described",
                                used, used == 1 ? "" : "s", mean, format_gbps(used * mean / 8.0), format_gbps(*env.busbw_gbps));
      }
    } else {
      const bool small = !s.max_size_bytes || *s.max_size_bytes < kPlateauBytes;
      if (!small && s.peak_busbw_gbps && *s.peak_busbw_gbps < kOneLinkGbps) {
        auto f = make_finding(code::busbw_below_expected, core::Severity::warn, {},
                              fmt::format("{}: peak busbw {} GB/s is below what one 100 Gb/s link carries ({} GB/s); the "
                                          "nodes' NICs are not described (give --expect-nic COUNTxRATE or topo -m/ibstat "
                                          "of a node)",
                                          what, format_gbps(*s.peak_busbw_gbps), format_gbps(kOneLinkGbps)));
        f.evidence = {{"measured peak busbw", format_gbps(*s.peak_busbw_gbps) + " GB/s"},
                      {"floor", "100 Gb/s / 8 x 0.92"},
                      {"likely cause", likely_network_causes(machine, local, 0)}};
        assessment.findings.push_back(std::move(f));
        s.expected_basis = "one 100 Gb/s link (the nodes' NICs are not described)";
        assessment.collectives.push_back(std::move(s));
        continue;
      }
      env.busbw_gbps = core::Reading<double>::absent("NICs unknown");
      env.basis = local > 0 ? "multi-node: the nodes' NICs are unknown; give --expect-nic COUNTxRATE (e.g. 8x400) or "
                              "ibstat / topo -m with rates of a node"
                            : "multi-node: the ranks per node are unknown";
    }
    s.expected_busbw_gbps = env.busbw_gbps;
    s.expected_basis = env.basis;
    judge_one(what, std::move(s), env, assessment,
              {{"likely cause", likely_network_causes(machine, local, net.active_nics)}});
  }
}

}  // namespace gpuvet::analysis
