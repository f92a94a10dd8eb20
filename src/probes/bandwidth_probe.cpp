// The copy testcases: which streams each cell runs and how cells become a matrix of medians.
// Conventions follow nvbandwidth: the row GPU executes the copy; "read" pulls from the column
// GPU, "write" pushes to it; bidirectional tests report the row's direction while the reverse
// copy runs at the same time.
#include "probes/bandwidth_probe.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "probes/copy_sampling.hpp"

namespace gpuvet::probes {
namespace {

using api::CopyEndpoint;
using api::CopyEngine;
using api::CopyStream;

struct Testcase {
  std::string key;
  std::string title;
  BandwidthSuite suite;
};

const std::vector<Testcase>& testcases() {
  static const std::vector<Testcase> all = {
      {"host_to_device_memcpy_ce", "memcpy CE CPU(row) -> GPU(column) bandwidth (GB/s)", BandwidthSuite::host},
      {"device_to_host_memcpy_ce", "memcpy CE CPU(row) <- GPU(column) bandwidth (GB/s)", BandwidthSuite::host},
      {"host_to_device_bidirectional_memcpy_ce", "memcpy CE CPU(row) <-> GPU(column) bandwidth, host to device direction (GB/s)", BandwidthSuite::host},
      {"device_to_host_bidirectional_memcpy_ce", "memcpy CE CPU(row) <-> GPU(column) bandwidth, device to host direction (GB/s)", BandwidthSuite::host},
      {"host_to_all_memcpy_ce", "memcpy CE CPU(row) -> all GPUs at once, per GPU (GB/s)", BandwidthSuite::host},
      {"all_to_host_memcpy_ce", "memcpy CE CPU(row) <- all GPUs at once, per GPU (GB/s)", BandwidthSuite::host},
      {"host_to_device_far_numa_memcpy_ce", "memcpy CE far-NUMA CPU(row) -> GPU(column) bandwidth (GB/s)", BandwidthSuite::host},
      {"device_to_host_far_numa_memcpy_ce", "memcpy CE far-NUMA CPU(row) <- GPU(column) bandwidth (GB/s)", BandwidthSuite::host},
      {"device_to_device_memcpy_read_ce", "memcpy CE GPU(row) <- GPU(column) bandwidth (GB/s)", BandwidthSuite::p2p},
      {"device_to_device_memcpy_write_ce", "memcpy CE GPU(row) -> GPU(column) bandwidth (GB/s)", BandwidthSuite::p2p},
      {"device_to_device_bidirectional_memcpy_read_ce", "memcpy CE GPU(row) <-> GPU(column) read bandwidth, row direction (GB/s)", BandwidthSuite::p2p},
      {"device_to_device_bidirectional_memcpy_write_ce", "memcpy CE GPU(row) <-> GPU(column) write bandwidth, row direction (GB/s)", BandwidthSuite::p2p},
      {"device_to_device_memcpy_read_sm", "memcpy SM GPU(row) <- GPU(column) bandwidth (GB/s)", BandwidthSuite::p2p},
      {"device_to_device_memcpy_write_sm", "memcpy SM GPU(row) -> GPU(column) bandwidth (GB/s)", BandwidthSuite::p2p},
      {"all_to_one_write_ce", "memcpy CE all GPUs -> GPU(column) total bandwidth (GB/s)", BandwidthSuite::p2p},
      {"one_to_all_write_ce", "memcpy CE GPU(column) -> all GPUs total bandwidth (GB/s)", BandwidthSuite::p2p},
      {"device_to_device_staged_memcpy_ce", "memcpy CE GPU(row) -> GPU(column) through host memory, pairs without P2P (GB/s)", BandwidthSuite::p2p},
      {"device_to_device_latency_sm", "memory latency SM GPU(row) <- GPU(column) (ns)", BandwidthSuite::p2p},
      {"device_local_copy", "memcpy CE GPU(column) <- same GPU bandwidth, bytes counted once (GB/s)", BandwidthSuite::memory},
      {"device_local_copy_sm", "copy kernel GPU(column) memory traffic, read + write bytes (GB/s)", BandwidthSuite::memory},
  };
  return all;
}

std::string label(int gpu) { return std::to_string(gpu); }

}  // namespace

core::Result<core::BandwidthRun> run_bandwidth_suite(api::CopyBackend& backend, BandwidthSuite suite,
                                                     const BandwidthOptions& options) {
  auto context = CopyContext::open(backend, options);
  if (!context) return context.error();
  CopyContext& ctx = context.value();
  core::BandwidthRun run = ctx.empty_run(suite == BandwidthSuite::host ? "host" : suite == BandwidthSuite::p2p ? "p2p" : "memory");
  if (suite == BandwidthSuite::p2p) run.p2p_access = ctx.p2p_access();
  for (const auto& t : testcases()) {
    if (t.suite != suite) continue;
    if (options.on_testcase) options.on_testcase(t.key);
    core::BandwidthMatrix mx;
    mx.testcase = t.key;
    mx.title = t.title;
    const auto& gpus = ctx.gpus();
    if (suite == BandwidthSuite::host) {
      fill_host_testcase(ctx, t.key, mx);
    } else if (suite == BandwidthSuite::memory) {
      mx.row_labels = {"GPU"};
      for (int g : gpus) {
        mx.column_labels.push_back(label(g));
        const bool sm = t.key == "device_local_copy_sm";
        auto cell = ctx.median_rate({{CopyEndpoint::device(g), CopyEndpoint::device(g), g}}, sm ? CopyEngine::sm : CopyEngine::ce,
                                    CellStat::first);
        // The SM test counts what the memory moved: every copied byte is read once and written once.
        if (sm && cell) cell = *cell * 2;
        mx.values.resize(1);
        mx.values[0].push_back(cell);
      }
    } else if (!fill_peer_testcase(ctx, t.key, mx)) {
      run.notes.push_back(fmt::format("{} not run: every GPU pair has P2P access", t.key));
      continue;
    }
    run.matrices.push_back(std::move(mx));
  }
  run.failures = ctx.failures();  // a cell without a sample is a failed measurement, not a pass
  return run;
}

}  // namespace gpuvet::probes
