// gpuvet nccl under mpirun/srun: every rank measures and judges its own node and sends rank 0
// its typed node message (nccl_node_wire.hpp); then, when every node measured, all ranks run the sweep across the nodes
// (NCCL bootstrapped through MPI, or the simulated nodes' model) and rank 0 judges it against the
// NICs most nodes have. Rank 0 prints one line per node, the cross-node tables, the findings
// (the nodes', cross-node inventory consistency, cross-node busbw) and the cluster's verdict.
#include <fmt/format.h>

#include <nlohmann/json.hpp>
#include <ostream>

#include "analysis/collective_judge.hpp"
#include "analysis/judge.hpp"
#include "analysis/scaling_nodes.hpp"
#include "backends/mpi/mpi_session.hpp"
#include "catalog/gpu_catalog.hpp"
#include "cli/nccl_node.hpp"
#include "cli/nccl_node_wire.hpp"
#include "core/finding_codes.hpp"
#include "report/finding_json.hpp"
#include "report/machine_report.hpp"
#include "report/text_wrap.hpp"

namespace gpuvet::cli {
namespace {

using nlohmann::ordered_json;

constexpr std::string_view kClusterSchema = "gpuvet.cluster/1";

// MPI_COMM_WORLD as the backends' process group.
class MpiGroup final : public api::ProcessGroup {
 public:
  explicit MpiGroup(mpi::Session& session) : session_(session) {}
  [[nodiscard]] int rank() const override { return session_.rank(); }
  [[nodiscard]] int size() const override { return session_.size(); }
  core::Result<std::vector<std::string>> all_gather(const std::string& bytes) override {
    return session_.all_gather(bytes);
  }
  core::Result<std::string> broadcast(const std::string& bytes) override { return session_.broadcast(bytes); }

 private:
  mpi::Session& session_;
};

// What rank 0 knows of the collectives across nodes.
struct CrossNode {
  std::string not_run;                            // why they did not run (empty when they did)
  std::optional<core::Error> error;               // they ran and failed
  std::vector<core::CollectiveSummary> summaries;
  std::vector<core::Finding> findings;
  std::string tables;                             // nccl-tests style
};

std::string reading_text(const core::Reading<double>& r) { return r ? fmt::format("{:.1f} GB/s", *r) : "n/a"; }

ordered_json cross_summary_json(const core::CollectiveSummary& c) {
  ordered_json j;
  j["op"] = c.op;
  j["source"] = c.source;
  j["ranks"] = c.ranks ? ordered_json(*c.ranks) : ordered_json(nullptr);
  j["nodes"] = c.nodes ? ordered_json(*c.nodes) : ordered_json(nullptr);
  j["peak_busbw_gbps"] = c.peak_busbw_gbps ? ordered_json(*c.peak_busbw_gbps) : ordered_json(nullptr);
  j["avg_busbw_gbps"] = c.avg_busbw_gbps ? ordered_json(*c.avg_busbw_gbps) : ordered_json(nullptr);
  j["max_size_bytes"] = c.max_size_bytes ? ordered_json(*c.max_size_bytes) : ordered_json(nullptr);
  j["wrong"] = c.wrong ? ordered_json(*c.wrong) : ordered_json(nullptr);
  j["expected_busbw_gbps"] = c.expected_busbw_gbps ? ordered_json(*c.expected_busbw_gbps) : ordered_json(nullptr);
  j["expected_basis"] = c.expected_basis;
  return j;
}

ordered_json cross_json(const CrossNode& cross) {
  ordered_json j;
  j["run"] = cross.not_run.empty() && !cross.error;
  if (!cross.not_run.empty()) j["not_run"] = cross.not_run;
  if (cross.error) j["error"] = cross.error->message;
  ordered_json collectives = ordered_json::array();
  for (const auto& c : cross.summaries) collectives.push_back(cross_summary_json(c));
  j["collectives"] = collectives;
  return j;
}

// --json's "nodes": each node's own report as it rendered it, or its error and exit code.
ordered_json nodes_json(const std::vector<NodeMessage>& nodes) {
  ordered_json out = ordered_json::array();
  for (const auto& n : nodes) {
    if (n.error) {
      out.push_back({{"error", n.error->message}, {"exit_code", static_cast<int>(core::exit_code_for(n.error->kind))}});
    } else {
      out.push_back(ordered_json::parse(n.report_json));
    }
  }
  return out;
}

// The cluster's verdict: an error on any node outranks everything; then fail, then incomplete.
core::ExitCode cluster_exit(const std::vector<NodeMessage>& nodes, const std::vector<core::Finding>& cluster,
                            const CrossNode& cross) {
  core::ExitCode worst = core::exit_code_for(core::verdict_of(cluster));
  if (cross.error) worst = core::exit_code_for(cross.error->kind);
  auto rank_of = [](core::ExitCode c) {
    switch (c) {
      case core::ExitCode::pass: return 0;
      case core::ExitCode::incomplete: return 1;
      case core::ExitCode::fail: return 2;
      default: return 3;
    }
  };
  for (const auto& n : nodes) {
    const core::ExitCode code = n.error ? core::exit_code_for(n.error->kind) : core::exit_code_for(n.verdict);
    if (rank_of(code) > rank_of(worst)) worst = code;
  }
  return worst;
}

std::string cross_text(const CrossNode& cross) {
  std::string out = "\nAcross nodes (every node's GPUs in one communicator)\n";
  if (!cross.not_run.empty()) return out + "  not run: " + cross.not_run + "\n";
  if (cross.error) return out + "  error: " + cross.error->message + "\n";
  out += cross.tables;
  for (const auto& c : cross.summaries) {
    out += fmt::format("  {} on {} ranks: peak busbw {}, expected {}\n      basis: {}\n", c.op,
                       c.ranks ? std::to_string(*c.ranks) : "?", reading_text(c.peak_busbw_gbps),
                       reading_text(c.expected_busbw_gbps), c.expected_basis);
  }
  return out;
}

std::string render_text(const std::vector<NodeMessage>& nodes, const std::vector<core::Finding>& cluster,
                        const CrossNode& cross, core::ExitCode code) {
  std::string out = fmt::format(
      "gpuvet nccl on {} nodes (one rank per node): each node measured on its own, then all nodes together\n\n",
      nodes.size());
  out += fmt::format("  {:<5} {:<24} {:>4}  {:<26} {:<12} {:<10} {}\n", "Rank", "Host", "GPUs", "GPU", "Driver",
                     "Verdict", "Peak busbw (op)");
  for (std::size_t r = 0; r < nodes.size(); ++r) {
    const auto& n = nodes[r];
    if (n.error) {
      out += fmt::format("  {:<5} error: {}\n", r, n.error->message);
      continue;
    }
    const auto& gpus = n.inventory.gpu_names;
    const std::string busbw = n.peak_busbw_gbps ? fmt::format("{:.1f} GB/s ({})", *n.peak_busbw_gbps, n.peak_busbw_op) : "n/a";
    out += fmt::format("  {:<5} {:<24} {:>4}  {:<26} {:<12} {:<10} {}\n", r, n.hostname, gpus.size(),
                       gpus.empty() ? std::string() : gpus[0], n.inventory.driver_version, core::to_string(n.verdict), busbw);
  }
  out += cross_text(cross);
  out += "\nFindings (warn and fail; each node's full report: --json)\n";
  int shown = 0;
  for (std::size_t r = 0; r < nodes.size(); ++r) {
    for (const auto& f : nodes[r].findings) {
      if (f.severity == core::Severity::info) continue;
      out += fmt::format("  {:<5} rank {}: {:<24} {}\n", core::to_string(f.severity), r, f.code, f.message);
      ++shown;
    }
  }
  for (const auto& f : cluster) {
    out += fmt::format("  {:<5} cluster: {:<24} {}\n", core::to_string(f.severity), f.code, f.message);
    for (const auto& [k, v] : f.evidence) out += fmt::format("        {}: {}\n", k, v);
    ++shown;
  }
  if (shown == 0) out += "  none\n";
  const char* verdict = code == core::ExitCode::pass         ? "PASS"
                        : code == core::ExitCode::fail       ? "FAIL"
                        : code == core::ExitCode::incomplete ? "INCOMPLETE"
                                                             : "ERROR";
  out += fmt::format("\nVerdict: {} ({} nodes)\n", verdict, nodes.size());
  return out;
}


// Every rank: the sweep across nodes when rank 0 says every node measured; rank 0 judges it.
CrossNode run_cross_node(mpi::Session& mpi, core::Result<NodeOutcome>& node, const CrossNodeSweep& across,
                         const std::vector<NodeMessage>& nodes) {
  CrossNode cross;
  int go = 0;
  // A node whose own sweep hung may still have GPUs busy with the aborted collective, and its
  // backend runs nothing more: starting the cross-node sweep would leave the other nodes waiting.
  const auto hung = [](const NodeMessage& n) {
    return std::any_of(n.findings.begin(), n.findings.end(), [](const core::Finding& f) { return f.code == core::code::collective_hung; });
  };
  if (mpi.rank() == 0) {
    go = std::none_of(nodes.begin(), nodes.end(), [&](const NodeMessage& n) { return n.error || hung(n); }) ? 1 : 0;
  }
  auto shared = mpi.broadcast(go);
  if (!shared) {
    cross.error = shared.error();
    return cross;
  }
  if (*shared == 0 || !node) {
    cross.not_run = "a node could not measure itself, or a collective hung on it (see its lines above)";
    return cross;
  }
  MpiGroup group(mpi);
  auto sweeps = across(node.value(), group);
  if (!sweeps) {
    cross.error = sweeps.error().with_context("collectives across nodes");
    return cross;
  }
  if (mpi.rank() != 0) return cross;
  const accept::CollectiveObservation across_nodes{*sweeps, {}};
  cross.tables = report::render_nccl_sweeps(nccl_sweeps(*sweeps, node->map));
  std::vector<analysis::NodeNetwork> networks;
  for (const auto& n : nodes) networks.push_back(n.network);
  const auto& catalog = catalog::gpu_catalog();
  core::Assessment assessment;
  assessment.interconnect = node->assessment.interconnect;
  const auto runs = accept::enveloped_runs(across_nodes, node->map, nccl_run_namer(node->results.simulated));
  analysis::judge_cross_node_collectives(runs, static_cast<int>(node->ordinals.size()),
                                         node->machine, networks, catalog, assessment);
  cross.summaries = std::move(assessment.collectives);
  cross.findings = std::move(assessment.findings);
  return cross;
}

}  // namespace

core::Result<core::ExitCode> run_nccl_cluster(const std::function<core::Result<NodeOutcome>(int)>& measure,
                                              const CrossNodeSweep& across, bool json, Streams& streams) {
  auto session = mpi::join();
  if (!session) return session.error();
  auto& mpi = *session.value();
  auto node = measure(mpi.rank());
  auto gathered = mpi.gather(encode_node_message(node_message_of(node, mpi.rank())));
  if (!gathered) return gathered.error();
  std::vector<NodeMessage> nodes;
  for (std::size_t r = 0; r < gathered->size(); ++r) {
    auto decoded = decode_node_message((*gathered)[r], static_cast<int>(r));
    if (!decoded) return decoded.error();
    nodes.push_back(std::move(decoded).value());
  }
  const CrossNode cross = run_cross_node(mpi, node, across, nodes);
  int code = 0;
  if (mpi.rank() == 0) {
    std::vector<analysis::NodeInventory> inventories;
    for (const auto& n : nodes) {
      if (!n.error) inventories.push_back(n.inventory);
    }
    auto cluster = analysis::judge_nodes(inventories);
    for (const auto& f : cross.findings) cluster.push_back(f);
    const auto exit = cluster_exit(nodes, cluster, cross);
    code = static_cast<int>(exit);
    if (json) {
      ordered_json j;
      j["schema"] = std::string(kClusterSchema);
      j["command"] = "nccl";
      j["nodes"] = nodes_json(nodes);
      j["cross_node"] = cross_json(cross);
      ordered_json findings = ordered_json::array();
      for (const auto& f : cluster) findings.push_back(report::finding_json(f));
      j["findings"] = findings;
      j["exit_code"] = code;
      streams.out << j.dump(2) << "\n";
    } else {
      streams.out << report::fit_lines(render_text(nodes, cluster, cross, exit));
    }
  }
  auto shared = mpi.broadcast(code);
  if (!shared) return shared.error();
  if (mpi.rank() != 0 && !node) streams.err << "gpuvet: rank " << mpi.rank() << ": " << node.error().message << "\n";
  return static_cast<core::ExitCode>(*shared);
}

}  // namespace gpuvet::cli
