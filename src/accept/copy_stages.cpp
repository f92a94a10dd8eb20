// bandwidth: host and peer suites, judged against the envelope (or the spec's floor); vram: the
// pattern check against the share of advertised memory the spec requires. A measurement that
// produced nothing leaves its clause not run, so the verdict cannot pass on it.
#include "accept/copy_stages.hpp"

#include "accept/promised_envelope.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <limits>

#include "accept/clauses.hpp"
#include "analysis/judge.hpp"
#include "probes/vram_probe.hpp"

namespace gpuvet::accept {
namespace {

struct Spread {
  double min = std::numeric_limits<double>::infinity();
  std::string where;
  std::string testcase;  // of the lowest cell
  int cells = 0;
};

// Lowest known cell of the testcases (GPU pairs off the diagonal).
Spread lowest(const std::vector<core::BandwidthRun>& runs, std::initializer_list<const char*> testcases) {
  Spread s;
  for (const auto& run : runs) {
    for (const auto& mx : run.matrices) {
      if (std::find_if(testcases.begin(), testcases.end(), [&](const char* t) { return mx.testcase == t; }) == testcases.end()) continue;
      for (std::size_t r = 0; r < mx.values.size(); ++r) {
        for (std::size_t c = 0; c < mx.values[r].size(); ++c) {
          if (!mx.values[r][c]) continue;
          ++s.cells;
          if (*mx.values[r][c] < s.min) {
            s.min = *mx.values[r][c];
            s.where = fmt::format("{} {}->{}", mx.testcase, mx.row_labels[r], mx.column_labels[c]);
            s.testcase = mx.testcase;
          }
        }
      }
    }
  }
  return s;
}

HeatmapData heatmap(const core::BandwidthMatrix& mx, const core::Assessment& a) {
  HeatmapData h{mx.testcase, mx.unit, mx.row_labels, mx.column_labels, {}, std::nullopt};
  for (const auto& row : mx.values) {
    std::vector<std::optional<double>> out;
    for (const auto& v : row) out.push_back(v ? std::optional<double>(*v) : std::nullopt);
    h.values.push_back(out);
  }
  for (const auto& s : a.bandwidth) {
    if (s.testcase == mx.testcase && s.expected_gbps) h.expected = *s.expected_gbps;
  }
  return h;
}

// `promised`: what the spec's machine delivers on this path, the target of an `auto` clause when
// known (the delivered machine's own envelope otherwise).
void decide(ClauseResult& c, const Spread& spread, const std::optional<double>& floor, const PromisedEnvelope& promised,
            const core::Assessment& a, std::initializer_list<const char*> codes, const std::string& what) {
  if (spread.cells == 0) {
    c.status = ClauseStatus::not_run;
    c.reason = "no " + what + " measurement succeeded";
    return;
  }
  c.measured = spread.min;
  c.observed = fmt::format("lowest {:.1f} GB/s ({})", spread.min, spread.where);
  std::vector<std::string> failures;
  for (const auto& f : a.findings) {
    if (std::find_if(codes.begin(), codes.end(), [&](const char* k) { return f.code == k; }) == codes.end()) continue;
    if (std::find(c.findings.begin(), c.findings.end(), f.code) == c.findings.end()) c.findings.push_back(f.code);
    // With a floor the spec decides the numbers; "auto" fails on anything below the envelope.
    // Missing P2P and a failed copy fail either way: a cell that could not be measured is no pass.
    const bool always = f.code == "p2p_unavailable" || f.code == "benchmark_failed";
    if ((!floor || always) && f.severity != core::Severity::info) failures.push_back(f.message);
  }
  if (!floor) {
    // `auto`: the promised machine's envelope when the spec fixes it, else the envelope of the
    // lowest cell's testcase on this machine.
    std::optional<double> own;
    for (const auto& b : a.bandwidth) {
      if (b.testcase == spread.testcase && b.expected_gbps) own = *b.expected_gbps;
    }
    c.target = promised.gbps ? std::optional<double>(*promised.gbps) : own;
    if (promised.gbps && spread.min < *promised.gbps * kPromisedCopyFailShare) {
      failures.push_back(fmt::format("{:.1f} GB/s is below {:.0f} % of the {:.1f} GB/s the promised machine delivers ({}){}",
                                     spread.min, kPromisedCopyFailShare * 100, *promised.gbps, promised.basis,
                                     own ? fmt::format("; this machine's own envelope is {:.1f} GB/s", *own) : ""));
    }
  }
  if (floor) {
    c.target = *floor;
    if (spread.min < *floor) failures.push_back(fmt::format("{:.1f} GB/s is below the floor of {:g} GB/s", spread.min, *floor));
  }
  c.status = failures.empty() ? ClauseStatus::pass : ClauseStatus::fail;
  for (const auto& f : failures) c.reason += (c.reason.empty() ? "" : "; ") + f;
}

class BandwidthStage final : public Stage {
 public:
  BandwidthStage(std::shared_ptr<api::CopyBackend> backend, probes::BandwidthOptions options)
      : backend_(std::move(backend)), options_(std::move(options)) {}
  [[nodiscard]] std::string id() const override { return "bandwidth"; }
  [[nodiscard]] std::string title() const override { return "Copy bandwidth (host<->device, GPU pairs)"; }
  [[nodiscard]] std::vector<ClauseResult> clauses(const spec::Spec& spec) const override { return bandwidth_clauses(spec); }

  StageRecord run(const StageContext& ctx, std::vector<ClauseResult> clauses) const override {
    StageRecord record;
    std::vector<core::BandwidthRun> runs;
    for (auto suite : {probes::BandwidthSuite::host, probes::BandwidthSuite::p2p}) {
      auto run = probes::run_bandwidth_suite(*backend_, suite, options_);
      if (!run) {
        record.status = StageStatus::error;
        record.reason = run.error().message;
        record.clauses = std::move(clauses);
        return record;
      }
      runs.push_back(std::move(run).value());
    }
    // Judged per suite, so a slow host link never fails the peer clause (and vice versa).
    std::vector<core::Assessment> judged(runs.size());
    core::Assessment a;
    for (std::size_t i = 0; i < runs.size(); ++i) {
      judged[i].interconnect = ctx.assessment.interconnect;
      analysis::judge_bandwidth({runs[i]}, ctx.machine, ctx.catalog, judged[i]);
      a.findings.insert(a.findings.end(), judged[i].findings.begin(), judged[i].findings.end());
      a.bandwidth.insert(a.bandwidth.end(), judged[i].bandwidth.begin(), judged[i].bandwidth.end());
    }
    for (auto& c : clauses) {
      if (c.id == "bandwidth.h2d") {
        decide(c, lowest(runs, {"host_to_device_memcpy_ce", "device_to_host_memcpy_ce"}), ctx.spec.h2d_gbps->value,
               promised_host_copy(ctx.spec, ctx.catalog), judged[0],
               {"bandwidth_below_expected", "host_copy_far_numa_faster", "benchmark_failed"}, "host<->device");
      } else if (c.id == "bandwidth.p2p") {
        decide(c, lowest(runs, {"device_to_device_memcpy_read_ce", "device_to_device_memcpy_write_ce"}), ctx.spec.p2p_gbps->value,
               promised_peer_copy(ctx.spec, ctx.catalog), judged[1], {"bandwidth_below_expected", "p2p_unavailable", "benchmark_failed"}, "peer copy");
      }
    }
    for (const auto& run : runs) {
      for (const auto& mx : run.matrices) {
        if (mx.testcase == "host_to_device_memcpy_ce" || mx.testcase == "device_to_device_memcpy_read_ce") {
          record.heatmaps.push_back(heatmap(mx, a));
        }
      }
    }
    record.status = StageStatus::done;
    record.findings = a.findings;
    record.clauses = std::move(clauses);
    return record;
  }

 private:
  std::shared_ptr<api::CopyBackend> backend_;
  probes::BandwidthOptions options_;
};

class VramStage final : public Stage {
 public:
  explicit VramStage(std::shared_ptr<api::CopyBackend> backend) : backend_(std::move(backend)) {}
  [[nodiscard]] std::string id() const override { return "vram"; }
  [[nodiscard]] std::string title() const override { return "VRAM: allocate and verify all memory"; }
  [[nodiscard]] std::vector<ClauseResult> clauses(const spec::Spec& spec) const override { return vram_clauses(spec); }

  StageRecord run(const StageContext& ctx, std::vector<ClauseResult> clauses) const override {
    StageRecord record;
    record.clauses = std::move(clauses);
    auto run = probes::run_vram_check(*backend_, {});
    if (!run) {
      record.status = StageStatus::error;
      record.reason = run.error().message;
      return record;
    }
    core::Assessment a;
    analysis::judge_vram(*run, a);
    record.findings = a.findings;
    record.status = StageStatus::done;
    for (auto& c : record.clauses) {
      if (c.id != "vram") continue;
      if (!ctx.spec.memory_gib) {
        c.reason = "the spec states no memory per GPU to compare with";
        continue;
      }
      const double advertised = ctx.spec.memory_gib->value;
      const double fraction = ctx.spec.vram_min_fraction->value;
      c.target = advertised * fraction;
      double lowest_gib = std::numeric_limits<double>::infinity();
      std::vector<std::string> problems;
      for (const auto& check : run->gpus) {
        if (check.error || !check.tested_bytes) {
          problems.push_back(fmt::format("GPU {} not verified: {}", check.gpu, check.error.value_or("no result")));
          continue;
        }
        const double gib = static_cast<double>(*check.tested_bytes) / 1073741824.0;
        lowest_gib = std::min(lowest_gib, gib);
        if (!check.miscompares.empty()) problems.push_back(fmt::format("GPU {}: memory reads back wrong", check.gpu));
        if (gib < advertised * fraction) {
          problems.push_back(fmt::format("GPU {}: {:.2f} GiB usable, below {:g} % of {:g}", check.gpu, gib, fraction * 100, advertised));
        }
      }
      for (const auto& f : a.findings) c.findings.push_back(f.code);
      const bool unverified = std::any_of(run->gpus.begin(), run->gpus.end(), [](const auto& g) { return g.error || !g.tested_bytes; });
      if (lowest_gib < std::numeric_limits<double>::infinity()) {
        c.measured = lowest_gib;
        c.observed = fmt::format("lowest {:.2f} GiB usable and verified", lowest_gib);
      }
      const bool failed = std::any_of(problems.begin(), problems.end(), [](const std::string& p) { return p.find("not verified") == std::string::npos; });
      c.status = failed ? ClauseStatus::fail : unverified ? ClauseStatus::not_run : ClauseStatus::pass;
      for (const auto& p : problems) c.reason += (c.reason.empty() ? "" : "; ") + p;
    }
    return record;
  }

 private:
  std::shared_ptr<api::CopyBackend> backend_;
};

}  // namespace

std::unique_ptr<Stage> make_bandwidth_stage(std::shared_ptr<api::CopyBackend> backend, probes::BandwidthOptions options) {
  return std::make_unique<BandwidthStage>(std::move(backend), std::move(options));
}

std::unique_ptr<Stage> make_vram_stage(std::shared_ptr<api::CopyBackend> backend) {
  return std::make_unique<VramStage>(std::move(backend));
}

}  // namespace gpuvet::accept
