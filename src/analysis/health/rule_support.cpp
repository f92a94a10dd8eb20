// Shared pieces of the health rules (see rule_support.hpp).
#include "analysis/health/rule_support.hpp"

#include <fmt/format.h>

#include "analysis/rule_support.hpp"

namespace gpuvet::analysis::health {

HealthFinding health_finding(std::string_view code, core::Severity severity, int gpu, std::string message, Evidence evidence,
                             double since_s, const HealthView& view) {
  if (!view.words.basis.empty()) message += " (" + view.words.basis + ")";
  core::Finding f = make_finding(code, severity, {gpu}, std::move(message));
  f.evidence = std::move(evidence);
  return {std::move(f), since_s};
}

std::string number(double value, int decimals) { return fmt::format("{:.{}f}", value, decimals); }

std::string rate_text(double per_s) {
  const double per_minute = per_s * 60;
  return per_minute >= 0.1 ? fmt::format("{:.1f}/min", per_minute) : fmt::format("{:.1f}/h", per_minute * 60);
}

bool counts(const CounterGrowth& c, const HealthView& view) {
  if (view.live) return c.active(view.now_s, view.limits);
  return c.grew();
}

std::uint64_t growth_of(const CounterGrowth& c, const HealthView& view) { return view.live ? c.latest().growth : c.total(); }

double mean_rate_per_s(const CounterGrowth& c, const HealthView& view) {
  return view.live ? c.rate_per_s(view.now_s, view.limits) : c.mean_per_s(view.limits);
}

double worst_rate_per_s(const CounterGrowth& c, const HealthView& view) {
  return view.live ? c.rate_per_s(view.now_s, view.limits) : c.peak_per_s();
}

double since_of(const CounterGrowth& c, const HealthView& view) { return view.live ? c.latest().first_rise_s : c.first_rise_s(); }

std::string growth_words(const CounterGrowth& c, const HealthView& view) {
  if (view.live) return fmt::format("+{} ({})", c.latest().growth, rate_text(c.rate_per_s(view.now_s, view.limits)));
  if (c.first_rise_s() == c.last_rise_s()) return fmt::format("+{} at {}", c.total(), view.words.at(c.first_rise_s()));
  const double mean = c.mean_per_s(view.limits);
  // The worst rate is said when it reads otherwise than the mean (a burst in a long, slow episode).
  const bool differs = rate_text(c.peak_per_s()) != rate_text(mean);
  const std::string peak = differs ? fmt::format(", at most {}", rate_text(c.peak_per_s())) : std::string();
  return fmt::format("+{} ({} from {} to {}{})", c.total(), rate_text(mean), view.words.at(c.first_from_s()),
                     view.words.at(c.last_rise_s()), peak);
}

bool held_long(const HeldCondition& h, double min_s, const HealthView& view) {
  if (view.live) return h.on() && h.current().length_s() >= min_s;
  return h.first_s() >= 0 && h.longest().length_s() >= min_s;
}

double held_since(const HeldCondition& h, const HealthView& view) {
  if (view.live) return h.current().from_s;
  return h.first_long_run_s() >= 0 ? h.first_long_run_s() : h.longest().from_s;
}

}  // namespace gpuvet::analysis::health
