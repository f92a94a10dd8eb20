// The 8-GPU NVSwitch board rule, per machine and per node (see nvswitch_board.hpp).
#include "analysis/nvswitch_board.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace gpuvet::analysis {

bool fabric_state_reported(const core::Gpu& gpu) {
  if (!gpu.fabric_state) return false;
  const std::string& st = *gpu.fabric_state;
  return !st.empty() && !contains_nocase(st, "N/A") && !contains_nocase(st, "not supported");
}

bool eight_make_an_nvswitch_board(const core::GpuModel& model) {
  return model.form_factor == "sxm" && model.nvlink_links >= 8 &&
         (model.architecture == "Ampere" || model.architecture == "Hopper" || model.architecture == "Blackwell");
}

const core::GpuModel* nvswitch_board_model(const std::vector<NodeGpu>& gpus, int unnamed_allowed) {
  if (gpus.size() != 8) return nullptr;
  const core::GpuModel* model = nullptr;
  int unnamed = 0;
  for (const auto& g : gpus) {
    if (!g.named) {
      ++unnamed;
      continue;
    }
    if (g.model == nullptr || (model != nullptr && g.model != model)) return nullptr;
    model = g.model;
  }
  if (model == nullptr || unnamed > unnamed_allowed || !eight_make_an_nvswitch_board(*model)) return nullptr;
  return model;
}

NodeBoards nvswitch_boards_per_node(const std::vector<std::pair<std::string, NodeGpu>>& gpus) {
  NodeBoards out;
  std::vector<std::vector<NodeGpu>> nodes;
  for (const auto& [host, gpu] : gpus) {
    const auto it = std::find(out.hosts.begin(), out.hosts.end(), host);
    if (it == out.hosts.end()) {
      out.hosts.push_back(host);
      nodes.emplace_back();
    }
    nodes[static_cast<size_t>(std::find(out.hosts.begin(), out.hosts.end(), host) - out.hosts.begin())].push_back(gpu);
    if (!gpu.named) out.unnamed.push_back(gpu.index);
  }
  if (nodes.size() < 2 || out.unnamed.size() > 1) return out;
  const core::GpuModel* model = nullptr;
  for (const auto& node : nodes) {
    const core::GpuModel* m = nvswitch_board_model(node, 1);
    if (m == nullptr || (model != nullptr && m != model)) return out;
    model = m;
  }
  out.model = model;
  return out;
}

std::string describe_boards(const NodeBoards& boards) {
  if (boards.model == nullptr) return "";
  return fmt::format("{} nodes ({}) of 8 {} modules each", boards.hosts.size(), fmt::join(boards.hosts, ", "),
                     boards.model->display_name);
}

std::string describe_unnamed(const NodeBoards& boards) {
  if (boards.unnamed.empty()) return "";
  return fmt::format("{} is listed without its model (its line is cut) and taken as the 8th module of its node's board, "
                     "as every named GPU there is one",
                     describe_gpus(boards.unnamed));
}

std::optional<core::InterconnectSummary> classify_nodes_without_matrix(const View& v) {
  const core::Machine& m = v.machine;
  if (std::any_of(m.gpus.begin(), m.gpus.end(), fabric_state_reported)) return std::nullopt;
  std::vector<std::pair<std::string, NodeGpu>> gpus;
  for (int p = 0; p < v.n; ++p) {
    const core::Gpu* g = v.gpu(p);
    if (g == nullptr || !g->host) return std::nullopt;
    gpus.emplace_back(*g->host, NodeGpu{g->index, v.model(p), g->name.known()});
  }
  const NodeBoards boards = nvswitch_boards_per_node(gpus);
  if (boards.model == nullptr) return std::nullopt;
  core::InterconnectSummary s;
  s.cls = core::InterconnectClass::nvswitch_full_mesh;
  s.inferred = true;
  const std::string unnamed = describe_unnamed(boards);
  s.reasoning = fmt::format(
      "inferred, not observed: {}, and 8-GPU HGX/DGX boards of this generation join their GPUs through NVSwitches; the "
      "nodes meet over the network, not NVLink. {}No NVSwitch fabric state in the input: give nvidia-smi topo -m or "
      "nvlink -s of a node to confirm",
      describe_boards(boards), unnamed.empty() ? "" : unnamed + ". ");
  s.gpu_bandwidth_gbps = boards.model->nvlink_gbps_per_gpu();
  s.headline = fmt::format("{}, NVSwitch full mesh within each of {} nodes (inferred): {}", inventory_label(v),
                           boards.hosts.size(), bandwidth_text(s.gpu_bandwidth_gbps, "per GPU per direction"));
  return s;
}

}  // namespace gpuvet::analysis
