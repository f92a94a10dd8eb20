// bandwidth: host and peer suites measured and judged by copy_pipeline, the clauses decided by
// copy_clauses; vram: the pattern check, decided the same way. The stages add only what the
// report draws: the heatmaps of the H2D and peer-read matrices.
#include "accept/copy_stages.hpp"

#include "accept/clauses.hpp"
#include "accept/copy_clauses.hpp"
#include "accept/copy_pipeline.hpp"
#include "core/copy_testcases.hpp"

namespace gpuvet::accept {
namespace {

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

class BandwidthStage final : public Stage {
 public:
  BandwidthStage(std::shared_ptr<api::CopyBackend> backend, probes::BandwidthOptions options)
      : backend_(std::move(backend)), options_(std::move(options)) {}
  [[nodiscard]] std::string id() const override { return "bandwidth"; }
  [[nodiscard]] std::string title() const override { return "Copy bandwidth (host<->device, GPU pairs)"; }
  [[nodiscard]] std::vector<ClauseResult> clauses(const spec::Spec& spec) const override { return bandwidth_clauses(spec); }

  StageRecord run(const StageContext& ctx, std::vector<ClauseResult> clauses) const override {
    StageRecord record;
    record.clauses = std::move(clauses);
    // Judged per suite, so a slow host link never fails the peer clause (and vice versa).
    auto suites = observe_copies(*backend_, {probes::BandwidthSuite::host, probes::BandwidthSuite::p2p}, options_, ctx.machine,
                                 ctx.catalog, ctx.assessment.interconnect);
    if (!suites) {
      record.status = StageStatus::error;
      record.reason = suites.error().message;
      return record;
    }
    const JudgedSuite& host = (*suites)[0];
    const JudgedSuite& peer = (*suites)[1];
    for (auto& c : record.clauses) decide_bandwidth_clause(c, {host.run, host.judged}, {peer.run, peer.judged}, ctx.spec, ctx.catalog);
    core::Assessment all;
    for (const auto& s : *suites) {
      all.findings.insert(all.findings.end(), s.judged.findings.begin(), s.judged.findings.end());
      all.bandwidth.insert(all.bandwidth.end(), s.judged.bandwidth.begin(), s.judged.bandwidth.end());
    }
    for (const auto& s : *suites) {
      for (const auto& mx : s.run.matrices) {
        if (mx.testcase == core::testcase::host_to_device_memcpy_ce || mx.testcase == core::testcase::device_to_device_memcpy_read_ce) {
          record.heatmaps.push_back(heatmap(mx, all));
        }
      }
    }
    record.status = StageStatus::done;
    record.findings = all.findings;
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
    auto vram = observe_vram(*backend_, {});
    if (!vram) {
      record.status = StageStatus::error;
      record.reason = vram.error().message;
      return record;
    }
    record.findings = vram->judged.findings;
    record.status = StageStatus::done;
    for (auto& c : record.clauses) decide_vram_clause(c, vram->run, vram->judged.findings, ctx.spec);
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
