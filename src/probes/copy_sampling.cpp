// One cell of a copy matrix: repeat the sample, keep the median, contain the failures.
#include "probes/copy_sampling.hpp"
#include "core/statistics.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>

namespace gpuvet::probes {

core::Result<CopyContext> CopyContext::open(api::CopyBackend& backend, const BandwidthOptions& options) {
  if (options.samples < 1 || options.repeats < 1 || options.bytes == 0) {
    return core::usage_error("copy measurements need at least one sample, one repeat and a non-empty buffer");
  }
  CopyContext ctx(backend, options);
  auto devices = backend.devices();
  if (!devices) return devices.error();
  ctx.devices_ = std::move(devices).value();
  if (ctx.devices_.empty()) return core::environment_error("no GPU is visible to the copy backend");
  for (int g : options.gpus) {
    if (g < 0 || g >= static_cast<int>(ctx.devices_.size())) {
      return core::usage_error(fmt::format("--gpus names GPU {}, but this machine has GPUs 0-{}", g, ctx.devices_.size() - 1));
    }
  }
  ctx.gpus_ = options.gpus;
  if (ctx.gpus_.empty()) {
    for (const auto& d : ctx.devices_) ctx.gpus_.push_back(d.ordinal);
  }
  auto nodes = backend.host_numa_nodes();
  if (nodes) ctx.numa_nodes_ = std::move(nodes).value();
  for (int a : ctx.gpus_) {
    for (int b : ctx.gpus_) {
      auto ok = a == b ? core::Result<bool>(true) : backend.can_access_peer(a, b);
      ctx.peer_[{a, b}] = ok && *ok;
    }
  }
  return ctx;
}

int CopyContext::numa_of(int gpu) const { return devices_[static_cast<std::size_t>(gpu)].numa_node; }

int CopyContext::far_numa_of(int gpu) const {
  const int own = numa_of(gpu);
  if (own < 0) return -1;
  for (int n : numa_nodes_) {
    if (n != own) return n;
  }
  return -1;
}

bool CopyContext::peer(int a, int b) const {
  const auto it = peer_.find({a, b});
  return it != peer_.end() && it->second;
}

std::vector<std::vector<bool>> CopyContext::p2p_access() const {
  const std::size_t n = devices_.size();
  std::vector<std::vector<bool>> out(n, std::vector<bool>(n, false));
  for (const auto& [pair, ok] : peer_) out[static_cast<std::size_t>(pair.first)][static_cast<std::size_t>(pair.second)] = ok;
  return out;
}

core::BandwidthRun CopyContext::empty_run(const std::string& suite) const {
  core::BandwidthRun run;
  run.tool = "gpuvet";
  run.source = fmt::format("gpuvet bench {} ({})", suite, backend_->describe());
  for (const auto& d : devices_) run.device_names.push_back(d.name);
  run.notes.push_back(fmt::format("{} MiB per copy, {} copies per sample, median of {} samples", options_.bytes >> 20,
                                  options_.repeats, options_.samples));
  return run;
}

core::Reading<double> CopyContext::median_rate(const std::vector<api::CopyStream>& streams, api::CopyEngine engine,
                                               CellStat stat) {
  api::CopyRequest request{streams, engine, options_.bytes, options_.repeats, options_.timeout};
  std::vector<double> values;
  std::string last_error;
  for (int s = 0; s < options_.samples; ++s) {
    auto sample = backend_->copy_sample(request);
    if (!sample) {
      last_error = sample.error().message;
      // A timed-out copy may still hold the GPU: do not queue more behind it.
      if (sample.error().timed_out()) break;
      continue;
    }
    if (sample->empty()) continue;
    values.push_back(stat == CellStat::first ? sample->front() : std::accumulate(sample->begin(), sample->end(), 0.0));
  }
  if (values.empty()) return failed_cell(last_error);
  return *core::median(std::move(values));
}

core::Reading<double> CopyContext::median_latency(int executor, const api::CopyEndpoint& memory) {
  std::vector<double> values;
  std::string last_error;
  for (int s = 0; s < options_.samples; ++s) {
    auto sample = backend_->latency_sample({executor, memory, options_.timeout});
    if (!sample) {
      last_error = sample.error().message;
      if (sample.error().timed_out()) break;  // as for copies: the chase may still hold the GPU
      continue;
    }
    values.push_back(*sample);
  }
  if (values.empty()) return failed_cell(last_error);
  return *core::median(std::move(values));
}

core::Reading<double> CopyContext::failed_cell(const std::string& last_error) {
  const std::string why = last_error.empty() ? "no sample" : last_error;
  if (std::find(failures_.begin(), failures_.end(), why) == failures_.end()) failures_.push_back(why);
  return core::Reading<double>::absent(why);
}

}  // namespace gpuvet::probes
