// Facts from NCCL_DEBUG=INFO lines (see nccl_debug_info.hpp). Line forms from real logs: NVLS
// and "NVL[..] - NVS/0" (nccl#1453, nccl#1189), "type NVL/PHB" graph patterns (nccl#1519),
// "ncclCommInitRank ... cudaDev 6 nvmlDev 6 busId ba000" (nccl#1357).
#include "parsers/nccl_debug_info.hpp"

#include <fmt/format.h>
#include <regex>

#include "parsers/text_lines.hpp"

namespace gpuvet::parsers {

namespace {

std::optional<int> int_after(std::string_view t, std::string_view key) {
  const auto at = t.find(key);
  if (at == std::string_view::npos) return std::nullopt;
  const auto cells = split_ws(t.substr(at + key.size()));
  if (cells.empty()) return std::nullopt;
  try {
    size_t used = 0;
    const int v = std::stoi(cells[0], &used);
    if (used != cells[0].size() || v < 0) return std::nullopt;
    return v;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

// "ba000" (NCCL's busId: bus, device, function in hex, domain left out) -> "0000:ba:00.0".
std::string bus_of(std::string_view hex) {
  if (hex.size() < 5 || hex.size() > 12 || hex.find_first_not_of("0123456789abcdefABCDEF") != std::string_view::npos) return "";
  const auto n = hex.size();
  const std::string domain = n > 5 ? std::string(hex.substr(0, n - 5)) : "0";
  return fmt::format("{:0>4}:{}:{}.{}", domain, hex.substr(n - 5, 2), hex.substr(n - 3, 2), hex.substr(n - 1, 1));
}

// The path type NCCL's graph search chose inside the node: "type NVL/PIX" -> "NVL".
std::string intra_type(std::string_view t) {
  const auto at = t.find(", type ");
  if (at == std::string_view::npos || t.find("Pattern ") == std::string_view::npos) return "";
  const auto rest = t.substr(at + 7);
  return std::string(rest.substr(0, rest.find_first_of("/, ")));
}

}  // namespace

void read_nccl_debug_line(std::string_view t, int line, NcclDebugFacts& facts) {
  const auto info = t.find(" NCCL ");
  if (info == std::string_view::npos) return;
  static const std::regex kPrefix(R"(([A-Za-z0-9_.-]+):(\d+):(\d+) \[(\d+)\])");
  const std::string head(t.substr(0, info));
  std::smatch m;
  if (std::regex_search(head, m, kPrefix)) {
    const int dev = std::stoi(m[4].str().substr(0, 6));
    facts.devices.emplace(std::make_pair(m[1].str(), dev), "");
    if (t.find("cudaDev ") != std::string_view::npos && t.find("busId ") != std::string_view::npos) {
      const auto cuda = int_after(t, "cudaDev ");
      const auto at = t.find("busId ");
      const auto cells = split_ws(t.substr(at + 6));
      if (cuda && !cells.empty()) facts.devices[std::make_pair(m[1].str(), *cuda)] = bus_of(cells[0]);
    }
  }
  const auto body = trim(t.substr(info + 6));
  const auto quote = [&] { return fmt::format("line {}: {}", line, trim(body.substr(body.find(' ') + 1))); };
  if (!facts.ranks) facts.ranks = int_after(body, " nRanks ");
  if (!facts.ranks) facts.ranks = int_after(body, " nranks ");
  if (!facts.nodes) facts.nodes = int_after(body, " nNodes ");
  if (facts.nvswitch_line.empty() &&
      (body.find("NVLS multicast support is available") != std::string_view::npos ||
       body.find("NVLS Head") != std::string_view::npos || body.find("] - NVS/") != std::string_view::npos)) {
    facts.nvswitch_line = quote();
  }
  const auto type = intra_type(body);
  if (facts.nvlink_line.empty() && (type == "NVL" || body.find("+ NVL[") != std::string_view::npos)) facts.nvlink_line = quote();
  if (facts.pcie_line.empty() && (type == "PIX" || type == "PXB" || type == "PHB" || type == "SYS" || type == "NODE")) {
    facts.pcie_line = quote();
  }
}

void apply_nccl_debug_facts(const NcclDebugFacts& facts, core::CollectiveRun& run) {
  if (run.rank_devices.empty()) {
    for (const auto& [key, bus] : facts.devices) {
      core::RankDevice d;
      d.rank = -1;  // NCCL INFO prefixes name the CUDA device, not the rank
      d.host = key.first;
      d.device = key.second;
      d.bus_id = bus;
      run.debug_devices.push_back(std::move(d));
    }
  }
  if (!run.ranks && facts.ranks) {
    run.ranks = *facts.ranks;
    run.notes.push_back(fmt::format("ranks {} from NCCL's init line (nRanks)", *facts.ranks));
  }
  if (!run.nodes && facts.nodes) run.nodes = *facts.nodes;
  run.nvswitch_evidence = facts.nvswitch_line;
  run.nvlink_evidence = facts.nvlink_line.empty() ? facts.nvswitch_line : facts.nvlink_line;
  run.pcie_path_evidence = facts.pcie_line;
}

}  // namespace gpuvet::parsers
