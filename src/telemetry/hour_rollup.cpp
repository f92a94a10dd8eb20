// Hourly rollups: running min/mean/max and counter growth of one GPU's samples.
#include "telemetry/hour_rollup.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "telemetry/sqlite_db.hpp"

namespace gpuvet::telemetry {

namespace {

constexpr std::uint64_t kThrottleBits = core::clocks_event::throttling;

// The sum over links of one NVLink counter; absent when no link reported it.
std::optional<std::uint64_t> link_sum(const core::TelemetrySample& s, core::Reading<std::uint64_t> core::NvLinkErrorSample::*a,
                                      core::Reading<std::uint64_t> core::NvLinkErrorSample::*b = nullptr) {
  if (!s.nvlink.known()) return std::nullopt;
  std::optional<std::uint64_t> sum;
  for (const auto& link : *s.nvlink) {
    for (auto member : {a, b}) {
      if (member && (link.*member).known()) sum = sum.value_or(0) + *(link.*member);
    }
  }
  return sum;
}

std::vector<std::string> column_names() {
  std::vector<std::string> out;
  std::string_view rest = kHourRollupColumns;
  while (!rest.empty()) {
    const auto comma = rest.find(',');
    out.emplace_back(rest.substr(0, comma));
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 2);
  }
  return out;
}

}  // namespace

std::string hour_rollup_upsert_sql() {
  std::string set;
  for (const auto& c : column_names()) {
    std::string expr;
    const auto ends = [&](std::string_view tail) {
      return c.size() >= tail.size() && c.compare(c.size() - tail.size(), tail.size(), tail) == 0;
    };
    const std::string old = c, add = "excluded." + c;
    if (c == "gpu" || c == "hour") continue;
    if (c == "samples" || c == "throttled") {
      expr = fmt::format("{} + {}", old, add);
    } else if (c == "t_s" || ends("_mean")) {
      expr = fmt::format("CASE WHEN {0} IS NULL THEN {1} WHEN {1} IS NULL THEN {0} ELSE ({0} * samples + {1} * "
                         "excluded.samples) / (samples + excluded.samples) END",
                         old, add);
    } else if (ends("_min") || ends("_max")) {
      expr = fmt::format("{0}(coalesce({2}, {1}), coalesce({1}, {2}))", ends("_min") ? "min" : "max", old, add);
    } else {  // counter growth
      expr = fmt::format("CASE WHEN {0} IS NULL THEN {1} WHEN {1} IS NULL THEN {0} ELSE {0} + {1} END", old, add);
    }
    set += fmt::format("{}{} = {}", set.empty() ? "" : ", ", c, expr);
  }
  std::string values = "?";
  for (int i = 1; i < kHourRollupColumnCount; ++i) values += ",?";
  return fmt::format("INSERT INTO hourly_rollups ({}) VALUES ({}) ON CONFLICT (gpu, hour) DO UPDATE SET {}",
                     kHourRollupColumns, values, set);
}

void bind_hour_rollup(Statement& st, const HourRollup& r) {
  int col = 1;
  st.bind(col++, static_cast<std::int64_t>(r.gpu));
  st.bind(col++, r.hour);
  st.bind(col++, static_cast<std::int64_t>(r.samples));
  st.bind(col++, r.t_s);
  for (const RollupStat* stat : {&r.util_gpu_pct, &r.gpu_temp_c, &r.power_w, &r.sm_clock_mhz}) {
    for (const auto* v : {&stat->min, &stat->mean, &stat->max}) st.bind_optional(col++, *v);
  }
  st.bind(col++, static_cast<std::int64_t>(r.throttled));
  for (const auto* c : {&r.nvlink_crc_new, &r.nvlink_replay_new, &r.nvlink_recovery_new, &r.ecc_corrected_new,
                        &r.ecc_uncorrected_new, &r.pcie_replays_new}) {
    if (*c) {
      st.bind(col++, static_cast<std::int64_t>(**c));
    } else {
      st.bind_null(col++);
    }
  }
}

HourRollup read_hour_rollup(const Statement& st) {
  HourRollup r;
  int col = 0;
  r.gpu = static_cast<int>(st.get_int(col++));
  r.hour = st.get_int(col++);
  r.samples = static_cast<std::size_t>(st.get_int(col++));
  r.t_s = st.get_double(col++);
  for (RollupStat* stat : {&r.util_gpu_pct, &r.gpu_temp_c, &r.power_w, &r.sm_clock_mhz}) {
    for (auto* v : {&stat->min, &stat->mean, &stat->max}) *v = st.opt_double(col++);
  }
  r.throttled = static_cast<std::size_t>(st.get_int(col++));
  for (auto* c : {&r.nvlink_crc_new, &r.nvlink_replay_new, &r.nvlink_recovery_new, &r.ecc_corrected_new,
                  &r.ecc_uncorrected_new, &r.pcie_replays_new}) {
    const auto v = st.opt_int(col++);
    if (v) *c = static_cast<std::uint64_t>(*v);
  }
  return r;
}

void HourAccumulator::Stat::add(double v) {
  if (!std::isfinite(v)) return;
  min = n == 0 ? v : std::min(min, v);
  max = n == 0 ? v : std::max(max, v);
  sum += v;
  ++n;
}

RollupStat HourAccumulator::Stat::result() const {
  if (n == 0) return {};
  return {min, sum / static_cast<double>(n), max};
}

void HourAccumulator::Counter::add(std::uint64_t value) {
  if (last) {
    if (value > *last) grown += value - *last;
    measured = true;
  }
  last = value;
}

void HourAccumulator::reset_hour(std::int64_t hour) {
  hour_ = hour;
  samples_ = throttled_ = 0;
  t_sum_ = 0;
  stats_ = {};
  for (auto& c : counters_) {
    c.grown = 0;
    c.measured = false;
  }
}

std::optional<HourRollup> HourAccumulator::add(const core::TelemetrySample& s) {
  std::optional<HourRollup> finished;
  const auto hour = static_cast<std::int64_t>(std::floor(s.t_s / 3600));
  if (hour != hour_) {
    finished = take();
    reset_hour(hour);
  }
  gpu_ = s.gpu;
  ++samples_;
  t_sum_ += s.t_s;
  const core::Reading<double>* values[] = {&s.util_gpu_pct, &s.gpu_temp_c, &s.power_w, &s.sm_clock_mhz};
  for (std::size_t i = 0; i < 4; ++i) {
    if (values[i]->known()) stats_[i].add(**values[i]);
  }
  if (s.clocks_event_reasons.known() && (*s.clocks_event_reasons & kThrottleBits) != 0) ++throttled_;
  using L = core::NvLinkErrorSample;
  const std::optional<std::uint64_t> counters[] = {
      link_sum(s, &L::crc_flit, &L::crc_data),
      link_sum(s, &L::replay),
      link_sum(s, &L::recovery),
      s.ecc_corrected.known() ? std::optional<std::uint64_t>(*s.ecc_corrected) : std::nullopt,
      s.ecc_uncorrected.known() ? std::optional<std::uint64_t>(*s.ecc_uncorrected) : std::nullopt,
      s.pcie_replays.known() ? std::optional<std::uint64_t>(*s.pcie_replays) : std::nullopt,
  };
  for (std::size_t i = 0; i < kCounters; ++i) {
    if (counters[i]) counters_[i].add(*counters[i]);
  }
  return finished;
}

std::optional<HourRollup> HourAccumulator::take() {
  if (samples_ == 0) return std::nullopt;
  HourRollup r;
  r.gpu = gpu_;
  r.hour = hour_;
  r.samples = samples_;
  r.t_s = t_sum_ / static_cast<double>(samples_);
  r.util_gpu_pct = stats_[0].result();
  r.gpu_temp_c = stats_[1].result();
  r.power_w = stats_[2].result();
  r.sm_clock_mhz = stats_[3].result();
  r.throttled = throttled_;
  std::optional<std::uint64_t>* out[] = {&r.nvlink_crc_new,    &r.nvlink_replay_new,   &r.nvlink_recovery_new,
                                         &r.ecc_corrected_new, &r.ecc_uncorrected_new, &r.pcie_replays_new};
  for (std::size_t i = 0; i < kCounters; ++i) {
    if (counters_[i].measured) *out[i] = counters_[i].grown;
  }
  samples_ = 0;
  return r;
}

}  // namespace gpuvet::telemetry
