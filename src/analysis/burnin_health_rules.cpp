// Burn-in rules about the run itself rather than the GPU's health: GEMM miscompares and GPUs the
// runner stopped near their shutdown temperature. The GPU's health (Xid, lost GPUs, ECC, NVLink
// and PCIe counters, memory repairs, PCIe links, throttling) is the one health judge's
// (analysis/health), the same rules the daemon and `trend` run.
#include <fmt/format.h>

#include <algorithm>

#include "analysis/burnin_state.hpp"
#include "analysis/finding_codes.hpp"

namespace gpuvet::analysis::burnin {

void observe_miscompares(GpuState& g, const core::TelemetrySample& s) {
  if (s.miscompares.known() && *s.miscompares != 0) {
    if (g.first_miscompare_s < 0) g.first_miscompare_s = s.t_s;
    g.miscompares = std::max(g.miscompares, *s.miscompares);
  }
}

void safety_stop_rule(const Context& ctx, std::vector<core::Finding>& out) {
  for (const auto& e : ctx.events.safety_stops) {
    out.push_back(finding(code::thermal_outlier, core::Severity::fail, {e.gpu},
                          fmt::format("GPU {}: {} at {}", e.gpu, e.message, at(ctx, e.t_s)), {{"stopped_at", at(ctx, e.t_s)}}));
  }
}

void health_rule(const Context& ctx, std::vector<core::Finding>& out) {
  health::HealthView view;
  view.limits = ctx.health.limits();
  view.now_s = 0;
  for (const auto& [gpu, s] : ctx.series) view.now_s = std::max(view.now_s, s.last_s);
  view.words.started_unix_ms = ctx.run.started_unix_ms;
  view.words.wall_clock = ctx.wall_clock;
  view.words.during = std::string(during(ctx));
  view.gpus = &ctx.gpus;
  for (auto& f : ctx.health.findings(view)) out.push_back(std::move(f));
}

void miscompare_rule(const Context& ctx, std::vector<core::Finding>& out) {
  for (const auto& [gpu, s] : ctx.series) {
    const std::uint64_t total = s.miscompares;
    const double first = s.first_miscompare_s;
    if (total == 0) continue;
    out.push_back(finding(code::compute_miscompare, core::Severity::fail, {gpu},
                          fmt::format("GPU {} computed {} GEMM result(s) that differ from the reference, first seen at {}",
                                      gpu, total, at(ctx, first)),
                          {{"miscompares", std::to_string(total)}, {"first_seen", at(ctx, first)}}));
  }
}

}  // namespace gpuvet::analysis::burnin
