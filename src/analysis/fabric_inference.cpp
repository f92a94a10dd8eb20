// fabric_for: machine picture first, else an HGX board inferred from the log's device list, else
// the class the headline gave the log's GPUs;
// node_fabric_for: the same per node of a multi-node log, from its Rank lines grouped by host.
#include "analysis/fabric_inference.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "analysis/nvswitch_board.hpp"
#include "analysis/rule_support.hpp"

namespace gpuvet::analysis {

const core::GpuModel* common_model(const std::vector<const core::GpuModel*>& models) {
  if (models.empty() || models[0] == nullptr) return nullptr;
  for (const auto* m : models) {
    if (m != models[0]) return nullptr;
  }
  return models[0];
}

Fabric fabric_for(const std::vector<std::string>& devices, int ranks, int nodes, const core::Machine& machine,
                  const core::Catalog& catalog, const core::InterconnectSummary& ic) {
  Fabric f;
  std::vector<const core::GpuModel*> logged;
  for (const auto& name : devices) logged.push_back(catalog.match(name));
  if (!machine.gpus.empty()) {
    f.model = common_model(match_models(machine, catalog));
    f.cls = ic.cls;
    f.per_gpu_gbps = ic.gpu_bandwidth_gbps;
    // A pasted topo -m names no model; the log's device list can, when it covers the same GPUs.
    if (f.model == nullptr && devices.size() == machine.gpus.size()) {
      f.model = common_model(logged);
      if (f.model != nullptr) f.inferred = fmt::format("GPU model {} from the log; ", f.model->display_name);
    }
    if (!f.per_gpu_gbps && f.model != nullptr && f.model->nvlink_link_gbps && machine.links &&
        f.cls == core::InterconnectClass::nvswitch_full_mesh) {
      int nv = 0;
      for (int b = 1; b < machine.links->size(); ++b) nv = std::max(nv, machine.links->at(0, b).nvlink_count);
      f.per_gpu_gbps = nv * *f.model->nvlink_link_gbps;
    }
    return f;
  }
  f.model = common_model(logged);
  // HGX 8-GPU baseboards (V100 excepted: DGX-1 is a hybrid cube mesh) join their SXM GPUs
  // through NVSwitch; nothing else puts 8 SXM GPUs of these generations on one node.
  if (f.model != nullptr && eight_make_an_nvswitch_board(*f.model) && ranks == 8 && nodes <= 1 &&
      f.model->nvlink_link_gbps) {
    f.cls = core::InterconnectClass::nvswitch_full_mesh;
    f.per_gpu_gbps = f.model->nvlink_links * *f.model->nvlink_link_gbps;
    f.inferred = fmt::format("inferred from the log: 8x {} on one node is an HGX board with NVSwitch; ",
                             f.model->display_name);
  } else if (ic.cls != core::InterconnectClass::unknown && nodes <= 1) {
    // The headline classified the GPUs the log names (PCIe only when no model of them has
    // NVLink, from the catalogue): one story per report. The per-GPU rate stays the board's.
    f.cls = ic.cls;
    f.per_gpu_gbps = core::Reading<double>::absent("a log alone does not show the per-GPU link rate");
    f.inferred = fmt::format("{} as the interconnect line says ({}); ", core::to_string(ic.cls), ic.reasoning);
  }
  return f;
}

Fabric node_fabric_for(const core::CollectiveRun& run, int local_ranks, const core::Machine& machine,
                       const core::Catalog& catalog, const core::InterconnectSummary& ic) {
  if (!machine.gpus.empty() || local_ranks != 8) return fabric_for({}, local_ranks, 1, machine, catalog, ic);
  std::vector<std::pair<std::string, NodeGpu>> gpus;
  for (const auto& r : run.rank_devices) {
    if (r.host.empty()) return fabric_for({}, local_ranks, 1, machine, catalog, ic);
    gpus.emplace_back(r.host, NodeGpu{r.rank, r.name.empty() ? nullptr : catalog.match(r.name), !r.name.empty()});
  }
  // Every rank must have its line: a node of the paste is a node of the run.
  if (!run.ranks || static_cast<int>(gpus.size()) != *run.ranks) return fabric_for({}, local_ranks, 1, machine, catalog, ic);
  const NodeBoards boards = nvswitch_boards_per_node(gpus);
  if (boards.model == nullptr || !boards.model->nvlink_link_gbps) return fabric_for({}, local_ranks, 1, machine, catalog, ic);
  Fabric f;
  f.model = boards.model;
  f.cls = core::InterconnectClass::nvswitch_full_mesh;
  f.per_gpu_gbps = boards.model->nvlink_links * *boards.model->nvlink_link_gbps;
  const std::string unnamed = describe_unnamed(boards);
  f.inferred = fmt::format("inferred from the log: {}, each an HGX board with NVSwitch{}; ", describe_boards(boards),
                           unnamed.empty() ? "" : " (" + unnamed + ")");
  return f;
}

}  // namespace gpuvet::analysis
