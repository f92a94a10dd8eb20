// gpuvet nccl under mpirun/srun: every rank measures and judges its own node and sends its
// JSON report to rank 0; then, when every node measured, all ranks run the sweep across the nodes
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
#include "cli/nccl_render.hpp"
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

std::string text_or_empty(const ordered_json& j, const char* key) {
  return j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : std::string();
}

// What this rank sends: its machine report, or the error that stopped it.
std::string node_message(const core::Result<NodeOutcome>& node) {
  if (!node) {
    ordered_json j;
    j["error"] = node.error().message;
    j["exit_code"] = static_cast<int>(core::exit_code_for(node.error().kind));
    return j.dump();
  }
  return report::render_json({"nccl", node->machine, node->assessment, node->verdict});
}

analysis::NodeInventory inventory_of(const ordered_json& node, int rank) {
  analysis::NodeInventory inv;
  const std::string host = text_or_empty(node, "hostname");
  inv.host = fmt::format("rank {} ({})", rank, host.empty() ? "host unknown" : host);
  inv.driver_version = text_or_empty(node, "driver_version");
  inv.cuda_version = text_or_empty(node, "cuda_version");
  for (const auto& gpu : node.value("gpus", ordered_json::array())) {
    inv.gpu_names.push_back(text_or_empty(gpu, "name"));
    inv.vbios.push_back(text_or_empty(gpu, "vbios"));
  }
  return inv;
}

// A node's NICs from its JSON report ("nics": state, rate, link layer), as the judge reads them.
analysis::NodeNetwork network_from_json(const ordered_json& node, const std::string& host) {
  core::Machine machine;
  if (node.contains("nics") && node["nics"].is_array()) {
    std::vector<core::Nic> nics;
    for (const auto& n : node["nics"]) {
      core::Nic nic;
      nic.label = text_or_empty(n, "label");
      if (n.contains("rate_gbit_s") && n["rate_gbit_s"].is_number()) nic.rate_gbit_s = n["rate_gbit_s"].get<double>();
      if (n.contains("state") && n["state"].is_string()) nic.state = n["state"].get<std::string>();
      if (n.contains("link_layer") && n["link_layer"].is_string()) nic.link_layer = n["link_layer"].get<std::string>();
      nics.push_back(std::move(nic));
    }
    machine.nics = std::move(nics);
  }
  return analysis::network_of(machine, host);
}

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

// The cluster's verdict: an error on any node outranks everything; then fail, then incomplete.
core::ExitCode cluster_exit(const std::vector<ordered_json>& nodes, const std::vector<core::Finding>& cluster,
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
    core::ExitCode code = core::ExitCode::pass;
    if (n.contains("error")) {
      code = static_cast<core::ExitCode>(n.value("exit_code", 5));
    } else {
      const std::string v = text_or_empty(n, "verdict");
      code = v == "fail" ? core::ExitCode::fail : v == "incomplete" ? core::ExitCode::incomplete : core::ExitCode::pass;
    }
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

std::string render_text(const std::vector<ordered_json>& nodes, const std::vector<core::Finding>& cluster,
                        const CrossNode& cross, core::ExitCode code) {
  std::string out = fmt::format(
      "gpuvet nccl on {} nodes (one rank per node): each node measured on its own, then all nodes together\n\n",
      nodes.size());
  out += fmt::format("  {:<5} {:<24} {:>4}  {:<26} {:<12} {:<10} {}\n", "Rank", "Host", "GPUs", "GPU", "Driver",
                     "Verdict", "Peak busbw (op)");
  for (std::size_t r = 0; r < nodes.size(); ++r) {
    const auto& n = nodes[r];
    if (n.contains("error")) {
      out += fmt::format("  {:<5} error: {}\n", r, text_or_empty(n, "error"));
      continue;
    }
    const auto gpus = n.value("gpus", ordered_json::array());
    std::string busbw = "n/a";
    for (const auto& c : n.value("collectives", ordered_json::array())) {
      if (c.contains("peak_busbw_gbps") && c["peak_busbw_gbps"].is_number()) {
        busbw = fmt::format("{:.1f} GB/s ({})", c["peak_busbw_gbps"].get<double>(), text_or_empty(c, "op"));
        break;
      }
    }
    out += fmt::format("  {:<5} {:<24} {:>4}  {:<26} {:<12} {:<10} {}\n", r, text_or_empty(n, "hostname"), gpus.size(),
                       gpus.empty() ? std::string() : text_or_empty(gpus[0], "name"), text_or_empty(n, "driver_version"),
                       text_or_empty(n, "verdict"), busbw);
  }
  out += cross_text(cross);
  out += "\nFindings (warn and fail; each node's full report: --json)\n";
  int shown = 0;
  for (std::size_t r = 0; r < nodes.size(); ++r) {
    for (const auto& f : nodes[r].value("findings", ordered_json::array())) {
      const std::string sev = text_or_empty(f, "severity");
      if (sev == "info") continue;
      out += fmt::format("  {:<5} rank {}: {:<24} {}\n", sev, r, text_or_empty(f, "code"), text_or_empty(f, "message"));
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
                         const std::vector<ordered_json>& nodes) {
  CrossNode cross;
  int go = 0;
  // A node whose own sweep hung may still have GPUs busy with the aborted collective, and its
  // backend runs nothing more: starting the cross-node sweep would leave the other nodes waiting.
  const auto hung = [](const ordered_json& n) {
    const auto findings = n.value("findings", ordered_json::array());
    return std::any_of(findings.begin(), findings.end(), [](const ordered_json& f) { return text_or_empty(f, "code") == core::code::collective_hung; });
  };
  if (mpi.rank() == 0) {
    go = std::none_of(nodes.begin(), nodes.end(), [&](const ordered_json& n) { return n.contains("error") || hung(n); }) ? 1 : 0;
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
  cross.tables = render_cross_node_tables(*sweeps, node->map);
  std::vector<analysis::NodeNetwork> networks;
  for (std::size_t r = 0; r < nodes.size(); ++r) {
    const std::string host = text_or_empty(nodes[r], "hostname");
    networks.push_back(network_from_json(nodes[r], fmt::format("rank {} ({})", r, host.empty() ? "host unknown" : host)));
  }
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
  auto gathered = mpi.gather(node_message(node));
  if (!gathered) return gathered.error();
  std::vector<ordered_json> nodes;
  for (std::size_t r = 0; r < gathered->size(); ++r) {
    auto parsed = ordered_json::parse((*gathered)[r], nullptr, false);
    if (parsed.is_discarded()) return core::internal_error(fmt::format("rank {} sent a report that is not JSON", r));
    nodes.push_back(std::move(parsed));
  }
  const CrossNode cross = run_cross_node(mpi, node, across, nodes);
  int code = 0;
  if (mpi.rank() == 0) {
    std::vector<analysis::NodeInventory> inventories;
    for (std::size_t r = 0; r < nodes.size(); ++r) {
      if (!nodes[r].contains("error")) inventories.push_back(inventory_of(nodes[r], static_cast<int>(r)));
    }
    auto cluster = analysis::judge_nodes(inventories);
    for (const auto& f : cross.findings) cluster.push_back(f);
    const auto exit = cluster_exit(nodes, cluster, cross);
    code = static_cast<int>(exit);
    if (json) {
      ordered_json j;
      j["schema"] = std::string(kClusterSchema);
      j["command"] = "nccl";
      j["nodes"] = nodes;
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
