// collectives: the ops the spec names, on the GPU sets its clauses name (every pair, the 4-GPU
// subsets, all GPUs), judged per set against the envelope or the spec's floor; the scaling clause
// compares all GPUs with half as many. Attribution names the GPU or link the slow sets share.
#include "accept/collective_stage.hpp"

#include "accept/promised_envelope.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "accept/clauses.hpp"
#include "accept/collective_pipeline.hpp"
#include "analysis/collective_attribution.hpp"
#include "core/finding_codes.hpp"
#include "probes/collective_probe.hpp"
#include "probes/gpu_ordinals.hpp"

namespace gpuvet::accept {
namespace {

// Pairs and subsets at 1 GiB, the judge's plateau floor (enough to compare sets with each other);
// all GPUs swept 1..8 GiB, where busbw plateaus on NVLink machines (perf-anchors.md section 0).
constexpr std::uint64_t kSetBytes = 1ull << 30;
constexpr std::uint64_t kAllMaxBytes = 8ull << 30;

// One GPU set measured and judged: `gpus` are machine indices.
struct SetResult {
  std::vector<int> gpus;
  probes::CollectiveMeasurement measurement;
  core::CollectiveSummary summary;
  std::vector<core::Finding> findings;
  [[nodiscard]] bool hung() const { return measurement.hang.has_value(); }
};

struct OpResults {
  std::map<int, std::vector<SetResult>> by_size;  // set size -> sets measured
  std::vector<core::Finding> attribution;
};

std::string list(const std::vector<int>& gpus) {
  std::string out;
  for (int g : gpus) out += (out.empty() ? "" : ",") + std::to_string(g);
  return out;
}

// Sets of `size` GPUs out of `gpus`: all of them (pairs; 4-GPU subsets as the probe chooses), or
// in quick mode disjoint sets that touch every GPU once.
std::vector<std::vector<int>> sets_of(int size, const std::vector<int>& gpus, bool quick) {
  const int n = static_cast<int>(gpus.size());
  if (size == n) return {gpus};
  std::vector<std::vector<int>> out;
  if (quick) {
    for (int start = 0; start + size <= n; start += size) out.emplace_back(gpus.begin() + start, gpus.begin() + start + size);
    if (n % size != 0) out.emplace_back(gpus.end() - size, gpus.end());  // the GPUs left over, with a few already used
    return out;
  }
  if (size == 4) return probes::four_gpu_subsets(gpus);
  for (int a = 0; a < n; ++a) {
    for (int b = a + 1; b < n; ++b) out.push_back({gpus[static_cast<std::size_t>(a)], gpus[static_cast<std::size_t>(b)]});
  }
  return out;
}

// The set size the scaling clause compares all GPUs with: 4-GPU subsets above 4 GPUs (half of the
// usual 8), pairs on 3 or 4 (0: nothing to compare with). The best set of that size is the base: what a job of
// half the size gets on this machine (the NVLink half of a 4+4 trap), which the whole machine
// should keep.
int half_size(int n) { return n > 4 ? 4 : n > 2 ? 2 : 0; }

core::Reading<double> first_busbw(const SetResult& r) {
  if (r.measurement.run.rows.empty()) return core::Reading<double>::absent("not measured");
  return r.measurement.run.rows.front().out_of_place.busbw_gbps;
}

// A finding of a measured set that fails any clause built on that set: wrong results, a hang, and
// (for `auto` clauses) busbw below the envelope's fail line.
bool fails_clause(const core::Finding& f, bool judged_by_envelope) {
  return f.code == core::code::collective_wrong_results || f.code == core::code::collective_hung ||
         (judged_by_envelope && f.code == core::code::busbw_below_expected && f.severity == core::Severity::fail);
}

// The first few reasons and how many more: a slow GPU fails dozens of sets, and the report lists
// the sets in its findings anyway.
std::string summarize_reasons(const std::vector<std::string>& reasons) {
  constexpr std::size_t kShown = 3;
  std::string out;
  for (std::size_t i = 0; i < reasons.size() && i < kShown; ++i) out += (out.empty() ? "" : "; ") + reasons[i];
  if (reasons.size() > kShown) out += fmt::format("; and {} more", reasons.size() - kShown);
  return out;
}

std::optional<double> best(const std::vector<double>& values) {
  if (values.empty()) return std::nullopt;
  return *std::max_element(values.begin(), values.end());
}

class CollectivesStage final : public Stage {
 public:
  CollectivesStage(std::shared_ptr<api::CollectiveBackend> backend, CollectiveStageOptions options)
      : backend_(std::move(backend)), options_(options) {}
  [[nodiscard]] std::string id() const override { return "collectives"; }
  [[nodiscard]] std::string title() const override { return "NCCL collectives and scaling"; }
  [[nodiscard]] std::vector<ClauseResult> clauses(const spec::Spec& spec) const override { return collectives_clauses(spec); }

  StageRecord run(const StageContext& ctx, std::vector<ClauseResult> clauses) const override {
    StageRecord record;
    record.clauses = std::move(clauses);
    std::vector<int> gpus;
    for (const auto& g : ctx.machine.gpus) gpus.push_back(g.index);
    const int n = static_cast<int>(gpus.size());
    auto devices = backend_->devices();
    auto map = devices ? probes::map_ordinals(ctx.machine, *devices, gpus, backend_->describe())
                       : core::Result<probes::OrdinalMap>(devices.error());
    if (!map) {
      record.status = StageStatus::error;
      record.reason = map.error().message;
      return record;
    }

    // What to measure: per op, the set sizes its clauses name.
    std::map<api::CollectiveOp, std::set<int>> plan;
    for (const auto& floor : ctx.spec.busbw) {
      const auto op = api::parse_collective_op(floor.op);
      const int size = floor.gpus == 0 ? n : floor.gpus;
      if (op && n >= 2 && (size == n || ((size == 2 || size == 4) && size < n))) plan[*op].insert(size);
    }
    if (ctx.spec.scaling_efficiency && half_size(n) > 0) plan[api::CollectiveOp::all_reduce].insert({half_size(n), n});

    std::map<api::CollectiveOp, OpResults> results;
    std::string stopped;  // why measuring stopped early (a hang)
    for (const auto& [op, sizes] : plan) {
      auto& op_results = results[op];
      for (int size : sizes) {
        for (const auto& set : sets_of(size, gpus, ctx.quick || options_.quick)) {
          if (!stopped.empty()) break;
          auto measured = measure(ctx, *map, op, set, size == n);
          if (!measured) {
            record.status = StageStatus::error;
            record.reason = measured.error().message;
            return record;
          }
          if (measured->hung()) stopped = fmt::format("measuring stopped after {} hung on GPUs {}", api::to_string(op), list(set));
          op_results.by_size[size].push_back(std::move(measured).value());
        }
      }
      op_results.attribution = attribute(op, op_results, n, ctx.machine);
    }

    backend_->release();  // the burn-in that follows wants the memory (up to 16 GiB per GPU here)
    for (auto& c : record.clauses) decide(c, ctx, results, gpus, ctx.quick || options_.quick, stopped);
    collect_findings(record, results);
    add_pair_heatmap(record, results, gpus);
    record.status = StageStatus::done;
    return record;
  }

 private:
  core::Result<SetResult> measure(const StageContext& ctx, const probes::OrdinalMap& map, api::CollectiveOp op,
                                  const std::vector<int>& set, bool all) const {
    probes::CollectiveProbeOptions probe;
    probe.ops = {op};
    probe.min_bytes = kSetBytes;
    probe.max_bytes = all ? kAllMaxBytes : kSetBytes;
    probe.in_place = false;
    const bool quick = ctx.quick || options_.quick;
    probe.warmup = quick ? 2 : 5;
    probe.iterations = quick ? 5 : 20;
    probe.timeout = std::chrono::milliseconds(static_cast<std::int64_t>(options_.timeout_s * 1000));
    probe.on_row = options_.on_row;
    const bool simulated = backend_->simulated();
    const CollectiveJudgeContext judge{ctx.machine, ctx.catalog, ctx.assessment.interconnect, map, options_.timeout_s,
                                       [simulated](const probes::CollectiveMeasurement&, const std::vector<int>& indices) {
                                         return fmt::format("gpuvet accept, GPUs {}{}", list(indices), simulated ? ", simulated" : "");
                                       }};
    auto judged = observe_collective_sweep(*backend_, set, probe, judge);
    if (!judged) return judged.error();
    if (judged->observation.sweeps.empty()) return core::internal_error("the collective probe returned no run");
    SetResult r{set, std::move(judged.value().observation.sweeps.front()), {}, std::move(judged.value().judged.findings)};
    if (!judged->judged.collectives.empty()) r.summary = judged->judged.collectives.front();
    return r;
  }

  static std::vector<core::Finding> attribute(api::CollectiveOp op, const OpResults& r, int n, const core::Machine& machine) {
    analysis::ScalingObservation obs;
    obs.op = std::string(api::to_string(op));
    obs.size_bytes = kSetBytes;
    auto add = [](std::vector<analysis::SubsetBusbw>& to, const std::vector<SetResult>& sets) {
      for (const auto& s : sets) to.push_back({s.gpus, first_busbw(s)});
    };
    if (auto it = r.by_size.find(2); it != r.by_size.end() && n > 2) add(obs.pairs, it->second);
    if (auto it = r.by_size.find(4); it != r.by_size.end() && n > 4) add(obs.subsets, it->second);
    if (auto it = r.by_size.find(n); it != r.by_size.end() && !it->second.empty()) {
      obs.all = analysis::SubsetBusbw{it->second.front().gpus, first_busbw(it->second.front())};
    }
    if (obs.pairs.empty() && obs.subsets.empty()) return {};
    return analysis::attribute_scaling(obs, machine);
  }

  static void decide(ClauseResult& c, const StageContext& ctx, const std::map<api::CollectiveOp, OpResults>& results,
                     const std::vector<int>& gpus, bool quick, const std::string& stopped) {
    const int n = static_cast<int>(gpus.size());
    if (c.id == clause_id::collectives_scaling) {
      decide_scaling(c, ctx, results, n, stopped);
      return;
    }
    const spec::BusbwFloor* floor = nullptr;
    for (const auto& f : ctx.spec.busbw) {
      if (c.id == collective_clause_id(f.op, f.gpus)) floor = &f;
    }
    if (!floor) return;
    const auto op = api::parse_collective_op(floor->op);
    const int size = floor->gpus == 0 ? n : floor->gpus;
    if (n < 2) {
      c.reason = fmt::format("the machine has {} GPU: a collective needs two", n);
      return;
    }
    if (!op) {
      c.reason = fmt::format("gpuvet does not run {} (it runs all_reduce, all_gather, reduce_scatter, alltoall, broadcast, sendrecv)", floor->op);
      return;
    }
    if (size > n) {
      c.reason = fmt::format("the machine has {} GPUs, fewer than the {} this clause names", n, size);
      return;
    }
    const auto op_it = results.find(*op);
    const auto sets_it = op_it == results.end() ? nullptr : &op_it->second.by_size;
    if (!sets_it || !sets_it->count(size)) {
      c.reason = size == 2 || size == 4 || size == n ? (stopped.empty() ? "not measured" : stopped)
                                                      : "gpuvet measures busbw on 2, 4 and all GPUs";
      return;
    }
    const auto& sets = sets_it->at(size);
    decide_busbw(c, sets, floor->gbps, promised_busbw(ctx.spec, ctx.catalog, floor->op, size), sets_of(size, gpus, quick).size(),
                 op_it->second.attribution, stopped);
  }

  // `planned`: how many sets of this size the stage meant to measure. `promised`: the busbw the
  // spec's machine delivers, the target of an `auto` clause when known.
  static void decide_busbw(ClauseResult& c, const std::vector<SetResult>& sets, const spec::Floor& floor,
                           const PromisedEnvelope& promised, std::size_t planned, const std::vector<core::Finding>& attribution,
                           const std::string& stopped) {
    const SetResult* lowest = nullptr;
    std::vector<std::string> failures;
    bool hung = false;
    std::size_t unmeasured = 0;  // sets that gave no busbw
    for (const auto& s : sets) {
      for (const auto& f : s.findings) {
        if (!fails_clause(f, !floor)) continue;
        hung = hung || f.code == core::code::collective_hung;
        if (std::find(c.findings.begin(), c.findings.end(), f.code) == c.findings.end()) c.findings.push_back(f.code);
        failures.push_back(f.message);
      }
      if (!s.summary.peak_busbw_gbps) {
        ++unmeasured;
      } else if (!lowest || *s.summary.peak_busbw_gbps < *lowest->summary.peak_busbw_gbps) {
        lowest = &s;
      }
    }
    if (lowest) {
      c.measured = *lowest->summary.peak_busbw_gbps;
      c.observed = fmt::format("lowest busbw {:.1f} GB/s (GPUs {}{})", *c.measured, list(lowest->gpus),
                               sets.size() > 1 ? fmt::format(", {} sets", sets.size()) : "");
      if (floor) {
        c.target = *floor;
        if (*c.measured < *floor) failures.push_back(fmt::format("{:.1f} GB/s on GPUs {} is below the floor of {:g} GB/s", *c.measured, list(lowest->gpus), *floor));
      } else if (promised.gbps) {
        c.target = *promised.gbps;
        c.observed += fmt::format("; promised {:.0f} GB/s", *c.target);
        if (*c.measured < *promised.gbps * kPromisedBusbwFailShare) {
          failures.push_back(fmt::format(
              "{:.1f} GB/s on GPUs {} is below {:.0f} % of the {:.0f} GB/s the promised machine delivers ({}){}", *c.measured,
              list(lowest->gpus), kPromisedBusbwFailShare * 100, *promised.gbps, promised.basis,
              lowest->summary.expected_busbw_gbps
                  ? fmt::format("; this machine's own envelope is {:.0f} GB/s", *lowest->summary.expected_busbw_gbps)
                  : std::string()));
        }
      } else if (lowest->summary.expected_busbw_gbps) {
        c.target = *lowest->summary.expected_busbw_gbps;
        c.observed += fmt::format("; envelope {:.0f} GB/s", *c.target);
      }
    }
    if (!failures.empty()) {
      c.status = ClauseStatus::fail;
      // The GPU or link to blame first: it explains the slow sets listed after it.
      std::vector<std::string> blamed;
      for (const auto& f : attribution) {
        if (f.severity == core::Severity::info || f.code == core::code::scaling_below_expected) continue;
        c.findings.push_back(f.code);
        blamed.push_back(f.message);
      }
      failures.insert(failures.begin(), blamed.begin(), blamed.end());
    } else if (!lowest || (!floor && !promised.gbps && !lowest->summary.expected_busbw_gbps)) {
      c.reason = !lowest ? "no busbw was measured"
                         : "no envelope for this machine: " + lowest->summary.expected_basis + " (state a floor in GB/s)";
      return;
    } else if (planned > sets.size() || hung || unmeasured > 0) {
      c.reason = !stopped.empty() ? stopped
                 : unmeasured > 0 ? fmt::format("{} of {} GPU sets gave no busbw", unmeasured, sets.size())
                                  : "not every GPU set was measured";
      return;
    } else {
      c.status = ClauseStatus::pass;
    }
    c.reason = summarize_reasons(failures);
  }

  static void decide_scaling(ClauseResult& c, const StageContext& ctx, const std::map<api::CollectiveOp, OpResults>& results,
                             int n, const std::string& stopped) {
    const int half = half_size(n);
    const auto it = results.find(api::CollectiveOp::all_reduce);
    if (half == 0) {
      c.reason = fmt::format("{} GPUs: nothing to scale from", n);
      return;
    }
    if (it == results.end() || !it->second.by_size.count(half) || !it->second.by_size.count(n)) {
      c.reason = stopped.empty() ? "not measured" : stopped;
      return;
    }
    std::vector<double> halves;
    std::vector<std::string> broken;  // hangs and wrong results in the sets compared
    for (int size : {half, n}) {
      for (const auto& s : it->second.by_size.at(size)) {
        if (size == half) {
          if (auto b = first_busbw(s)) halves.push_back(*b);
        }
        for (const auto& f : s.findings) {
          if (!fails_clause(f, false)) continue;
          broken.push_back(f.message);
          if (std::find(c.findings.begin(), c.findings.end(), f.code) == c.findings.end()) c.findings.push_back(f.code);
        }
      }
    }
    if (!broken.empty()) {
      c.status = ClauseStatus::fail;
      c.reason = summarize_reasons(broken);
      return;
    }
    const auto all = first_busbw(it->second.by_size.at(n).front());
    const auto base = best(halves);
    if (!all || !base || *base <= 0) {
      c.reason = stopped.empty() ? "all_reduce did not complete on every set" : stopped;
      return;
    }
    const double efficiency = *all / *base;
    const double wanted = ctx.spec.scaling_efficiency->value;
    c.measured = efficiency * 100;
    c.target = wanted * 100;
    c.unit = "%";
    c.observed = fmt::format("{:.0f} %: all_reduce busbw {:.1f} GB/s on {} GPUs against {:.1f} on the best {} of {} sets",
                             efficiency * 100, *all, n, *base, half, halves.size());
    c.status = efficiency >= wanted ? ClauseStatus::pass : ClauseStatus::fail;
    for (const auto& f : it->second.attribution) {
      if (f.severity == core::Severity::info) continue;
      c.findings.push_back(f.code);
      if (c.status == ClauseStatus::fail) c.reason += (c.reason.empty() ? "" : "; ") + f.message;
    }
    if (c.status == ClauseStatus::fail && c.reason.empty()) {
      c.reason = fmt::format("{:.0f} % is below the {:g} % the spec requires", efficiency * 100, wanted * 100);
    }
  }

  static void collect_findings(StageRecord& record, const std::map<api::CollectiveOp, OpResults>& results) {
    auto add = [&](const core::Finding& f) {
      if (f.severity == core::Severity::info) return;
      for (const auto& have : record.findings) {
        if (have.code == f.code && have.message == f.message) return;
      }
      record.findings.push_back(f);
    };
    for (const auto& [op, r] : results) {
      for (const auto& [size, sets] : r.by_size) {
        for (const auto& s : sets) {
          for (const auto& f : s.findings) add(f);
        }
      }
      for (const auto& f : r.attribution) add(f);
    }
  }

  static void add_pair_heatmap(StageRecord& record, const std::map<api::CollectiveOp, OpResults>& results, const std::vector<int>& gpus) {
    const auto it = results.find(api::CollectiveOp::all_reduce);
    if (it == results.end() || !it->second.by_size.count(2) || gpus.size() <= 2) return;
    HeatmapData h;
    h.title = "all_reduce busbw per GPU pair (1 GiB)";
    h.unit = "GB/s";
    for (int g : gpus) {
      h.row_labels.push_back(fmt::format("GPU {}", g));
      h.col_labels.push_back(fmt::format("GPU {}", g));
    }
    h.values.assign(gpus.size(), std::vector<std::optional<double>>(gpus.size()));
    auto pos = [&](int g) { return static_cast<std::size_t>(std::find(gpus.begin(), gpus.end(), g) - gpus.begin()); };
    for (const auto& s : it->second.by_size.at(2)) {
      const auto b = first_busbw(s);
      if (!b) continue;
      h.values[pos(s.gpus[0])][pos(s.gpus[1])] = *b;
      h.values[pos(s.gpus[1])][pos(s.gpus[0])] = *b;
      if (s.summary.expected_busbw_gbps) h.expected = *s.summary.expected_busbw_gbps;
    }
    record.heatmaps.push_back(std::move(h));
  }

  std::shared_ptr<api::CollectiveBackend> backend_;
  CollectiveStageOptions options_;
};

}  // namespace

std::unique_ptr<Stage> make_collectives_stage(std::shared_ptr<api::CollectiveBackend> backend, CollectiveStageOptions options) {
  return std::make_unique<CollectivesStage>(std::move(backend), options);
}

}  // namespace gpuvet::accept
