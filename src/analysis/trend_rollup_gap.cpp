// RawHourTally: raw samples per GPU-hour, subtracted from that hour's rollup.
#include "analysis/trend_rollup_gap.hpp"

#include <cmath>

namespace gpuvet::analysis {

namespace {

using L = core::NvLinkErrorSample;

std::optional<std::uint64_t> link_sum(const core::TelemetrySample& s, std::initializer_list<core::Reading<std::uint64_t> L::*> members) {
  if (!s.nvlink.known()) return std::nullopt;
  std::optional<std::uint64_t> total;
  for (const auto& link : *s.nvlink) {
    for (auto m : members) {
      if ((link.*m).known()) total = total.value_or(0) + *(link.*m);
    }
  }
  return total;
}

std::optional<std::uint64_t> known(const core::Reading<std::uint64_t>& r) {
  return r.known() ? std::optional<std::uint64_t>(*r) : std::nullopt;
}

// The rollup's growth less the raw samples' (never below zero), absent when the rollup has none.
std::optional<std::uint64_t> less(const std::optional<std::uint64_t>& rollup, std::uint64_t raw) {
  if (!rollup) return std::nullopt;
  return *rollup > raw ? *rollup - raw : 0;
}

}  // namespace

void RawHourTally::add(const core::TelemetrySample& s) {
  const auto hour = static_cast<std::int64_t>(std::floor(s.t_s / 3600));
  auto [it, fresh] = hours_.try_emplace({s.gpu, hour});
  Hour& h = it->second;
  if (fresh) h.first_unix_ms = s.unix_ms;
  ++h.samples;
  if (s.clocks_event_reasons.known() && (*s.clocks_event_reasons & core::clocks_event::throttling) != 0) ++h.throttled;
  const core::Reading<double>* fields[] = {&s.power_w, &s.gpu_temp_c, &s.sm_clock_mhz, &s.util_gpu_pct};
  for (std::size_t f = 0; f < 4; ++f) {
    if (!fields[f]->known() || !std::isfinite(**fields[f])) continue;
    h.sum[f] += **fields[f];
    ++h.known[f];
  }
  // Rises between consecutive known readings, as the store's hour accumulator counts them.
  const std::optional<std::uint64_t> now[kCounters] = {link_sum(s, {&L::crc_flit, &L::crc_data}), link_sum(s, {&L::replay}),
                                                       link_sum(s, {&L::recovery}),  known(s.ecc_corrected),
                                                       known(s.ecc_uncorrected),     known(s.pcie_replays)};
  auto& last = last_[s.gpu];
  for (std::size_t c = 0; c < kCounters; ++c) {
    if (!now[c]) continue;
    if (last[c] && *now[c] > *last[c]) h.grown[c] += *now[c] - *last[c];
    last[c] = now[c];
  }
}

bool RawHourTally::covers(int gpu, std::int64_t hour) const { return hours_.count({gpu, hour}) != 0; }

std::optional<RollupInput> RawHourTally::remainder(const RollupInput& r, std::int64_t hour) const {
  auto it = hours_.find({r.gpu, hour});
  if (it == hours_.end()) return r;
  const Hour& raw = it->second;
  if (r.samples <= raw.samples) return std::nullopt;
  RollupInput out = r;
  out.samples = r.samples - raw.samples;
  out.span_s = std::max(0.0, static_cast<double>(raw.first_unix_ms - r.unix_ms) / 1000);
  out.loaded = 0;
  out.max_temp_c.reset();  // the hour's maximum may be in the raw part
  std::optional<double>* fields[] = {&out.power_w, &out.temp_c, &out.sm_clock_mhz, &out.util_pct};
  for (std::size_t f = 0; f < 4; ++f) {
    if (!*fields[f]) continue;
    const double left = static_cast<double>(r.samples) - static_cast<double>(raw.known[f]);
    const double mean = left > 0 ? (**fields[f] * static_cast<double>(r.samples) - raw.sum[f]) / left : NAN;
    if (std::isfinite(mean)) {
      *fields[f] = mean;
    } else {
      fields[f]->reset();
    }
  }
  out.throttled = r.throttled > raw.throttled ? r.throttled - raw.throttled : 0;
  out.nvlink_crc = less(r.nvlink_crc, raw.grown[0]);
  out.nvlink_replay = less(r.nvlink_replay, raw.grown[1]);
  out.nvlink_recovery = less(r.nvlink_recovery, raw.grown[2]);
  out.ecc_corrected = less(r.ecc_corrected, raw.grown[3]);
  out.ecc_uncorrected = less(r.ecc_uncorrected, raw.grown[4]);
  out.pcie_replays = less(r.pcie_replays, raw.grown[5]);
  if (out.nvlink_crc || out.nvlink_replay || out.nvlink_recovery) {
    out.nvlink_errors = out.nvlink_crc.value_or(0) + out.nvlink_replay.value_or(0) + out.nvlink_recovery.value_or(0);
  } else {
    out.nvlink_errors.reset();
  }
  return out;
}

}  // namespace gpuvet::analysis
