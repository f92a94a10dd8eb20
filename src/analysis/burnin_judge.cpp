// Runs the burn-in rules in a fixed order and lists what the run could not verify.
#include "analysis/burnin_judge.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "analysis/burnin_series.hpp"

namespace gpuvet::analysis {

namespace {

using burnin::Context;

void coverage(const Context& ctx, BurninAssessment& a) {
  const auto& run = ctx.record.run;
  if (run.status != core::BurninStatus::completed) {
    a.unverified.push_back(fmt::format("the burn-in did not complete (status: {}): {} of the planned {} was recorded",
                                       core::to_string(run.status), burnin::hms(a.recorded_s),
                                       burnin::hms(run.planned_duration_s)));
  }
  std::set<int> lost;
  for (const auto& e : ctx.record.events) {
    if (e.kind == core::TelemetryEventKind::gpu_lost || (e.kind == core::TelemetryEventKind::xid && e.code == 79)) {
      lost.insert(e.gpu);
    }
    if (e.kind == core::TelemetryEventKind::stress_error) {
      a.unverified.push_back(fmt::format("GPU {}: the GEMM load did not run to the end: {}", e.gpu, e.message));
    }
  }
  for (const auto& gpu : ctx.record.gpus) {
    auto it = ctx.series.find(gpu.index);
    if (it == ctx.series.end()) {
      if (!lost.count(gpu.index)) a.unverified.push_back(fmt::format("GPU {}: no telemetry was recorded", gpu.index));
      continue;
    }
    const auto& samples = it->second.samples;
    const bool any_temp = std::any_of(samples.begin(), samples.end(), [](const auto* s) { return s->gpu_temp_c.known(); });
    if (!any_temp && !lost.count(gpu.index)) {
      a.unverified.push_back(fmt::format("GPU {}: temperature could not be read ({})", gpu.index,
                                         samples.front()->gpu_temp_c.reason()));
    }
  }
}

BurninGpuSummary summarize(const Context& ctx, const burnin::Series& s) {
  BurninGpuSummary out;
  out.gpu = s.gpu;
  out.samples = s.samples.size();
  const auto med = [&](core::Reading<double> core::TelemetrySample::*member) -> core::Reading<double> {
    if (auto m = burnin::median(burnin::steady_values(ctx, s, member))) return *m;
    return core::Reading<double>::absent("no steady-state sample under load");
  };
  out.median_tflops = med(&core::TelemetrySample::tflops);
  out.median_temp_c = med(&core::TelemetrySample::gpu_temp_c);
  out.median_power_w = med(&core::TelemetrySample::power_w);
  out.median_sm_clock_mhz = med(&core::TelemetrySample::sm_clock_mhz);
  for (const auto* sample : s.samples) {
    if (!sample->gpu_temp_c.known()) continue;
    if (!out.max_temp_c.known() || *sample->gpu_temp_c > *out.max_temp_c) out.max_temp_c = *sample->gpu_temp_c;
  }
  if (!out.max_temp_c.known()) out.max_temp_c = core::Reading<double>::absent("temperature never read");
  for (const auto& e : ctx.record.events) {
    if (e.gpu == s.gpu && (e.kind == core::TelemetryEventKind::safety_stop || e.kind == core::TelemetryEventKind::stress_error ||
                           e.kind == core::TelemetryEventKind::gpu_lost)) {
      out.stopped = true;
    }
  }
  return out;
}

}  // namespace

BurninAssessment judge_burnin(const core::BurninRecord& record, const BurninThresholds& thresholds) {
  const Context ctx = burnin::make_context(record, thresholds);
  BurninAssessment a;
  for (const auto& s : record.samples) a.recorded_s = std::max(a.recorded_s, s.t_s);
  burnin::event_rule(ctx, a.findings);
  burnin::miscompare_rule(ctx, a.findings);
  burnin::straggler_rule(ctx, a.findings);
  burnin::clock_desync_rule(ctx, a.findings);
  burnin::thermal_rule(ctx, a.findings);
  burnin::throttle_rule(ctx, a.findings);
  burnin::power_rule(ctx, a.findings);
  burnin::ecc_rule(ctx, a.findings);
  burnin::memory_rule(ctx, a.findings);
  burnin::nvlink_rule(ctx, a.findings);
  burnin::pcie_rule(ctx, a.findings);
  coverage(ctx, a);
  for (const auto& [gpu, s] : ctx.series) a.gpus.push_back(summarize(ctx, s));
  return a;
}

}  // namespace gpuvet::analysis
