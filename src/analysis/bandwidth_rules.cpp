// Judges copy-bandwidth matrices (nvbandwidth, p2pBandwidthLatencyTest) against the envelope of
// the machine they ran on: host<->device per GPU and peer copies per GPU pair, plus pairs
// without P2P access. Other testcases are summarised but not judged.
#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <map>
#include <optional>

#include "analysis/bandwidth_envelope.hpp"
#include "analysis/judge.hpp"
#include "analysis/finding_codes.hpp"
#include "analysis/rule_support.hpp"

namespace gpuvet::analysis {

namespace {

constexpr double kWarnRatio = 0.85;  // below 85 % of the envelope: warn
constexpr double kFailRatio = 0.70;  // below 70 %: fail

enum class PathKind { host, peer, peer_bidirectional, memory, other };

// Per direction, a bidirectional peer copy keeps nearly the unidirectional rate on NVLink:
// 740-749 GB/s both ways vs 371-377 one way on HGX H100 (nccl#1264).
constexpr double kBidirectionalShare = 0.97;

// CE copies only: SM-driven host copies can read far lower on healthy machines (nvbandwidth#24).
PathKind path_kind(const std::string& testcase) {
  if (testcase == "host_to_device_memcpy_ce" || testcase == "device_to_host_memcpy_ce") return PathKind::host;
  if (testcase == "device_to_device_memcpy_read_ce" || testcase == "device_to_device_memcpy_write_ce" ||
      testcase == "p2p_unidirectional_p2p_enabled") {
    return PathKind::peer;
  }
  if (testcase == "device_local_copy_sm") return PathKind::memory;
  if (testcase == "device_to_device_bidirectional_memcpy_read_ce" ||
      testcase == "device_to_device_bidirectional_memcpy_write_ce") {
    return PathKind::peer_bidirectional;
  }
  return PathKind::other;
}

std::optional<int> label_index(const std::string& label) {
  int v = 0;
  const auto [ptr, ec] = std::from_chars(label.data(), label.data() + label.size(), v);
  if (ec != std::errc() || ptr != label.data() + label.size()) return std::nullopt;
  return v;
}

// Position in machine.gpus of a device index (identity when the machine is not described).
int position(const core::Machine& m, int index) {
  return m.gpus.empty() ? index : core::position_of_gpu(m, index);
}

// Per GPU index: a cause found by comparing rows of the run itself (host copies faster from
// the far NUMA node than from the GPU's own).
using CauseMap = std::map<int, std::string>;

struct Cell {
  std::string cause;      // likely cause, empty when none stands out
  std::string where;      // "GPU 3" or "GPU 3->5"
  std::vector<int> gpus;  // the GPU indices involved
  double value = 0;
  double expected = 0;
};

core::BandwidthSummary summarize(const core::BandwidthRun& run, const core::BandwidthMatrix& mx) {
  core::BandwidthSummary s;
  s.tool = run.tool;
  s.testcase = mx.testcase;
  s.source = run.source;
  s.unit = mx.unit;
  s.status = mx.status;
  // In a GPU x GPU matrix the diagonal is a device-local copy (p2pBandwidthLatencyTest prints
  // ~800 GB/s there): the spread is over GPU pairs only. A peer matrix cut after its first rows
  // still has a diagonal: a cell whose row and column name the same GPU (host rows are labelled
  // "0" too, so only GPU x GPU testcases).
  const bool square = mx.row_labels.size() > 1 && mx.row_labels == mx.column_labels;
  const bool gpu_by_gpu = square || mx.testcase.rfind("p2p_", 0) == 0 || mx.testcase.rfind("device_to_device_", 0) == 0;
  const auto self = [&](size_t r, size_t c) {
    return gpu_by_gpu && r < mx.row_labels.size() && c < mx.column_labels.size() && mx.row_labels[r] == mx.column_labels[c];
  };
  std::vector<double> all;
  for (size_t r = 0; r < mx.values.size(); ++r) {
    for (size_t c = 0; c < mx.values[r].size(); ++c) {
      if (mx.values[r][c] && !self(r, c)) all.push_back(*mx.values[r][c]);
    }
  }
  s.cells = static_cast<int>(all.size());
  if (all.empty()) {
    s.min = s.median = s.max = core::Reading<double>::absent("no values");
    return s;
  }
  std::sort(all.begin(), all.end());
  s.min = all.front();
  s.max = all.back();
  s.median = all[all.size() / 2];
  return s;
}

// Whether GPU i may access GPU j directly; true when the run does not say.
bool p2p_allowed(const core::BandwidthRun& run, int i, int j) {
  if (!run.p2p_access) return true;
  const auto& a = *run.p2p_access;
  return i < static_cast<int>(a.size()) && j < static_cast<int>(a[static_cast<size_t>(i)].size()) &&
         a[static_cast<size_t>(i)][static_cast<size_t>(j)];
}

void judge_matrix(const core::BandwidthRun& run, const core::BandwidthMatrix& mx, const core::Machine& machine,
                  const Fabric& fabric, const core::Catalog& catalog, const CauseMap& measured_causes,
                  const std::string& what, core::BandwidthSummary& s, std::vector<core::Finding>& out) {
  const PathKind kind = path_kind(mx.testcase);
  if (mx.status) {
    s.expected_basis = "not judged: the tool reported " + *mx.status;
    return;
  }
  if (kind == PathKind::other || mx.unit != "GB/s") {
    s.expected_basis =
        "not judged: only CE host copies (one direction), CE peer copies and the SM memory copy have an envelope";
    return;
  }
  std::vector<Cell> low;
  bool fail = false;
  std::optional<double> lowest_expected;
  for (size_t r = 0; r < mx.values.size(); ++r) {
    for (size_t c = 0; c < mx.values[r].size(); ++c) {
      const auto& v = mx.values[r][c];
      if (!v || c >= mx.column_labels.size() || r >= mx.row_labels.size()) continue;
      const auto gpu_col = label_index(mx.column_labels[c]);
      const auto gpu_row = label_index(mx.row_labels[r]);
      if (!gpu_col || (kind != PathKind::host && kind != PathKind::memory && !gpu_row)) continue;  // host rows are "CPU" or "0"
      PathExpectation e;
      std::string where;
      std::string cause;
      std::vector<int> involved = {*gpu_col};
      const int p = position(machine, *gpu_col);
      const core::Gpu* gpu = p >= 0 && p < static_cast<int>(machine.gpus.size()) ? &machine.gpus[static_cast<size_t>(p)] : nullptr;
      // Host and memory copies involve one GPU: its own model, also on a machine of mixed models.
      const core::GpuModel* own_model = fabric.model;
      if (own_model == nullptr && gpu != nullptr && gpu->name) own_model = catalog.match(*gpu->name);
      if (kind == PathKind::host) {
        e = expected_host_copy(gpu, own_model);
        where = fmt::format("GPU {}", *gpu_col);
        const auto measured = measured_causes.find(*gpu_col);
        cause = measured != measured_causes.end() ? measured->second : likely_host_cause(gpu, own_model);
      } else if (kind == PathKind::memory) {
        e = expected_memory_copy(own_model);
        where = fmt::format("GPU {}", *gpu_col);
      } else {
        // p2pBandwidthLatencyTest still fills its "P2P=Enabled" matrix for pairs that cannot
        // use P2P (the copies are staged through the host): those are p2p_unavailable, not slow.
        if (*gpu_row == *gpu_col || !p2p_allowed(run, *gpu_row, *gpu_col)) continue;
        // On a machine of mixed models a pair of alike GPUs still has a known link rate.
        Fabric pair_fabric = fabric;
        const int pr = position(machine, *gpu_row);
        if (pair_fabric.model == nullptr && pr >= 0 && pr < static_cast<int>(machine.gpus.size()) && gpu != nullptr &&
            gpu->name && machine.gpus[static_cast<size_t>(pr)].name) {
          const core::GpuModel* row_model = catalog.match(*machine.gpus[static_cast<size_t>(pr)].name);
          if (row_model == own_model) pair_fabric.model = own_model;
        }
        e = expected_peer_copy(machine, pair_fabric, pr, position(machine, *gpu_col));
        if (kind == PathKind::peer_bidirectional && e.gbps) {
          e.gbps = *e.gbps * kBidirectionalShare;
          e.basis += fmt::format(" x {:.2f} per direction when both run (740-749 vs 371-377, nccl#1264)", kBidirectionalShare);
        }
        where = fmt::format("GPU {}->{}", *gpu_row, *gpu_col);
        involved = {*gpu_row, *gpu_col};
        cause = likely_peer_cause(machine, fabric, position(machine, *gpu_row), position(machine, *gpu_col));
      }
      if (!e.gbps) {
        s.expected_basis = "not judged: " + e.basis;
        return;
      }
      if (!lowest_expected || *e.gbps < *lowest_expected) {
        lowest_expected = *e.gbps;
        s.expected_basis = e.basis;
      }
      const double ratio = *v / *e.gbps;
      if (ratio < kWarnRatio) low.push_back({cause, where, involved, *v, *e.gbps});
      fail = fail || ratio < kFailRatio;
    }
  }
  if (lowest_expected) s.expected_gbps = *lowest_expected;
  if (low.empty()) return;
  std::vector<std::string> parts;
  for (size_t i = 0; i < low.size() && i < 6; ++i) {
    parts.push_back(fmt::format("{} {} GB/s ({:.0f} % of {})", low[i].where, format_gbps(low[i].value),
                                100 * low[i].value / low[i].expected, format_gbps(low[i].expected)));
  }
  if (low.size() > 6) parts.push_back(fmt::format("and {} more", low.size() - 6));
  std::vector<int> gpus;
  for (const auto& cell : low) gpus.insert(gpus.end(), cell.gpus.begin(), cell.gpus.end());
  std::sort(gpus.begin(), gpus.end());
  gpus.erase(std::unique(gpus.begin(), gpus.end()), gpus.end());
  auto f = make_finding(code::bandwidth_below_expected, fail ? core::Severity::fail : core::Severity::warn, gpus,
                        fmt::format("{} {}: {}", what, mx.testcase, fmt::join(parts, "; ")));
  f.evidence = {{"basis", s.expected_basis}, {"cells below 85 %", std::to_string(low.size())}};
  std::vector<std::string> causes;
  for (const auto& cell : low) {
    if (!cell.cause.empty() && std::find(causes.begin(), causes.end(), cell.cause) == causes.end()) causes.push_back(cell.cause);
  }
  if (!causes.empty()) {
    f.evidence.emplace_back("likely cause", fmt::format("{}", fmt::join(causes, "; ")));
  } else if ((kind == PathKind::peer || kind == PathKind::peer_bidirectional) && low.size() <= 2 && gpus.size() == 2) {
    f.evidence.emplace_back("likely cause", "one GPU pair only, with healthy links reported: a marginal link or "
                                            "switch port between them (slow link)");
  }
  out.push_back(std::move(f));
}

const core::BandwidthMatrix* find_matrix(const core::BandwidthRun& run, const std::string& testcase) {
  for (const auto& mx : run.matrices) {
    if (mx.testcase == testcase && !mx.status && !mx.values.empty()) return &mx;
  }
  return nullptr;
}

// Host copies from the GPU's own NUMA node should be the faster ones; when the far node wins
// by more than 10 % the reported affinity is most likely wrong.
CauseMap judge_far_numa(const core::BandwidthRun& run, std::vector<core::Finding>& out) {
  CauseMap causes;
  std::vector<int> gpus;
  std::vector<std::string> parts;
  for (const auto& [near_key, far_key] : {std::pair<std::string, std::string>{"host_to_device_memcpy_ce", "host_to_device_far_numa_memcpy_ce"},
                                          {"device_to_host_memcpy_ce", "device_to_host_far_numa_memcpy_ce"}}) {
    const auto* near_mx = find_matrix(run, near_key);
    const auto* far_mx = find_matrix(run, far_key);
    if (near_mx == nullptr || far_mx == nullptr || near_mx->column_labels != far_mx->column_labels) continue;
    for (size_t c = 0; c < near_mx->column_labels.size() && c < near_mx->values[0].size() && c < far_mx->values[0].size(); ++c) {
      const auto& nv = near_mx->values[0][c];
      const auto& fv = far_mx->values[0][c];
      const auto gpu = label_index(near_mx->column_labels[c]);
      if (!nv || !fv || !gpu || *fv <= *nv * 1.10) continue;
      causes[*gpu] = fmt::format("host memory on the GPU's reported NUMA node is slower than on another node ({} vs {} "
                                 "GB/s): NUMA affinity misreported",
                                 format_gbps(*nv), format_gbps(*fv));
      if (std::find(gpus.begin(), gpus.end(), *gpu) == gpus.end()) gpus.push_back(*gpu);
      parts.push_back(fmt::format("GPU {} {}: own node {} GB/s, far node {} GB/s", *gpu, near_key, format_gbps(*nv), format_gbps(*fv)));
    }
  }
  if (gpus.empty()) return causes;
  std::sort(gpus.begin(), gpus.end());
  auto f = make_finding(code::host_copy_far_numa_faster, core::Severity::warn, gpus,
                        fmt::format("{}: {}", run.source, fmt::join(parts, "; ")));
  out.push_back(std::move(f));
  return causes;
}

void judge_p2p_access(const core::BandwidthRun& run, const core::Machine& machine, const Fabric& fabric,
                      std::vector<core::Finding>& out) {
  if (!run.p2p_access) return;
  const auto& access = *run.p2p_access;
  std::vector<std::string> pairs;
  std::vector<int> gpus;
  bool over_nvlink = false;
  for (size_t i = 0; i < access.size(); ++i) {
    for (size_t j = i + 1; j < access.size() && j < access[i].size(); ++j) {
      const bool ok = access[i][j] && (j < access.size() && i < access[j].size() ? access[j][i] : true);
      if (ok) continue;
      pairs.push_back(fmt::format("{}-{}", i, j));
      gpus.push_back(static_cast<int>(i));
      gpus.push_back(static_cast<int>(j));
      const int a = position(machine, static_cast<int>(i));
      const int b = position(machine, static_cast<int>(j));
      if (machine.links && a >= 0 && b >= 0 && a < machine.links->size() && b < machine.links->size()) {
        over_nvlink = over_nvlink || machine.links->at(a, b).is_nvlink();
      }
    }
  }
  if (pairs.empty()) return;
  std::sort(gpus.begin(), gpus.end());
  gpus.erase(std::unique(gpus.begin(), gpus.end()), gpus.end());
  const bool consumer = fabric.model != nullptr && fabric.model->card_class == core::CardClass::consumer;
  const auto severity = over_nvlink ? core::Severity::fail : consumer ? core::Severity::info : core::Severity::warn;
  auto f = make_finding(code::p2p_unavailable, severity, gpus,
                        fmt::format("{}: GPU pair{} {} cannot access each other's memory (P2P off): peer copies and "
                                    "NCCL traffic go through host memory",
                                    run.source, pairs.size() == 1 ? "" : "s", fmt::join(pairs, ", ")));
  if (consumer) {
    f.next_step = "GeForce cards do not support P2P over PCIe with NVIDIA's stock driver: expected, but budget for "
                  "host-staged copies (a few GB/s) in multi-GPU work.";
  }
  out.push_back(std::move(f));
}

// p2p_slower_than_staged: p2pBandwidthLatencyTest pairs whose P2P=Enabled bandwidth is below
// kStagedRatio of the same pair with P2P=Disabled (copies staged through host memory).
constexpr double kStagedRatio = 0.90;

void judge_p2p_vs_staged(const core::BandwidthRun& run, std::vector<core::Finding>& out) {
  std::vector<std::string> pairs;
  std::vector<int> gpus;
  std::vector<double> enabled_values;
  std::vector<double> staged_values;
  for (const std::string direction : {"unidirectional", "bidirectional"}) {
    const auto* staged = find_matrix(run, "p2p_" + direction + "_p2p_disabled");
    if (staged == nullptr) continue;
    for (const auto& mx : run.matrices) {
      if (mx.testcase != "p2p_" + direction + "_p2p_enabled") continue;
      for (size_t i = 0; i < mx.values.size() && i < staged->values.size(); ++i) {
        for (size_t j = 0; j < mx.values[i].size() && j < staged->values[i].size(); ++j) {
          if (i == j || !mx.values[i][j] || !staged->values[i][j] || *staged->values[i][j] <= 0) continue;
          if (!p2p_allowed(run, static_cast<int>(i), static_cast<int>(j))) continue;  // no P2P: staged anyway
          if (*mx.values[i][j] >= kStagedRatio * *staged->values[i][j]) continue;
          const auto pair = fmt::format("{}-{}", std::min(i, j), std::max(i, j));
          enabled_values.push_back(*mx.values[i][j]);
          staged_values.push_back(*staged->values[i][j]);
          if (std::find(pairs.begin(), pairs.end(), pair) != pairs.end()) continue;
          pairs.push_back(pair);
          gpus.push_back(static_cast<int>(i));
          gpus.push_back(static_cast<int>(j));
        }
      }
    }
  }
  if (pairs.empty()) return;
  std::sort(gpus.begin(), gpus.end());
  gpus.erase(std::unique(gpus.begin(), gpus.end()), gpus.end());
  auto median = [](std::vector<double> v) {
    std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2), v.end());
    return v[v.size() / 2];
  };
  const auto shown = pairs.size() > 8 ? fmt::format("{} and {} more", fmt::join(pairs.begin(), pairs.begin() + 8, ", "),
                                                    pairs.size() - 8)
                                      : fmt::format("{}", fmt::join(pairs, ", "));
  auto f = make_finding(code::p2p_slower_than_staged, core::Severity::warn, gpus,
                        fmt::format("{}: with P2P enabled, {} GPU pair{} ({}) copy at a median {} GB/s, below the {} GB/s "
                                    "they reach with P2P disabled (staged through host memory)",
                                    run.source, pairs.size(), pairs.size() == 1 ? "" : "s", shown,
                                    format_gbps(median(enabled_values)), format_gbps(median(staged_values))));
  f.evidence.emplace_back("p2p enabled median", fmt::format("{} GB/s", format_gbps(median(enabled_values))));
  f.evidence.emplace_back("p2p disabled median", fmt::format("{} GB/s", format_gbps(median(staged_values))));
  out.push_back(std::move(f));
}

// benchmark_failed when the tool's own output says the run failed: an assertion, a data check
// that found bytes the copy did not write, a CUDA error or a crash.
void judge_failures(const core::BandwidthRun& run, std::vector<core::Finding>& out) {
  if (run.failures.empty()) return;
  bool data = false;
  for (const auto& line : run.failures) data = data || line.find("pattern") != std::string::npos || line.find("iscompare") != std::string::npos;
  std::vector<std::string> unfinished;
  for (const auto& mx : run.matrices) {
    if (mx.status && mx.status->rfind("did not finish", 0) == 0) unfinished.push_back(mx.testcase);
  }
  auto f = make_finding(code::benchmark_failed, core::Severity::fail, {},
                        fmt::format("{}: the run failed{}{}: {}", run.source,
                                    data ? " its data check (a copy read back bytes it did not write)" : "",
                                    unfinished.empty() ? "" : fmt::format(" in {}", fmt::join(unfinished, ", ")),
                                    run.failures.back()));
  for (const auto& line : run.failures) f.evidence.emplace_back("log", line);
  f.evidence.emplace_back("check", data ? "corrupted copies: rerun the testcase alone, check dmesg for Xid 48/63/64/74/79 "
                                          "and nvidia-smi -q -d ECC,ROW_REMAPPER; replace the GPU or board if it repeats"
                                        : "dmesg for Xid errors, the driver and CUDA versions (nvidia-smi), "
                                          "nvidia-fabricmanager on NVSwitch machines, then rerun");
  out.push_back(std::move(f));
}

}  // namespace

void judge_bandwidth(const std::vector<core::BandwidthRun>& runs, const core::Machine& machine,
                     const core::Catalog& catalog, core::Assessment& assessment) {
  for (const auto& run : runs) {
    const int devices = static_cast<int>(run.device_names.size());
    const Fabric fabric = fabric_for(run.device_names, devices, 1, machine, catalog, assessment.interconnect);
    const std::string what = run.source;
    judge_failures(run, assessment.findings);
    const CauseMap causes = judge_far_numa(run, assessment.findings);
    for (const auto& mx : run.matrices) {
      auto s = summarize(run, mx);
      judge_matrix(run, mx, machine, fabric, catalog, causes, what, s, assessment.findings);
      assessment.bandwidth.push_back(std::move(s));
    }
    judge_p2p_access(run, machine, fabric, assessment.findings);
    judge_p2p_vs_staged(run, assessment.findings);
  }
}

}  // namespace gpuvet::analysis
