// Hand-built copy-bandwidth runs for the judge's tests.
#include "test_bandwidth.hpp"

// GCC 12 reports a false -Wmaybe-uninitialized inside std::variant's copy when vectors of
// Reading<double> are filled here at -O2 (GCC bug 105593 family); the code is well-defined.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

#include "analysis/judge.hpp"
#include "test_machines.hpp"

namespace gpuvet::analysis::testing {

core::BandwidthRun nvbandwidth_run(int n, const std::string& device, double h2d, double d2d) {
  core::BandwidthRun run;
  run.tool = "nvbandwidth";
  run.source = "nvbandwidth (test)";
  for (int i = 0; i < n; ++i) run.device_names.push_back(device);
  core::BandwidthMatrix host;
  host.testcase = "host_to_device_memcpy_ce";
  host.row_labels = {"0"};
  host.values.resize(1);
  core::BandwidthMatrix peer;
  peer.testcase = "device_to_device_memcpy_read_ce";
  peer.values.resize(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) {
    host.column_labels.push_back(std::to_string(i));
    host.values[0].push_back(h2d);
    peer.row_labels.push_back(std::to_string(i));
    peer.column_labels.push_back(std::to_string(i));
    auto& row = peer.values[static_cast<size_t>(i)];
    row.assign(static_cast<size_t>(n), core::Reading<double>(d2d));
    row[static_cast<size_t>(i)] = core::Absent{"N/A"};
  }
  run.matrices = {host, peer};
  return run;
}

core::Assessment judge_bandwidth_runs(const std::vector<core::BandwidthRun>& runs) {
  core::Assessment a;
  judge_bandwidth(runs, core::Machine{}, catalog(), a);
  return a;
}

core::BandwidthRun p2p_run(int n, double enabled, double disabled) {
  core::BandwidthRun run;
  run.tool = "p2pBandwidthLatencyTest";
  run.source = "p2pBandwidthLatencyTest (test)";
  for (const auto& [key, gbps] : {std::pair<std::string, double>{"p2p_unidirectional_p2p_disabled", disabled},
                                  std::pair<std::string, double>{"p2p_unidirectional_p2p_enabled", enabled}}) {
    core::BandwidthMatrix mx;
    mx.testcase = key;
    for (int i = 0; i < n; ++i) {
      mx.row_labels.push_back(std::to_string(i));
      mx.column_labels.push_back(std::to_string(i));
      mx.values.emplace_back();
      for (int j = 0; j < n; ++j) mx.values.back().emplace_back(i == j ? 900.0 : gbps);
    }
    run.matrices.push_back(std::move(mx));
  }
  return run;
}

std::vector<core::Finding> bandwidth_gallery_findings() {
  auto slow = nvbandwidth_run(8, "NVIDIA H100 80GB HBM3", 20, 100);
  auto no_p2p = nvbandwidth_run(2, "NVIDIA GeForce RTX 4090", 25, 5);
  no_p2p.p2p_access = std::vector<std::vector<bool>>{{true, false}, {false, true}};
  // A GPU whose host copies are faster from the far NUMA node.
  auto far = nvbandwidth_run(2, "NVIDIA H100 80GB HBM3", 40, 380);
  core::BandwidthMatrix far_row = far.matrices[0];
  far_row.testcase = "host_to_device_far_numa_memcpy_ce";
  far_row.values[0][1] = 54.0;
  far.matrices.push_back(far_row);
  auto aborted = nvbandwidth_run(2, "NVIDIA A100-SXM4-80GB", 25, 200);
  aborted.failures = {"line 18: Invalid value when checking the pattern at 0x70a640000000"};
  auto findings = judge_bandwidth_runs({slow, no_p2p, far, aborted, p2p_run(2, 9.9, 22.2)}).findings;
  // VRAM: one GPU short of memory, one with bad words.
  core::VramRun vram;
  core::VramCheck shortfall;
  shortfall.gpu = 0;
  shortfall.total_bytes = 80ull << 30;
  shortfall.tested_bytes = 60ull << 30;
  core::VramCheck bad = shortfall;
  bad.gpu = 1;
  bad.tested_bytes = 79ull << 30;
  bad.miscompares = {{"address", 1ull << 30, (1ull << 30) + 4088, 512}};
  vram.gpus = {shortfall, bad};
  core::Assessment a;
  judge_vram(vram, a);
  for (auto& f : a.findings) findings.push_back(std::move(f));
  return findings;
}

}  // namespace gpuvet::analysis::testing
