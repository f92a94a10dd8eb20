// Size sweeps and scaling subsets of collectives, turned into nccl-tests rows: median of the
// timed iterations, algbw = size / time, busbw = algbw x the op's factor (nccl-tests
// doc/PERFORMANCE.md).
#include "probes/collective_probe.hpp"
#include "core/statistics.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <functional>
#include <set>
#include <sstream>
#include <utility>

namespace gpuvet::probes {
namespace {

constexpr std::uint64_t kFloatBytes = 4;
constexpr std::size_t kMaxAllSubsets = 70;  // C(8,4): every subset of an 8-GPU node

using Runner = std::function<core::Result<api::CollectiveSample>(const api::CollectiveRequest&)>;

bool splits_between_ranks(api::CollectiveOp op) {
  return op == api::CollectiveOp::all_gather || op == api::CollectiveOp::reduce_scatter ||
         op == api::CollectiveOp::alltoall;
}

std::string gpu_list(const std::vector<int>& gpus) {
  std::string out;
  for (int g : gpus) out += (out.empty() ? "" : ",") + std::to_string(g);
  return out;
}

core::CollectiveResult result_of(const api::CollectiveSample& sample, api::CollectiveOp op, int ranks,
                                 std::uint64_t bytes) {
  core::CollectiveResult r;
  const double us = *core::median(sample.iteration_us);
  r.time_us = us;
  const double algbw = us > 0 ? static_cast<double>(bytes) / us / 1e3 : 0.0;  // bytes/us -> GB/s
  r.algbw_gbps = algbw;
  r.busbw_gbps = algbw * busbw_factor(op, ranks);
  r.wrong = sample.wrong ? core::Reading<std::int64_t>(*sample.wrong)
                         : core::Reading<std::int64_t>::absent("results not checked");
  return r;
}

core::CollectiveResult not_measured(const std::string& why) {
  core::CollectiveResult r;
  r.time_us = core::Reading<double>::absent(why);
  r.algbw_gbps = core::Reading<double>::absent(why);
  r.busbw_gbps = core::Reading<double>::absent(why);
  r.wrong = core::Reading<std::int64_t>::absent(why);
  return r;
}

core::CollectiveRow empty_row(api::CollectiveOp op, int ranks, std::uint64_t bytes) {
  core::CollectiveRow row;
  row.size_bytes = bytes;
  const std::uint64_t elements = bytes / kFloatBytes;
  row.count = splits_between_ranks(op) ? elements / static_cast<std::uint64_t>(ranks) : elements;
  row.type = std::string("float");
  const bool reduces = op == api::CollectiveOp::all_reduce || op == api::CollectiveOp::reduce_scatter;
  row.redop = reduces ? core::Reading<std::string>(std::string("sum")) : core::Reading<std::string>::absent("no reduction");
  row.root = op == api::CollectiveOp::broadcast ? 0 : -1;
  return row;
}

std::string nvls_text(const std::optional<bool>& nvls) {
  if (!nvls) return "";
  return *nvls ? ", NCCL_NVLS_ENABLE=1" : ", NCCL_NVLS_ENABLE=0";
}

core::CollectiveRun new_run(api::CollectiveBackend& backend, api::CollectiveOp op, const std::vector<int>& gpus,
                            const std::vector<api::DeviceInfo>& devices, const std::optional<bool>& nvls = std::nullopt,
                            int ranks = 0, int nodes = 1) {
  core::CollectiveRun run;
  run.op = std::string(to_string(op));
  run.ranks = ranks > 0 ? ranks : static_cast<int>(gpus.size());
  run.nodes = nodes;
  run.nccl_version = core::Reading<std::string>::absent(backend.simulated() ? "simulated" : "see source");
  for (int g : gpus) {
    const auto it = std::find_if(devices.begin(), devices.end(), [&](const auto& d) { return d.ordinal == g; });
    if (it != devices.end()) run.device_names.push_back(it->name);
  }
  run.source = nodes > 1 ? fmt::format("gpuvet nccl across {} nodes, GPUs {} of each ({}{})", nodes, gpu_list(gpus),
                                       backend.describe(), nvls_text(nvls))
                         : fmt::format("gpuvet nccl on GPUs {} ({}{})", gpu_list(gpus), backend.describe(), nvls_text(nvls));
  return run;
}

// One size, out-of-place (and in-place when asked). Returns false when the size hung.
core::Result<bool> measure_size(const Runner& runner, int ranks, CollectiveMeasurement& m, std::uint64_t bytes,
                                const CollectiveProbeOptions& options, bool in_place) {
  core::CollectiveRow row = empty_row(m.op, ranks, bytes);
  row.in_place = not_measured(in_place ? "not run" : "no in-place form, or not asked for");
  api::CollectiveRequest request{m.op, m.gpus, bytes, false, options.warmup, options.iterations, options.check,
                                 options.timeout, options.nvls};
  for (const bool place : {false, true}) {
    if (place && !in_place) break;
    request.in_place = place;
    auto sample = runner(request);
    if (!sample) {
      return sample.error().with_context(fmt::format("{} on GPUs {} at {} B", to_string(m.op), gpu_list(m.gpus), bytes));
    }
    core::CollectiveResult& slot = place ? row.in_place : row.out_of_place;
    if (sample->hang) {
      const std::string why = fmt::format("timed out after {} ms", options.timeout.count());
      slot = not_measured(why);
      if (!place) row.in_place = not_measured(why);
      m.hang = HungCollective{std::string(to_string(m.op)), m.gpus, bytes, sample->hang->pending_gpus, sample->hang->detail};
      m.run.notes.push_back(fmt::format("{} B: {}; GPUs {} had not finished ({}); the sweep stopped there", bytes, why,
                                        gpu_list(sample->hang->pending_gpus), sample->hang->detail));
      m.run.rows.push_back(std::move(row));
      if (options.on_row) options.on_row(m.op, m.gpus, m.run.rows.back());
      return false;
    }
    if (sample->iteration_us.empty()) return core::internal_error("collective backend returned no iteration times");
    slot = result_of(sample.value(), m.op, ranks, bytes);
  }
  m.run.rows.push_back(std::move(row));
  if (options.on_row) options.on_row(m.op, m.gpus, m.run.rows.back());
  return true;
}

core::Result<bool> measure_size(api::CollectiveBackend& backend, CollectiveMeasurement& m, std::uint64_t bytes,
                                const CollectiveProbeOptions& options, bool in_place) {
  const Runner local = [&backend](const api::CollectiveRequest& r) { return backend.run(r); };
  return measure_size(local, static_cast<int>(m.gpus.size()), m, bytes, options, in_place);
}

// --- Across processes: every process's sample, combined ---------------------------------------
// A sample as text: "ok <wrong|-> <us> <us> ...", "hang <pending devices; detail>" or "error <message>".
std::string sample_text(const core::Result<api::CollectiveSample>& sample) {
  if (!sample) return "error " + sample.error().message;
  if (sample->hang) {
    // The node's own GPU ordinals go along: another node's map cannot name them.
    std::string pending;
    for (int g : sample->hang->pending_gpus) pending += (pending.empty() ? "" : ",") + std::to_string(g);
    return fmt::format("hang CUDA devices {} had not finished; {}", pending.empty() ? "unknown" : pending, sample->hang->detail);
  }
  std::string out = "ok " + (sample->wrong ? std::to_string(*sample->wrong) : std::string("-"));
  for (double us : sample->iteration_us) out += fmt::format(" {:.17g}", us);
  return out;
}

// The slowest process's time per iteration, #wrong summed; a hang anywhere is a hang (with this
// process's pending GPUs); an error anywhere an error naming the process.
core::Result<api::CollectiveSample> combine(const std::vector<std::string>& texts,
                                            const core::Result<api::CollectiveSample>& mine) {
  api::CollectiveSample out;
  std::string hangs;
  std::optional<std::int64_t> wrong = std::int64_t{0};
  for (std::size_t p = 0; p < texts.size(); ++p) {
    std::istringstream in(texts[p]);
    std::string kind;
    in >> kind;
    std::string rest;
    std::getline(in, rest);
    if (!rest.empty() && rest.front() == ' ') rest.erase(0, 1);
    if (kind == "error") return core::environment_error(fmt::format("node {}: {}", p, rest));
    if (kind == "hang") {
      hangs += fmt::format("{}node {}: {}", hangs.empty() ? "" : "; ", p, rest);
      continue;
    }
    std::istringstream fields(rest);
    std::string w;
    fields >> w;
    if (w == "-") {
      wrong.reset();
    } else if (wrong) {
      *wrong += std::stoll(w);
    }
    std::size_t i = 0;
    for (double us = 0; fields >> us; ++i) {
      if (i < out.iteration_us.size()) {
        out.iteration_us[i] = std::max(out.iteration_us[i], us);
      } else {
        out.iteration_us.push_back(us);
      }
    }
  }
  if (!hangs.empty()) {
    api::CollectiveHang hang;
    if (mine && mine->hang) hang.pending_gpus = mine->hang->pending_gpus;
    hang.detail = hangs;
    out.iteration_us.clear();
    out.hang = std::move(hang);
    return out;
  }
  out.wrong = wrong;
  return out;
}

// Largest size whose buffers fit: out-of-place needs input and output on every GPU.
core::Result<std::uint64_t> capped_max(api::CollectiveBackend& backend, std::uint64_t max_bytes) {
  auto memory = backend.memory_per_gpu();
  if (!memory) return memory.error();
  return std::min(max_bytes, *memory / 2);
}

}  // namespace

double busbw_factor(api::CollectiveOp op, int ranks) {
  const double n = ranks;
  switch (op) {
    case api::CollectiveOp::all_reduce: return 2 * (n - 1) / n;
    case api::CollectiveOp::all_gather:
    case api::CollectiveOp::reduce_scatter:
    case api::CollectiveOp::alltoall: return (n - 1) / n;
    case api::CollectiveOp::broadcast:
    case api::CollectiveOp::sendrecv: return 1;
  }
  return 1;
}

std::uint64_t round_size(api::CollectiveOp op, int ranks, std::uint64_t bytes) {
  const std::uint64_t unit = splits_between_ranks(op) ? kFloatBytes * static_cast<std::uint64_t>(std::max(ranks, 1)) : kFloatBytes;
  return bytes / unit * unit;
}

std::vector<std::uint64_t> sweep_sizes(std::uint64_t min_bytes, std::uint64_t max_bytes) {
  std::vector<std::uint64_t> out;
  if (min_bytes == 0 || max_bytes < min_bytes) return out;
  for (std::uint64_t s = min_bytes; s < max_bytes; s *= 2) out.push_back(s);
  out.push_back(max_bytes);
  return out;
}

namespace {

// The size sweep of every op of `options` through `runner` on `ranks` ranks, up to `max` bytes;
// `start` makes each op's empty measurement. A hang ends the sweep: after it the GPUs may still
// be busy with the aborted collective, so nothing more is measured.
core::Result<std::vector<CollectiveMeasurement>> sweep_ops(const Runner& runner, int ranks, std::uint64_t max,
                                                           const CollectiveProbeOptions& options,
                                                           const std::function<CollectiveMeasurement(api::CollectiveOp)>& start) {
  std::vector<CollectiveMeasurement> out;
  for (const auto op : options.ops) {
    CollectiveMeasurement m = start(op);
    std::set<std::uint64_t> done;
    for (const auto size : sweep_sizes(std::min(options.min_bytes, max), max)) {
      const auto bytes = round_size(op, ranks, size);
      if (bytes == 0 || !done.insert(bytes).second) continue;
      // sendrecv and alltoall have no in-place form (nccl-tests' in-place column is meaningless there).
      const bool in_place = options.in_place && op != api::CollectiveOp::sendrecv && op != api::CollectiveOp::alltoall;
      auto ok = measure_size(runner, ranks, m, bytes, options, in_place);
      if (!ok) return ok.error();
      if (!*ok) break;
    }
    const bool hung = m.hang.has_value();
    out.push_back(std::move(m));
    if (hung) break;
  }
  return out;
}

}  // namespace

core::Result<std::vector<CollectiveMeasurement>> sweep_collectives(api::CollectiveBackend& backend,
                                                                   const std::vector<int>& gpus,
                                                                   const CollectiveProbeOptions& options) {
  auto devices = backend.devices();
  if (!devices) return devices.error();
  auto max = capped_max(backend, options.max_bytes);
  if (!max) return max.error();
  const Runner local = [&backend](const api::CollectiveRequest& r) { return backend.run(r); };
  return sweep_ops(local, static_cast<int>(gpus.size()), *max, options, [&](api::CollectiveOp op) {
    CollectiveMeasurement m{op, gpus, new_run(backend, op, gpus, *devices, options.nvls), std::nullopt, options.nvls};
    if (*max < options.max_bytes) {
      m.run.notes.push_back(fmt::format("sweep capped at {} B: input and output buffers must fit in GPU memory", *max));
    }
    return m;
  });
}

core::Result<std::vector<CollectiveMeasurement>> sweep_collectives_across(api::CollectiveBackend& backend,
                                                                          const std::vector<int>& gpus,
                                                                          api::ProcessGroup& group,
                                                                          const CollectiveProbeOptions& options) {
  auto devices = backend.devices();
  auto mine = devices ? capped_max(backend, options.max_bytes) : core::Result<std::uint64_t>(devices.error());
  // Every process must run the same sizes: the smallest node's cap, and the rank count in all.
  // A process that cannot take part says so here, so the others do not wait in a collective.
  auto shared = group.all_gather(mine ? fmt::format("{} {}", *mine, gpus.size()) : "error " + mine.error().message);
  if (!shared) return shared.error();
  if (!mine) return mine.error();
  std::uint64_t max = *mine;
  int ranks = 0;
  for (std::size_t p = 0; p < shared->size(); ++p) {
    const std::string& text = (*shared)[p];
    if (text.rfind("error ", 0) == 0) return core::environment_error(fmt::format("node {}: {}", p, text.substr(6)));
    std::istringstream in(text);
    std::uint64_t cap = 0;
    int local = 0;
    if (!(in >> cap >> local)) return core::internal_error("a node sent a malformed size cap: " + text);
    max = std::min(max, cap);
    ranks += local;
  }
  const int nodes = group.size();
  const Runner across = [&backend, &group](const api::CollectiveRequest& r) -> core::Result<api::CollectiveSample> {
    auto sample = backend.run_across(r, group);
    auto texts = group.all_gather(sample_text(sample));
    if (!texts) return texts.error();
    return combine(*texts, sample);
  };
  return sweep_ops(across, ranks, max, options, [&](api::CollectiveOp op) {
    CollectiveMeasurement m{op, gpus, new_run(backend, op, gpus, *devices, options.nvls, ranks, nodes), std::nullopt,
                            options.nvls, nodes};
    if (max < options.max_bytes) {
      m.run.notes.push_back(fmt::format("sweep capped at {} B: input and output buffers must fit in every node's GPU memory", max));
    }
    return m;
  });
}

std::vector<std::vector<int>> four_gpu_subsets(const std::vector<int>& gpus) {
  std::vector<std::vector<int>> out;
  const std::size_t n = gpus.size();
  if (n < 4) return out;
  if (n <= 8) {
    for (std::size_t a = 0; a < n; ++a)
      for (std::size_t b = a + 1; b < n; ++b)
        for (std::size_t c = b + 1; c < n; ++c)
          for (std::size_t d = c + 1; d < n; ++d) out.push_back({gpus[a], gpus[b], gpus[c], gpus[d]});
    return out;
  }
  // Greedy cover: start each subset from an uncovered pair, add the GPUs that cover most new pairs.
  std::set<std::pair<std::size_t, std::size_t>> uncovered;
  for (std::size_t a = 0; a < n; ++a)
    for (std::size_t b = a + 1; b < n; ++b) uncovered.insert({a, b});
  while (!uncovered.empty() && out.size() < kMaxAllSubsets * 4) {
    std::vector<std::size_t> members{uncovered.begin()->first, uncovered.begin()->second};
    while (members.size() < 4) {
      std::size_t best = n;
      int best_gain = -1;
      for (std::size_t c = 0; c < n; ++c) {
        if (std::find(members.begin(), members.end(), c) != members.end()) continue;
        int gain = 0;
        for (std::size_t m : members) gain += uncovered.count({std::min(m, c), std::max(m, c)}) ? 1 : 0;
        if (gain > best_gain) {
          best_gain = gain;
          best = c;
        }
      }
      members.push_back(best);
    }
    std::sort(members.begin(), members.end());
    for (std::size_t i = 0; i < members.size(); ++i)
      for (std::size_t j = i + 1; j < members.size(); ++j) uncovered.erase({members[i], members[j]});
    std::vector<int> subset;
    for (std::size_t m : members) subset.push_back(gpus[m]);
    out.push_back(std::move(subset));
  }
  return out;
}

core::Result<ScalingMeasurement> measure_scaling(api::CollectiveBackend& backend, const std::vector<int>& gpus,
                                                 api::CollectiveOp op, const CollectiveProbeOptions& options) {
  auto devices = backend.devices();
  if (!devices) return devices.error();
  auto max = capped_max(backend, options.max_bytes);
  if (!max) return max.error();
  ScalingMeasurement out;
  out.op = op;
  out.bytes = *max;
  bool hung = false;  // after a hang nothing more is measured (the GPUs may still be busy)
  auto measure = [&](const std::vector<int>& set) -> core::Result<CollectiveMeasurement> {
    CollectiveMeasurement m{op, set, new_run(backend, op, set, *devices, options.nvls), std::nullopt, options.nvls};
    const auto bytes = round_size(op, static_cast<int>(set.size()), *max);
    auto ok = measure_size(backend, m, bytes, options, false);
    if (!ok) return ok.error();
    hung = !*ok;
    return m;
  };
  for (std::size_t a = 0; a < gpus.size() && !hung; ++a) {
    for (std::size_t b = a + 1; b < gpus.size() && !hung; ++b) {
      auto m = measure({gpus[a], gpus[b]});
      if (!m) return m.error();
      out.pairs.push_back(std::move(m).value());
    }
  }
  if (gpus.size() > 4) {
    for (const auto& subset : four_gpu_subsets(gpus)) {
      if (hung) break;
      auto m = measure(subset);
      if (!m) return m.error();
      out.subsets.push_back(std::move(m).value());
    }
  }
  if (gpus.size() > 2 && !hung) {
    auto m = measure(gpus);
    if (!m) return m.error();
    out.all = std::move(m).value();
  }
  return out;
}

}  // namespace gpuvet::probes
