// Burn-in rules over error counters and events: new ECC errors, Xid events and lost GPUs,
// NVLink error counters that grow, PCIe replays, GEMM miscompares, and memory repairs pending.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <set>

#include "analysis/burnin_state.hpp"
#include "analysis/xid_catalog.hpp"

namespace gpuvet::analysis::burnin {

namespace {

using NvlinkMember = core::Reading<std::uint64_t> core::NvLinkErrorSample::*;
constexpr std::pair<const char*, NvlinkMember> kNvlinkCounters[] = {{"crc_flit", &core::NvLinkErrorSample::crc_flit},
                                                                    {"crc_data", &core::NvLinkErrorSample::crc_data},
                                                                    {"replay", &core::NvLinkErrorSample::replay},
                                                                    {"recovery", &core::NvLinkErrorSample::recovery}};

void add(Growth& g, double t_s, const core::Reading<std::uint64_t>& r) {
  if (r.known()) g.add(t_s, *r);
}

}  // namespace

void observe_health(GpuState& g, const core::TelemetrySample& s) {
  add(g.ecc_corrected, s.t_s, s.ecc_corrected);
  add(g.ecc_uncorrected, s.t_s, s.ecc_uncorrected);
  add(g.pcie_replays, s.t_s, s.pcie_replays);
  if (s.nvlink.known()) {
    for (const auto& l : *s.nvlink) {
      auto& acc = g.nvlink[l.link];
      for (std::size_t c = 0; c < 4; ++c) add(acc[c], s.t_s, l.*(kNvlinkCounters[c].second));
    }
  }
  if (s.miscompares.known() && *s.miscompares != 0) {
    if (g.first_miscompare_s < 0) g.first_miscompare_s = s.t_s;
    g.miscompares = std::max(g.miscompares, *s.miscompares);
  }
  if (!s.gpu_temp_c.known() && !s.power_w.known() && !s.sm_clock_mhz.known() && !s.util_gpu_pct.known()) {
    if (g.silent_samples++ == 0) {
      g.silent_first_s = s.t_s;
      g.silent_reason = s.power_w.reason();
    }
    g.silent_last_s = s.t_s;
  }
  if (g.remap_s < 0 && s.remap_pending.known() && *s.remap_pending) g.remap_s = s.t_s;
  if (g.retire_s < 0 && s.retired_pages_pending.known() && *s.retired_pages_pending) g.retire_s = s.t_s;
}

void ecc_rule(const Context& ctx, std::vector<core::Finding>& out) {
  for (const auto& [gpu, s] : ctx.series) {
    const Growth* uncorrected = &s.ecc_uncorrected;
    const Growth* corrected = &s.ecc_corrected;
    const bool unc = uncorrected->started && uncorrected->delta() > 0;
    const bool cor = corrected->started && corrected->delta() > 0;
    if (!unc && !cor) continue;
    const Growth& g = unc ? *uncorrected : *corrected;
    std::vector<std::pair<std::string, std::string>> evidence;
    if (cor) {
      evidence.emplace_back("corrected_new", std::to_string(corrected->delta()));
      evidence.emplace_back("corrected_per_hour", format_number(corrected->per_minute() * 60, 1));
    }
    if (unc) evidence.emplace_back("uncorrected_new", std::to_string(uncorrected->delta()));
    evidence.emplace_back("window", span(ctx, g.first_rise_s, g.last_rise_s));
    out.push_back(finding(
        "ecc_errors_new", unc ? core::Severity::fail : core::Severity::warn, {gpu},
        unc ? fmt::format("GPU {} reported {} new uncorrected ECC error(s) {}, first at {}", gpu, uncorrected->delta(), during(ctx),
                          at(ctx, uncorrected->first_rise_s))
            : fmt::format("GPU {} reported {} new corrected ECC errors {} ({} per hour while they grew), first at {}", gpu,
                          corrected->delta(), during(ctx), format_number(corrected->per_minute() * 60, 1),
                          at(ctx, corrected->first_rise_s)),
        std::move(evidence)));
  }
}

void event_rule(const Context& ctx, std::vector<core::Finding>& out) {
  const EventTally& ev = ctx.events;
  for (const auto& [key, xid] : ev.xids) {
    const auto [gpu, code] = key;
    // NVIDIA's catalogue row as gpuvet judges it (analysis/xid_catalog: meaning, action, severity;
    // the daemon's alert says the same), else warn with a pointer to the catalogue.
    const XidInfo* info = find_xid(code);
    const std::string meaning = info ? std::string(info->meaning) : "not in gpuvet's copy of NVIDIA's Xid catalogue";
    auto f = finding("xid_event", info ? info->severity : core::Severity::warn, {gpu},
                     fmt::format("GPU {} reported Xid {} ({}) {} at {}{}", gpu, code, meaning,
                                 xid.count == 1 ? std::string("once") : fmt::format("{} times, first", xid.count), at(ctx, xid.first_s),
                                 info ? fmt::format("; NVIDIA's action: {}", describe(info->action)) : std::string()),
                     {{"xid", std::to_string(code)}, {"count", std::to_string(xid.count)}, {"window", span(ctx, xid.first_s, xid.last_s)}});
    if (info) {
      f.evidence.emplace_back("nvidia_action", std::string(describe(info->action)));
      f.next_step = fmt::format("{} (NVIDIA's Xid catalogue for Xid {}); check dmesg around the time given.", describe(info->action), code);
    }
    out.push_back(std::move(f));
  }
  for (const auto& [gpu, lost_s] : ev.lost) {
    if (ev.xids.count({gpu, 79})) continue;  // already reported as Xid 79
    out.push_back(finding("gpu_missing", core::Severity::fail, {gpu},
                          fmt::format("GPU {} was lost {} at {} (NVML: GPU is lost)", gpu, during(ctx), at(ctx, lost_s)),
                          {{"lost_at", at(ctx, lost_s)}}));
  }
  // A GPU the history knows that gave no reading for a while (the daemon's gpu_lost: fell off the
  // bus at run time without an event, or not enumerated since a restart).
  for (const auto& [gpu, s] : ctx.series) {
    if (s.silent_samples == 0 || ev.lost.count(gpu) != 0 || ev.xids.count({gpu, 79}) != 0) continue;
    std::string uuid = "UUID not recorded";
    for (const auto& info : ctx.gpus) {
      if (info.index == gpu && info.uuid.known()) uuid = *info.uuid;
    }
    out.push_back(finding("gpu_missing", core::Severity::fail, {gpu},
                          fmt::format("GPU {} ({}, GPU {} of this history) gave no reading {} from {} to {} ({} sample(s)): {}", gpu,
                                      uuid, gpu, during(ctx), at(ctx, s.silent_first_s), at(ctx, s.silent_last_s), s.silent_samples,
                                      s.silent_reason.empty() ? "no reason recorded" : s.silent_reason),
                          {{"uuid", uuid},
                           {"history_index", std::to_string(gpu)},
                           {"silent_from", at(ctx, s.silent_first_s)},
                           {"silent_to", at(ctx, s.silent_last_s)},
                           {"silent_samples", std::to_string(s.silent_samples)}}));
  }
  for (const auto& e : ev.safety_stops) {
    out.push_back(finding("thermal_outlier", core::Severity::fail, {e.gpu},
                          fmt::format("GPU {}: {} at {}", e.gpu, e.message, at(ctx, e.t_s)), {{"stopped_at", at(ctx, e.t_s)}}));
  }
}

void nvlink_rule(const Context& ctx, std::vector<core::Finding>& out) {
  for (const auto& [gpu, s] : ctx.series) {
    const auto& links = s.nvlink;
    bool fail = false;
    std::string parts;
    std::vector<std::pair<std::string, std::string>> evidence;
    double first_rise = -1;
    for (const auto& [link, acc] : links) {
      for (std::size_t c = 0; c < 4; ++c) {
        const Growth& g = acc[c];
        if (!g.started || g.delta() == 0) continue;
        const std::string counter = kNvlinkCounters[c].first;
        const bool crc = counter.rfind("crc", 0) == 0;
        if (crc ? g.per_minute() / 60 >= ctx.thresholds.nvlink_crc_per_s : g.delta() > 1) fail = true;
        if (first_rise < 0 || g.first_rise_s < first_rise) first_rise = g.first_rise_s;
        parts += fmt::format("{}link {} {} +{} ({})", parts.empty() ? "" : "; ", link, counter, g.delta(), growth_text(ctx, g));
        evidence.emplace_back(fmt::format("link{}_{}_new", link, counter), std::to_string(g.delta()));
        evidence.emplace_back(fmt::format("link{}_{}_per_min", link, counter), format_number(g.per_minute(), 2));
      }
    }
    if (parts.empty()) continue;
    evidence.emplace_back("first_increase", at(ctx, first_rise));
    out.push_back(finding("nvlink_errors_growing", fail ? core::Severity::fail : core::Severity::warn, {gpu},
                          fmt::format("GPU {}: NVLink error counters grew {}: {}", gpu, ctx.wall_clock ? "in the period" : "under load", parts),
                          std::move(evidence)));
  }
}

void pcie_rule(const Context& ctx, std::vector<core::Finding>& out) {
  for (const auto& [gpu, s] : ctx.series) {
    const Growth* g = &s.pcie_replays;
    if (!g->started || g->delta() == 0) continue;
    const bool over = g->per_minute() > ctx.thresholds.pcie_replays_per_min;
    out.push_back(finding(
        "pcie_replays", over ? core::Severity::warn : core::Severity::info, {gpu},
        fmt::format("GPU {}: {} PCIe replays {}, {}{}", gpu, g->delta(), during(ctx), growth_text(ctx, *g, 2),
                    over ? fmt::format(" (above DCGM's {} per minute)", format_number(ctx.thresholds.pcie_replays_per_min, 0))
                         : std::string()),
        {{"replays_new", std::to_string(g->delta())},
         {"per_minute", format_number(g->per_minute(), 2)},
         {"window", span(ctx, g->first_rise_s, g->last_rise_s)}}));
  }
}

void miscompare_rule(const Context& ctx, std::vector<core::Finding>& out) {
  for (const auto& [gpu, s] : ctx.series) {
    const std::uint64_t total = s.miscompares;
    const double first = s.first_miscompare_s;
    if (total == 0) continue;
    out.push_back(finding("compute_miscompare", core::Severity::fail, {gpu},
                          fmt::format("GPU {} computed {} GEMM result(s) that differ from the reference, first seen at {}",
                                      gpu, total, at(ctx, first)),
                          {{"miscompares", std::to_string(total)}, {"first_seen", at(ctx, first)}}));
  }
}

void memory_rule(const Context& ctx, std::vector<core::Finding>& out) {
  for (const auto& [gpu, s] : ctx.series) {
    const double remap = s.remap_s;
    const double retire = s.retire_s;
    if (remap >= 0) {
      out.push_back(finding("row_remap_pending", core::Severity::fail, {gpu},
                            fmt::format("GPU {} has a row remap pending since {}{}", gpu, at(ctx, remap), ctx.wall_clock ? "" : " of the burn-in"),
                            {{"first_seen", at(ctx, remap)}}));
    }
    if (retire >= 0) {
      out.push_back(finding("retired_pages", core::Severity::fail, {gpu},
                            fmt::format("GPU {} has a page retirement pending since {}{}", gpu, at(ctx, retire), ctx.wall_clock ? "" : " of the burn-in"),
                            {{"first_seen", at(ctx, retire)}}));
    }
  }
}

}  // namespace gpuvet::analysis::burnin
