// Burn-in rules over the link traffic that ran beside the GEMM load: link and PCIe errors that grew
// while traffic ran (link_errors_under_traffic) or could not show because none ran
// (links_carried_no_traffic), the card that drags the group's collectives while its GEMMs keep pace
// (traffic_straggler), a fabric that slowed as the cards heated (busbw_fell_when_hot), and results
// that differ across GPUs or come back wrong from a collective (silent_data_corruption).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "analysis/burnin_state.hpp"
#include "analysis/finding_codes.hpp"
#include "analysis/traffic_tally.hpp"

namespace gpuvet::analysis::burnin {

namespace {

std::optional<double> median_of(std::vector<double> values) {
  if (values.empty()) return std::nullopt;
  return median(values);
}

// The median of the other GPUs' values.
std::optional<double> peers_of(const std::map<int, double>& values, int gpu) {
  std::vector<double> others;
  for (const auto& [g, v] : values) {
    if (g != gpu) others.push_back(v);
  }
  return median_of(std::move(others));
}

// Each GPU's median of one rate over the steady intervals (ending after the warm-up).
std::map<int, double> steady_rates(const Context& ctx, std::optional<double> GpuRates::*member) {
  std::map<int, double> out;
  for (const auto& [gpu, series] : ctx.traffic->rates) {
    std::vector<double> values;
    for (const auto& [t_s, r] : series) {
      if (t_s > ctx.warmup_end_s && r.*member) values.push_back(*(r.*member));
    }
    if (auto m = median_of(std::move(values))) out[gpu] = *m;
  }
  return out;
}

std::string traffic_words(const Context& ctx) {
  return fmt::format("{} of {} traffic at {} % of the time", hms(ctx.traffic->traffic_s()),
                     core::traffic_kinds_text(ctx.run.traffic.kinds), format_number(100 * ctx.run.traffic.share, 0));
}

}  // namespace

void link_traffic_rule(const Context& ctx, std::vector<core::Finding>& out) {
  const TrafficTally& t = *ctx.traffic;
  if (!ctx.run.traffic.on()) {
    std::vector<int> gpus;
    std::size_t links = 0;
    for (const auto& [gpu, n] : t.nvlink_links) {
      if (n == 0) continue;
      gpus.push_back(gpu);
      links += n;
    }
    if (gpus.empty()) return;
    out.push_back(finding(code::links_carried_no_traffic, core::Severity::info, gpus,
                          fmt::format("The links carried no traffic: this burn-in loaded the GEMM units only, so NVLink "
                                      "errors that grow only under load could not show on the {} links of {} GPUs; rerun "
                                      "with --traffic all",
                                      links, gpus.size()),
                          {{"traffic", "none"}, {"nvlink_links", std::to_string(links)}}));
    return;
  }
  std::map<int, std::vector<std::string>> parts;
  std::map<int, std::vector<std::pair<std::string, std::string>>> evidence;
  std::map<int, double> first;
  std::map<int, bool> nvlink;
  const auto note_first = [&](int gpu, double at) {
    if (at >= 0 && (!first.count(gpu) || at < first[gpu])) first[gpu] = at;
  };
  for (const auto& [key, c] : t.links) {
    const auto [gpu, link] = key;
    if (c.crc.under_traffic + c.replay.under_traffic + c.recovery.under_traffic == 0) continue;
    parts[gpu].push_back(fmt::format("link {}: {} CRC errors, {} replays, {} recoveries while traffic ran ({} CRC errors while idle)",
                                     link, c.crc.under_traffic, c.replay.under_traffic, c.recovery.under_traffic, c.crc.idle));
    auto& e = evidence[gpu];
    e.emplace_back(fmt::format("link{}_crc_under_traffic", link), std::to_string(c.crc.under_traffic));
    e.emplace_back(fmt::format("link{}_replay_under_traffic", link), std::to_string(c.replay.under_traffic));
    e.emplace_back(fmt::format("link{}_recovery_under_traffic", link), std::to_string(c.recovery.under_traffic));
    e.emplace_back(fmt::format("link{}_crc_idle", link), std::to_string(c.crc.idle));
    for (const auto* g : {&c.crc, &c.replay, &c.recovery}) note_first(gpu, g->first_under_traffic_s);
    nvlink[gpu] = true;
  }
  for (const auto& [gpu, p] : t.pcie) {
    if (p.under_traffic == 0) continue;
    parts[gpu].push_back(fmt::format("PCIe: {} replays while traffic ran ({} while idle)", p.under_traffic, p.idle));
    evidence[gpu].emplace_back("pcie_replays_under_traffic", std::to_string(p.under_traffic));
    evidence[gpu].emplace_back("pcie_replays_idle", std::to_string(p.idle));
    note_first(gpu, p.first_under_traffic_s);
  }
  for (auto& [gpu, p] : parts) {
    std::string message = fmt::format("GPU {}: link error counters grew while the burn-in's traffic crossed them ({}): ", gpu,
                                      traffic_words(ctx));
    for (std::size_t i = 0; i < p.size(); ++i) message += (i ? "; " : "") + p[i];
    auto& e = evidence[gpu];
    e.emplace_back("first_under_traffic", at(ctx, first.count(gpu) ? first[gpu] : 0));
    e.emplace_back("traffic_time", hms(t.traffic_s()));
    // Any NVLink error under traffic fails (the link must carry a training job's collectives);
    // PCIe replays alone warn, as the health judge's rate does below DCGM's limit.
    out.push_back(finding(code::link_errors_under_traffic, nvlink[gpu] ? core::Severity::fail : core::Severity::warn, {gpu},
                          std::move(message), std::move(e)));
  }
}

void traffic_straggler_rule(const Context& ctx, std::vector<core::Finding>& out) {
  const auto send = steady_rates(ctx, &GpuRates::send);
  const auto recv = steady_rates(ctx, &GpuRates::recv);
  if (send.size() < 3) return;  // with two GPUs both ends of every link look alike
  std::map<int, double> tflops;
  for (const auto& [gpu, s] : ctx.series) {
    if (auto m = s.tflops.median()) tflops[gpu] = *m;
  }
  const double keep = 1 - ctx.thresholds.straggler_tolerance;
  for (const auto& [gpu, rate] : send) {
    const auto peer_send = peers_of(send, gpu);
    const auto peer_recv = peers_of(recv, gpu);
    const auto own_recv = recv.find(gpu);
    if (!peer_send || !peer_recv || own_recv == recv.end()) continue;
    // Its neighbours see one slow direction each; the card itself is slow both ways.
    if (rate >= keep * *peer_send || own_recv->second >= keep * *peer_recv) continue;
    const auto own_tflops = tflops.find(gpu);
    const auto peer_tflops = peers_of(tflops, gpu);
    if (own_tflops == tflops.end() || !peer_tflops || own_tflops->second < keep * *peer_tflops) continue;  // straggler_gpu's
    out.push_back(finding(
        code::traffic_straggler, core::Severity::fail, {gpu},
        fmt::format("GPU {} drags the group's collectives: it sends at {} GB/s and receives at {} GB/s to its ring "
                    "neighbours, {} % and {} % of its peers' median, while its GEMMs keep pace ({} TFLOP/s, peers {})",
                    gpu, format_number(rate, 1), format_number(own_recv->second, 1), format_number(100 * rate / *peer_send, 0),
                    format_number(100 * own_recv->second / *peer_recv, 0), format_number(own_tflops->second, 1),
                    format_number(*peer_tflops, 1)),
        {{"send_gbps", format_number(rate, 1)},
         {"recv_gbps", format_number(own_recv->second, 1)},
         {"peer_send_gbps", format_number(*peer_send, 1)},
         {"peer_recv_gbps", format_number(*peer_recv, 1)},
         {"median_tflops", format_number(own_tflops->second, 1)},
         {"peer_median_tflops", format_number(*peer_tflops, 1)},
         {"tolerance", format_number(100 * ctx.thresholds.straggler_tolerance, 0) + " %"}}));
  }
}

void busbw_heat_rule(const Context& ctx, std::vector<core::Finding>& out) {
  const TrafficTally& t = *ctx.traffic;
  if (t.windows.empty()) return;
  // Cold: the intervals that end within the first traffic interval's length (the cards still
  // near the room's temperature); steady: those that end after the warm-up.
  const double cold_end = t.windows.front().second + 1e-9;
  for (const auto& [op, series] : t.busbw) {
    std::vector<double> cold, steady;
    for (const auto& [t_s, gbps] : series) {
      if (t_s <= cold_end) cold.push_back(gbps);
      if (t_s > ctx.warmup_end_s) steady.push_back(gbps);
    }
    const auto c = median_of(cold), s = median_of(steady);
    if (!c || !s || *c <= 0 || *s >= ctx.thresholds.busbw_hot_min_share * *c) continue;
    // The card whose own send rate fell furthest from its first interval: the one the heat slows.
    int worst = -1;
    double worst_share = 1;
    for (const auto& [gpu, rates] : t.rates) {
      std::vector<double> hot;
      for (const auto& [t_s, r] : rates) {
        if (t_s > ctx.warmup_end_s && r.send) hot.push_back(*r.send);
      }
      const auto h = median_of(std::move(hot));
      if (!h || rates.empty() || !rates.front().second.send || *rates.front().second.send <= 0) continue;
      const double share = *h / *rates.front().second.send;
      if (share < worst_share) worst_share = share, worst = gpu;
    }
    std::vector<int> gpus;
    std::string culprit;
    std::vector<std::pair<std::string, std::string>> evidence = {
        {"cold_busbw_gbps", format_number(*c, 1)},
        {"steady_busbw_gbps", format_number(*s, 1)},
        {"share", format_number(100 * *s / *c, 0) + " %"},
        {"floor", format_number(100 * ctx.thresholds.busbw_hot_min_share, 0) + " %"}};
    if (worst >= 0 && worst_share < ctx.thresholds.busbw_hot_min_share) {
      gpus.push_back(worst);
      const auto temp = ctx.series.count(worst) ? ctx.series.at(worst).temp_c.median() : std::nullopt;
      culprit = fmt::format("; GPU {} slowed most: its own send rate fell to {} % of its cold rate{}", worst,
                            format_number(100 * worst_share, 0),
                            temp ? fmt::format(" at {} °C", format_number(*temp, 0)) : std::string());
      evidence.emplace_back("slowest_gpu", std::to_string(worst));
      evidence.emplace_back("slowest_gpu_share", format_number(100 * worst_share, 0) + " %");
    }
    out.push_back(finding(code::busbw_fell_when_hot, core::Severity::fail, gpus,
                          fmt::format("The fabric slowed as the cards heated: {} busbw fell from {} GB/s in the first "
                                      "interval to {} GB/s at steady state, {} % (floor {} %){}",
                                      op, format_number(*c, 1), format_number(*s, 1), format_number(100 * *s / *c, 0),
                                      format_number(100 * ctx.thresholds.busbw_hot_min_share, 0), culprit),
                          std::move(evidence)));
  }
}

void sdc_rule(const Context& ctx, std::vector<core::Finding>& out) {
  const TrafficTally& t = *ctx.traffic;
  std::map<int, std::vector<std::string>> parts;
  std::map<int, std::vector<std::pair<std::string, std::string>>> evidence;
  for (const auto& [gpu, n] : t.digest_mismatches) {
    parts[gpu].push_back(fmt::format("its cross-check GEMM (the same inputs on every GPU) differed from its peers' result in "
                                     "{} of {} intervals, first at {}",
                                     n, t.digests_compared, at(ctx, t.first_mismatch_s.at(gpu))));
    evidence[gpu].emplace_back("gemm_mismatches", std::to_string(n));
    evidence[gpu].emplace_back("first_gemm_mismatch", at(ctx, t.first_mismatch_s.at(gpu)));
  }
  for (const auto& [gpu, wrong] : t.gpu_wrong) {
    parts[gpu].push_back(fmt::format("{} wrong elements in its collective results (#wrong), first at {}", wrong,
                                     at(ctx, t.gpu_first_wrong_s.at(gpu))));
    evidence[gpu].emplace_back("collective_wrong", std::to_string(wrong));
    evidence[gpu].emplace_back("first_collective_wrong", at(ctx, t.gpu_first_wrong_s.at(gpu)));
  }
  for (auto& [gpu, p] : parts) {
    std::string message = fmt::format("GPU {} returned silently wrong results under load: ", gpu);
    for (std::size_t i = 0; i < p.size(); ++i) message += (i ? "; " : "") + p[i];
    out.push_back(finding(code::silent_data_corruption, core::Severity::fail, {gpu}, std::move(message), std::move(evidence[gpu])));
  }
  // Wrong elements no rank could be named for: the collective's total.
  if (!parts.empty()) return;
  for (const auto& [op, wrong] : t.op_wrong) {
    out.push_back(finding(code::silent_data_corruption, core::Severity::fail, {},
                          fmt::format("{} returned {} wrong elements (#wrong) under load, first at {}; no rank could be "
                                      "named",
                                      op, wrong, at(ctx, t.op_first_wrong_s.at(op))),
                          {{"op", op}, {"collective_wrong", std::to_string(wrong)}, {"first_collective_wrong", at(ctx, t.op_first_wrong_s.at(op))}}));
  }
}

void traffic_coverage(const Context& ctx, std::vector<std::string>& unverified) {
  if (!ctx.run.traffic.on()) return;
  const TrafficTally& t = *ctx.traffic;
  if (t.windows.empty()) {
    unverified.push_back("the link traffic was asked for but no traffic interval was recorded");
    return;
  }
  if (ctx.run.traffic.loads_nvlink() && !t.any_busbw) {
    unverified.push_back("the collectives beside the load measured nothing: " +
                         (t.collectives_absent.empty() ? std::string("no busbw was recorded") : t.collectives_absent));
  }
  if (ctx.run.traffic.has(core::TrafficKind::copies) && !t.any_copy) {
    unverified.push_back("the host copies beside the load measured nothing");
  }
  if (t.digests_compared == 0) {
    unverified.push_back("silent data corruption: the cross-GPU GEMM check did not run" +
                         (t.digest_absent.empty() ? std::string() : " (" + t.digest_absent + ")"));
  }
}

}  // namespace gpuvet::analysis::burnin
