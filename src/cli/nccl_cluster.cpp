// gpuvet nccl under mpirun/srun: every rank measures and judges its own node and sends its
// JSON report to rank 0, which prints one line per node, the nodes' findings, cross-node
// inventory consistency (node_inventory_mismatch) and the cluster's verdict. Cross-node
// collectives (NCCL bootstrapped through MPI) are not run yet; the output says so.
#include <fmt/format.h>

#include <nlohmann/json.hpp>
#include <ostream>

#include "analysis/scaling_nodes.hpp"
#include "backends/mpi/mpi_session.hpp"
#include "cli/nccl_render.hpp"
#include "report/machine_report.hpp"

namespace gpuvet::cli {
namespace {

using nlohmann::ordered_json;

constexpr std::string_view kClusterSchema = "gpuvet.cluster/1";

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

ordered_json finding_json(const core::Finding& f) {
  ordered_json j;
  j["code"] = f.code;
  j["severity"] = std::string(core::to_string(f.severity));
  j["gpus"] = f.gpus;
  j["message"] = f.message;
  ordered_json evidence = ordered_json::object();
  for (const auto& [k, v] : f.evidence) evidence[k] = v;
  j["evidence"] = evidence;
  j["next_step"] = f.next_step;
  return j;
}

// The cluster's verdict: an error on any node outranks everything; then fail, then incomplete.
core::ExitCode cluster_exit(const std::vector<ordered_json>& nodes, const std::vector<core::Finding>& cluster) {
  core::ExitCode worst = core::exit_code_for(core::verdict_of(cluster));
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

std::string render_text(const std::vector<ordered_json>& nodes, const std::vector<core::Finding>& cluster,
                        core::ExitCode code) {
  std::string out = fmt::format(
      "gpuvet nccl on {} nodes (one rank per node): each node measured on its own; cross-node collectives "
      "are not run yet\n\n",
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

}  // namespace

core::Result<core::ExitCode> run_nccl_cluster(const std::function<core::Result<NodeOutcome>(int)>& measure, bool json,
                                              Streams& streams) {
  auto session = mpi::join();
  if (!session) return session.error();
  auto& mpi = *session.value();
  const auto node = measure(mpi.rank());
  auto gathered = mpi.gather(node_message(node));
  if (!gathered) return gathered.error();
  int code = 0;
  if (mpi.rank() == 0) {
    std::vector<ordered_json> nodes;
    std::vector<analysis::NodeInventory> inventories;
    for (std::size_t r = 0; r < gathered->size(); ++r) {
      auto parsed = ordered_json::parse((*gathered)[r], nullptr, false);
      if (parsed.is_discarded()) return core::internal_error(fmt::format("rank {} sent a report that is not JSON", r));
      if (!parsed.contains("error")) inventories.push_back(inventory_of(parsed, static_cast<int>(r)));
      nodes.push_back(std::move(parsed));
    }
    const auto cluster = analysis::judge_nodes(inventories);
    const auto exit = cluster_exit(nodes, cluster);
    code = static_cast<int>(exit);
    if (json) {
      ordered_json j;
      j["schema"] = std::string(kClusterSchema);
      j["command"] = "nccl";
      j["nodes"] = nodes;
      ordered_json findings = ordered_json::array();
      for (const auto& f : cluster) findings.push_back(finding_json(f));
      j["findings"] = findings;
      j["exit_code"] = code;
      streams.out << j.dump(2) << "\n";
    } else {
      streams.out << render_text(nodes, cluster, exit);
    }
  }
  auto shared = mpi.broadcast(code);
  if (!shared) return shared.error();
  if (mpi.rank() != 0 && !node) streams.err << "gpuvet: rank " << mpi.rank() << ": " << node.error().message << "\n";
  return static_cast<core::ExitCode>(*shared);
}

}  // namespace gpuvet::cli
