// Measured peer copies as evidence of NVLink and NVSwitch (see peer_link_evidence.hpp).
#include "analysis/peer_link_evidence.hpp"

#include <algorithm>
#include <charconv>
#include <map>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "analysis/finding_codes.hpp"
#include "analysis/fabric_inference.hpp"
#include "analysis/interconnect_view.hpp"
#include "analysis/judge.hpp"
#include "analysis/rules.hpp"

namespace gpuvet::analysis {

namespace {

std::optional<int> gpu_label(const std::string& label) {
  int v = 0;
  const auto [ptr, ec] = std::from_chars(label.data(), label.data() + label.size(), v);
  if (ec != std::errc() || ptr != label.data() + label.size() || v < 0 || v >= 4096) return std::nullopt;
  return v;
}

// One direction GPU to GPU, P2P on: what a link carries (bidirectional matrices add both ways).
bool peer_copy_one_way(const std::string& testcase) {
  return testcase == "p2p_unidirectional_p2p_enabled" || testcase == "device_to_device_memcpy_read_ce" ||
         testcase == "device_to_device_memcpy_write_ce" || testcase == "device_to_device_memcpy_read_sm" ||
         testcase == "device_to_device_memcpy_write_sm";
}

bool p2p_allowed(const core::BandwidthRun& run, int i, int j) {
  if (!run.p2p_access) return true;
  const auto& a = *run.p2p_access;
  return i < static_cast<int>(a.size()) && j < static_cast<int>(a[static_cast<size_t>(i)].size()) &&
         a[static_cast<size_t>(i)][static_cast<size_t>(j)];
}

PeerLinkEvidence read_matrix(const core::BandwidthRun& run, const core::BandwidthMatrix& mx) {
  PeerLinkEvidence ev;
  ev.source = run.source;
  ev.testcase = mx.testcase;
  std::map<int, double> row_sums;
  std::map<int, int> row_peers;
  std::map<int, double> column_sums;
  std::map<int, int> column_peers;
  for (const auto* labels : {&mx.row_labels, &mx.column_labels}) {
    for (const auto& l : *labels) {
      if (const auto g = gpu_label(l)) ev.matrix_gpus = std::max(ev.matrix_gpus, *g + 1);
    }
  }
  for (size_t r = 0; r < mx.values.size() && r < mx.row_labels.size(); ++r) {
    const auto row = gpu_label(mx.row_labels[r]);
    for (size_t c = 0; c < mx.values[r].size() && c < mx.column_labels.size() && row; ++c) {
      const auto column = gpu_label(mx.column_labels[c]);
      const auto& v = mx.values[r][c];
      if (!column || *column == *row || !v || *v <= kPcieMaxGbps || !p2p_allowed(run, *row, *column)) continue;
      ev.slowest_gbps = ev.nvlink_pairs.empty() ? *v : std::min(ev.slowest_gbps, *v);
      ev.fastest_gbps = std::max(ev.fastest_gbps, *v);
      ev.nvlink_pairs.emplace_back(*row, *column);
      row_sums[*row] += *v;
      ++row_peers[*row];
      column_sums[*column] += *v;
      ++column_peers[*column];
    }
  }
  for (const auto& [sums, peers] : {std::pair{&row_sums, &row_peers}, std::pair{&column_sums, &column_peers}}) {
    for (const auto& [gpu, sum] : *sums) {
      if (sum > ev.switch_sum_gbps) {
        ev.switch_sum_gbps = sum;
        ev.switch_gpu = gpu;
        ev.switch_peers = peers->at(gpu);
      }
    }
  }
  return ev;
}

// "GPU 0 -> GPUs 1-7" when one GPU's row holds every pair, else "GPU pairs 0->1, 2->3".
std::string describe_pairs(const PeerLinkEvidence& ev) {
  const int first_row = ev.nvlink_pairs.front().first;
  const bool one_row = std::all_of(ev.nvlink_pairs.begin(), ev.nvlink_pairs.end(),
                                   [&](const auto& p) { return p.first == first_row; });
  if (one_row) {
    std::vector<int> columns;
    for (const auto& p : ev.nvlink_pairs) columns.push_back(p.second);
    return fmt::format("GPU {} -> {}", first_row, describe_gpus(columns));
  }
  std::vector<std::string> parts;
  for (size_t i = 0; i < ev.nvlink_pairs.size() && i < 6; ++i) {
    parts.push_back(fmt::format("{}->{}", ev.nvlink_pairs[i].first, ev.nvlink_pairs[i].second));
  }
  if (ev.nvlink_pairs.size() > 6) parts.push_back(fmt::format("and {} more", ev.nvlink_pairs.size() - 6));
  return fmt::format("{} GPU pairs ({})", ev.nvlink_pairs.size(), fmt::join(parts, ", "));
}

std::string nvlink_words(const PeerLinkEvidence& ev) {
  return fmt::format("{} {} copies {} at {}-{} GB/s, above the {} GB/s per direction any PCIe link carries (PCIe 6.0 "
                     "x16): NVLink",
                     ev.source, ev.testcase, describe_pairs(ev), format_gbps(ev.slowest_gbps), format_gbps(ev.fastest_gbps),
                     format_gbps(kPcieMaxGbps));
}

}  // namespace

std::optional<PeerLinkEvidence> read_peer_links(const std::vector<core::BandwidthRun>& runs, const core::Catalog& catalog) {
  std::optional<PeerLinkEvidence> best;
  for (const auto& run : runs) {
    for (const auto& mx : run.matrices) {
      if (!peer_copy_one_way(mx.testcase) || mx.unit != "GB/s" || mx.status) continue;
      auto ev = read_matrix(run, mx);
      if (!ev.nvlink_pairs.empty() && (!best || ev.nvlink_pairs.size() > best->nvlink_pairs.size())) best = std::move(ev);
    }
  }
  if (!best) return best;
  for (const auto& model : catalog.models()) {
    const auto per_gpu = model.nvlink_gbps_per_gpu();
    if (per_gpu && *per_gpu > best->most_nvlink_gbps) {
      best->most_nvlink_gbps = *per_gpu;
      best->most_nvlink_model = model.display_name;
    }
  }
  // Without a catalogue there is no bound to exceed: no switch is proven.
  if (best->most_nvlink_gbps <= 0 || best->switch_sum_gbps <= best->most_nvlink_gbps) best->switch_gpu = -1;
  return best;
}

void infer_interconnect_from_peer_bandwidth(const std::vector<core::BandwidthRun>& runs, const core::Machine& machine,
                                            const core::Catalog& catalog, core::Assessment& assessment) {
  if (assessment.interconnect.cls != core::InterconnectClass::unknown || machine.gpus.empty()) return;
  const auto ev = read_peer_links(runs, catalog);
  if (!ev) return;
  std::set<int> on_nvlink;
  for (const auto& [a, b] : ev->nvlink_pairs) {
    on_nvlink.insert(a);
    on_nvlink.insert(b);
  }
  const bool every_gpu = std::all_of(machine.gpus.begin(), machine.gpus.end(),
                                     [&](const core::Gpu& g) { return on_nvlink.count(g.index) > 0; });
  const auto models = match_models(machine, catalog);
  core::InterconnectSummary s = assessment.interconnect;
  if (ev->switch_gpu >= 0 && every_gpu && !machine.links) {
    // A GPU's peer copies go over the links it shares with that peer alone, unless a switch lets
    // every peer use all of its links: more in all than its links carry means a switch.
    s.cls = core::InterconnectClass::nvswitch_full_mesh;
    s.inferred = true;
    s.reasoning = fmt::format(
        "inferred from measured peer bandwidth, not observed: {}; GPU {}'s {} peers took {} GB/s in all, one at a time, "
        "more than the {} GB/s per direction the NVLinks of any GPU carry ({}): the GPUs meet in NVSwitches (give "
        "nvidia-smi topo -m to confirm)",
        nvlink_words(*ev), ev->switch_gpu, ev->switch_peers, format_gbps(ev->switch_sum_gbps),
        format_gbps(ev->most_nvlink_gbps), ev->most_nvlink_model);
    const core::GpuModel* model = common_model(models);
    s.gpu_bandwidth_gbps = model != nullptr ? model->nvlink_gbps_per_gpu()
                                            : core::Reading<double>::absent("GPU model not in the input: its NVLink rate "
                                                                            "is unknown");
    const View v{machine, models, static_cast<int>(machine.gpus.size())};
    s.headline = fmt::format("{}, NVSwitch full mesh (inferred from measured peer bandwidth): {}", inventory_label(v),
                             bandwidth_text(s.gpu_bandwidth_gbps, "per GPU per direction"));
  } else {
    s.reasoning += fmt::format("; measured peer bandwidth shows {}, but not the fabric of every GPU pair", nvlink_words(*ev));
    const View v{machine, models, static_cast<int>(machine.gpus.size())};
    s.headline = unknown_summary(v, s.reasoning).headline;
  }
  assessment.interconnect = s;
  const Expectations none;
  const RuleContext ctx{machine, catalog, none, models, s};
  auto fresh = check_interconnect(ctx);
  for (auto& f : assessment.findings) {
    if (f.code == code::interconnect_class && !fresh.empty()) f = fresh.front();
  }
}

}  // namespace gpuvet::analysis
