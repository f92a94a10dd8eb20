// The streams behind each host and peer testcase.
#include <fmt/format.h>

#include "probes/copy_sampling.hpp"

namespace gpuvet::probes {
namespace {

using api::CopyEndpoint;
using api::CopyEngine;
using api::CopyStream;

CopyStream h2d(int g, int node) { return {CopyEndpoint::host_memory(g, node), CopyEndpoint::device(g), g}; }
CopyStream d2h(int g, int node) { return {CopyEndpoint::device(g), CopyEndpoint::host_memory(g, node), g}; }

void one_row(core::BandwidthMatrix& mx, const std::vector<int>& gpus, const std::string& row) {
  mx.row_labels = {row};
  mx.values.assign(1, {});
  for (int g : gpus) mx.column_labels.push_back(std::to_string(g));
}

void square(core::BandwidthMatrix& mx, const std::vector<int>& gpus) {
  for (int g : gpus) {
    mx.row_labels.push_back(std::to_string(g));
    mx.column_labels.push_back(std::to_string(g));
  }
  mx.values.assign(gpus.size(), std::vector<core::Reading<double>>(gpus.size(), core::Reading<double>::absent("self")));
}

}  // namespace

void fill_host_testcase(CopyContext& ctx, const std::string& key, core::BandwidthMatrix& mx) {
  const auto& gpus = ctx.gpus();
  one_row(mx, gpus, "CPU");
  const bool far = key.find("far_numa") != std::string::npos;
  if (key == "host_to_all_memcpy_ce" || key == "all_to_host_memcpy_ce") {
    // Every GPU at once: exposes a PCIe switch or root port shared by several GPUs.
    for (std::size_t i = 0; i < gpus.size(); ++i) {
      std::vector<CopyStream> streams;
      for (std::size_t j = 0; j < gpus.size(); ++j) {
        const int g = gpus[(i + j) % gpus.size()];  // the measured GPU first
        streams.push_back(key == "host_to_all_memcpy_ce" ? h2d(g, ctx.numa_of(g)) : d2h(g, ctx.numa_of(g)));
      }
      mx.values[0].push_back(ctx.median_rate(streams, CopyEngine::ce, CellStat::first));
    }
    return;
  }
  for (int g : gpus) {
    const int node = far ? ctx.far_numa_of(g) : ctx.numa_of(g);
    if (far && node < 0) {
      mx.values[0].push_back(core::Reading<double>::absent("the host has one NUMA node (or the GPU's is unknown)"));
      continue;
    }
    std::vector<CopyStream> streams;
    if (key == "host_to_device_memcpy_ce" || key == "host_to_device_far_numa_memcpy_ce") streams = {h2d(g, node)};
    if (key == "device_to_host_memcpy_ce" || key == "device_to_host_far_numa_memcpy_ce") streams = {d2h(g, node)};
    if (key == "host_to_device_bidirectional_memcpy_ce") streams = {h2d(g, node), d2h(g, node)};
    if (key == "device_to_host_bidirectional_memcpy_ce") streams = {d2h(g, node), h2d(g, node)};
    mx.values[0].push_back(ctx.median_rate(streams, CopyEngine::ce, CellStat::first));
  }
}

bool fill_peer_testcase(CopyContext& ctx, const std::string& key, core::BandwidthMatrix& mx) {
  const auto& gpus = ctx.gpus();
  if (key == "all_to_one_write_ce" || key == "one_to_all_write_ce") {
    one_row(mx, gpus, "all");
    const bool to_one = key == "all_to_one_write_ce";
    for (int g : gpus) {
      std::vector<CopyStream> streams;
      for (int o : gpus) {
        if (o == g || !ctx.peer(o, g)) continue;
        streams.push_back(to_one ? CopyStream{CopyEndpoint::device(o), CopyEndpoint::device(g), o}
                                 : CopyStream{CopyEndpoint::device(g), CopyEndpoint::device(o), g});
      }
      mx.values[0].push_back(streams.empty() ? core::Reading<double>::absent("no peer with P2P access")
                                             : ctx.median_rate(streams, CopyEngine::ce, CellStat::sum));
    }
    return true;
  }
  const bool staged = key == "device_to_device_staged_memcpy_ce";
  if (staged) {
    bool any = false;
    for (int a : gpus) {
      for (int b : gpus) any = any || (a != b && !ctx.peer(a, b));
    }
    if (!any) return false;
  }
  square(mx, gpus);
  const bool read = key.find("_read_") != std::string::npos;
  const bool bidirectional = key.find("bidirectional") != std::string::npos;
  const CopyEngine engine = key.size() > 3 && key.substr(key.size() - 3) == "_sm" ? CopyEngine::sm : CopyEngine::ce;
  for (std::size_t r = 0; r < gpus.size(); ++r) {
    for (std::size_t c = 0; c < gpus.size(); ++c) {
      const int row = gpus[r];
      const int col = gpus[c];
      if (row == col) continue;
      auto& cell = mx.values[r][c];
      if (staged != !ctx.peer(row, col)) {
        cell = core::Reading<double>::absent(staged ? "P2P available: see the P2P matrices"
                                                    : fmt::format("no P2P access between GPU {} and GPU {}", row, col));
        continue;
      }
      if (key == "device_to_device_latency_sm") {
        cell = ctx.median_latency(row, CopyEndpoint::device(col));
        continue;
      }
      // Read: the row GPU pulls from the column GPU; write: it pushes to it.
      const CopyStream forward = read ? CopyStream{CopyEndpoint::device(col), CopyEndpoint::device(row), row}
                                      : CopyStream{CopyEndpoint::device(row), CopyEndpoint::device(col), row};
      std::vector<CopyStream> streams = {forward};
      if (bidirectional) {
        streams.push_back(read ? CopyStream{CopyEndpoint::device(row), CopyEndpoint::device(col), col}
                               : CopyStream{CopyEndpoint::device(col), CopyEndpoint::device(row), col});
      }
      cell = ctx.median_rate(streams, engine, CellStat::first);
    }
  }
  if (key == "device_to_device_latency_sm") mx.unit = "ns";
  return true;
}

}  // namespace gpuvet::probes
