// Shared machinery of the copy probes (internal to probes/): the GPUs and NUMA nodes a run
// uses, and one cell = the median over samples of one set of concurrent copies.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "backends/api/copy_backend.hpp"
#include "core/bandwidth.hpp"
#include "probes/bandwidth_probe.hpp"

namespace gpuvet::probes {

// What a cell reports of its concurrent streams: the first stream, or their sum.
enum class CellStat { first, sum };

class CopyContext {
 public:
  static core::Result<CopyContext> open(api::CopyBackend& backend, const BandwidthOptions& options);

  [[nodiscard]] const std::vector<int>& gpus() const { return gpus_; }
  [[nodiscard]] int numa_of(int gpu) const;
  // Another host node than the GPU's own; -1 on a one-node machine.
  [[nodiscard]] int far_numa_of(int gpu) const;
  [[nodiscard]] bool peer(int a, int b) const;
  [[nodiscard]] std::vector<std::vector<bool>> p2p_access() const;
  [[nodiscard]] core::BandwidthRun empty_run(const std::string& suite) const;

  // Median GB/s over options.samples; absent with the backend's words when no sample succeeded.
  core::Reading<double> median_rate(const std::vector<api::CopyStream>& streams, api::CopyEngine engine, CellStat stat);
  // Median ns over options.samples.
  core::Reading<double> median_latency(int executor, const api::CopyEndpoint& memory);
  // Every distinct error that left a cell without a sample, in order: a measurement that failed
  // is reported as such (core::BandwidthRun::failures), never only as an N/A cell.
  [[nodiscard]] const std::vector<std::string>& failures() const { return failures_; }

 private:
  CopyContext(api::CopyBackend& backend, const BandwidthOptions& options) : backend_(&backend), options_(options) {}

  api::CopyBackend* backend_;
  BandwidthOptions options_;
  std::vector<api::DeviceInfo> devices_;
  std::vector<int> gpus_;
  std::vector<int> numa_nodes_;
  std::map<std::pair<int, int>, bool> peer_;
  std::vector<std::string> failures_;

  core::Reading<double> failed_cell(const std::string& last_error);
};

// Fill one matrix of the host or peer suite (bandwidth_testcases.cpp). fill_peer_testcase
// returns false when the testcase has nothing to measure (staged copies with P2P everywhere).
void fill_host_testcase(CopyContext& ctx, const std::string& key, core::BandwidthMatrix& mx);
bool fill_peer_testcase(CopyContext& ctx, const std::string& key, core::BandwidthMatrix& mx);

}  // namespace gpuvet::probes
