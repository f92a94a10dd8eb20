// The node message's encoding: a JSON object of the typed fields (enums as their numbers), read
// back field by field; a message that does not decode is a bug or a mixed gpuvet install.
#include "cli/nccl_node_wire.hpp"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "report/machine_report.hpp"

namespace gpuvet::cli {

namespace {

using nlohmann::json;

constexpr std::string_view kWireSchema = "gpuvet.nccl-node/1";

std::string known(const core::Reading<std::string>& r) { return r ? *r : std::string(); }

json finding_json(const core::Finding& f) {
  return json{{"code", f.code}, {"severity", static_cast<int>(f.severity)}, {"gpus", f.gpus},
              {"message", f.message}, {"evidence", f.evidence}, {"next_step", f.next_step}};
}

core::Finding finding_of(const json& j) {
  core::Finding f;
  f.code = j.at("code").get<std::string>();
  const int severity = j.at("severity").get<int>();
  if (severity < 0 || severity > static_cast<int>(core::Severity::fail)) throw std::out_of_range("severity");
  f.severity = static_cast<core::Severity>(severity);
  f.gpus = j.at("gpus").get<std::vector<int>>();
  f.message = j.at("message").get<std::string>();
  f.evidence = j.at("evidence").get<std::vector<std::pair<std::string, std::string>>>();
  f.next_step = j.at("next_step").get<std::string>();
  return f;
}

}  // namespace

NodeMessage node_message_of(const core::Result<NodeOutcome>& node, int rank) {
  NodeMessage m;
  if (!node) {
    m.error = node.error();
    return m;
  }
  const auto& machine = node->machine;
  m.hostname = known(machine.hostname);
  const std::string host = fmt::format("rank {} ({})", rank, m.hostname.empty() ? "host unknown" : m.hostname);
  m.inventory.host = host;
  m.inventory.driver_version = known(machine.driver_version);
  m.inventory.cuda_version = known(machine.cuda_version);
  for (const auto& gpu : machine.gpus) {
    m.inventory.gpu_names.push_back(known(gpu.name));
    m.inventory.vbios.push_back(known(gpu.vbios));
  }
  m.network = analysis::network_of(machine, host);
  m.verdict = node->verdict;
  m.findings = node->assessment.findings;
  for (const auto& c : node->assessment.collectives) {
    if (!c.peak_busbw_gbps) continue;
    m.peak_busbw_op = c.op;
    m.peak_busbw_gbps = *c.peak_busbw_gbps;
    break;
  }
  m.report_json = report::render_json({"nccl", node->machine, node->assessment, node->verdict});
  return m;
}

std::string encode_node_message(const NodeMessage& m) {
  json j{{"schema", kWireSchema}};
  if (m.error) {
    j["error"] = {{"kind", static_cast<int>(m.error->kind)}, {"message", m.error->message}};
    return j.dump();
  }
  const auto& inv = m.inventory;
  const auto& net = m.network;
  j["hostname"] = m.hostname;
  j["inventory"] = {{"host", inv.host}, {"gpu_names", inv.gpu_names}, {"vbios", inv.vbios},
                    {"driver_version", inv.driver_version}, {"cuda_version", inv.cuda_version}};
  j["network"] = {{"host", net.host}, {"described", net.described}, {"nics", net.nics}, {"active_nics", net.active_nics},
                  {"active_gbit_s", net.active_gbit_s}, {"fastest_gbit_s", net.fastest_gbit_s}, {"link_layer", net.link_layer}};
  j["verdict"] = static_cast<int>(m.verdict);
  j["findings"] = json::array();
  for (const auto& f : m.findings) j["findings"].push_back(finding_json(f));
  j["peak_busbw_op"] = m.peak_busbw_op;
  j["peak_busbw_gbps"] = m.peak_busbw_gbps ? json(*m.peak_busbw_gbps) : json(nullptr);
  j["report_json"] = m.report_json;
  return j.dump();
}

core::Result<NodeMessage> decode_node_message(std::string_view bytes, int rank) {
  const auto bad = [rank](const std::string& why) {
    return core::internal_error(fmt::format("rank {} sent a node message this gpuvet cannot read ({}); run the same "
                                            "gpuvet build on every node",
                                            rank, why));
  };
  const auto j = json::parse(bytes, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return bad("not JSON");
  if (j.value("schema", std::string()) != kWireSchema) return bad("schema is not " + std::string(kWireSchema));
  NodeMessage m;
  try {
    if (const auto e = j.find("error"); e != j.end()) {
      const int kind = e->at("kind").get<int>();
      if (kind < 0 || kind > static_cast<int>(core::ErrorKind::internal)) return bad("unknown error kind");
      m.error = core::Error{static_cast<core::ErrorKind>(kind), e->at("message").get<std::string>()};
      return m;
    }
    m.hostname = j.at("hostname").get<std::string>();
    const auto& inv = j.at("inventory");
    m.inventory.host = inv.at("host").get<std::string>();
    m.inventory.gpu_names = inv.at("gpu_names").get<std::vector<std::string>>();
    m.inventory.vbios = inv.at("vbios").get<std::vector<std::string>>();
    m.inventory.driver_version = inv.at("driver_version").get<std::string>();
    m.inventory.cuda_version = inv.at("cuda_version").get<std::string>();
    const auto& net = j.at("network");
    m.network.host = net.at("host").get<std::string>();
    m.network.described = net.at("described").get<bool>();
    m.network.nics = net.at("nics").get<int>();
    m.network.active_nics = net.at("active_nics").get<int>();
    m.network.active_gbit_s = net.at("active_gbit_s").get<double>();
    m.network.fastest_gbit_s = net.at("fastest_gbit_s").get<double>();
    m.network.link_layer = net.at("link_layer").get<std::string>();
    const int verdict = j.at("verdict").get<int>();
    if (verdict < 0 || verdict > static_cast<int>(core::Verdict::incomplete)) return bad("unknown verdict");
    m.verdict = static_cast<core::Verdict>(verdict);
    for (const auto& f : j.at("findings")) m.findings.push_back(finding_of(f));
    m.peak_busbw_op = j.at("peak_busbw_op").get<std::string>();
    if (const auto& p = j.at("peak_busbw_gbps"); !p.is_null()) m.peak_busbw_gbps = p.get<double>();
    m.report_json = j.at("report_json").get<std::string>();
    if (!json::accept(m.report_json)) return bad("its report is not JSON");
  } catch (const std::exception& e) {
    return bad(e.what());
  }
  return m;
}

}  // namespace gpuvet::cli
