// The one health judge over every rule (see health_judge.hpp), and how findings name moments.
#include "analysis/health/health_judge.hpp"

#include <algorithm>
#include <cmath>
#include <ctime>

#include <fmt/format.h>

#include "analysis/finding_codes.hpp"
#include "analysis/health/health_rules.hpp"

namespace gpuvet::analysis::health {

std::string HealthWords::duration(double seconds) const {
  const auto total = static_cast<long long>(std::llround(std::max(0.0, seconds)));
  return fmt::format("{:02}:{:02}:{:02}", total / 3600, (total / 60) % 60, total % 60);
}

std::string HealthWords::at(double t_s) const {
  if (!wall_clock) return duration(t_s);
  const auto unix_ms = started_unix_ms + static_cast<std::int64_t>(std::llround(t_s * 1000));
  const auto seconds = static_cast<std::time_t>(unix_ms / 1000);
  std::tm tm{};
  ::gmtime_r(&seconds, &tm);
  return fmt::format("{:04}-{:02}-{:02} {:02}:{:02}:{:02} UTC", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min,
                     tm.tm_sec);
}

std::string HealthWords::span(double from_s, double to_s) const {
  return wall_clock ? at(from_s) + " to " + at(to_s) : at(from_s) + "-" + at(to_s);
}

bool answers(const core::TelemetrySample& s) {
  return s.gpu_temp_c.known() || s.power_w.known() || s.sm_clock_mhz.known() || s.util_gpu_pct.known();
}

HealthJudge::HealthJudge(HealthLimits limits, double interval_s)
    : limits_(limits), interval_s_(interval_s > 0 && std::isfinite(interval_s) ? interval_s : 1.0) {}
HealthJudge::~HealthJudge() = default;
HealthJudge::HealthJudge(HealthJudge&&) noexcept = default;
HealthJudge& HealthJudge::operator=(HealthJudge&&) noexcept = default;

std::vector<std::unique_ptr<RuleState>>& HealthJudge::states(int gpu) {
  auto [it, fresh] = gpus_.try_emplace(gpu);
  if (fresh) {
    for (const auto* rule : health_rules()) it->second.push_back(rule->start(limits_));
  }
  return it->second;
}

void HealthJudge::on_sample(const core::TelemetrySample& s) {
  const bool yes = answers(s);
  on_sample(s, yes, yes ? std::string_view() : std::string_view(s.power_w.reason()));
}

void HealthJudge::on_sample(const core::TelemetrySample& s, bool gives_reading, std::string_view silence) {
  auto& st = states(s.gpu);
  const SampleInput in{s, gives_reading, silence, interval_s_};
  const auto& rules = health_rules();
  for (std::size_t i = 0; i < rules.size(); ++i) rules[i]->on_sample(*st[i], in, limits_);
}

void HealthJudge::on_rollup(const RollupInput& r, double from_s, double to_s, bool prior) {
  auto& st = states(r.gpu);
  const RollupSpan in{r, from_s, to_s, interval_s_, prior};
  const auto& rules = health_rules();
  for (std::size_t i = 0; i < rules.size(); ++i) rules[i]->on_rollup(*st[i], in, limits_);
}

void HealthJudge::on_event(const core::TelemetryEvent& e) {
  auto& st = states(e.gpu);
  const auto& rules = health_rules();
  for (std::size_t i = 0; i < rules.size(); ++i) rules[i]->on_event(*st[i], e);
}

std::vector<HealthFinding> HealthJudge::judge(const HealthView& view) const {
  const auto& rules = health_rules();
  std::vector<HealthFinding> out;
  for (std::size_t i = 0; i < rules.size(); ++i) {
    for (const auto& [gpu, st] : gpus_) rules[i]->judge(*st[i], gpu, view, out);
  }
  if (view.live) {
    std::vector<int> lost;
    for (const auto& f : out) {
      if (f.finding.code == code::gpu_lost) lost.insert(lost.end(), f.finding.gpus.begin(), f.finding.gpus.end());
    }
    std::erase_if(out, [&](const HealthFinding& f) {
      return f.finding.code != code::gpu_lost && f.finding.code != code::xid_event && f.finding.gpus.size() == 1 &&
             std::find(lost.begin(), lost.end(), f.finding.gpus.front()) != lost.end();
    });
  }
  return out;
}

std::vector<core::Finding> HealthJudge::findings(const HealthView& view) const {
  std::vector<core::Finding> out;
  for (auto& f : judge(view)) out.push_back(std::move(f.finding));
  return out;
}

std::size_t HealthJudge::retained_objects() const {
  const auto& rules = health_rules();
  std::size_t n = 0;
  for (const auto& [gpu, st] : gpus_) {
    for (std::size_t i = 0; i < rules.size(); ++i) n += rules[i]->retained(*st[i]);
  }
  return n;
}

}  // namespace gpuvet::analysis::health
