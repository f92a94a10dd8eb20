// value_axis / time_axis: the smallest round step that keeps the tick count under the limit.
#include "report/chart_axis.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace gpuvet::report {

namespace {

Axis covering(double lo, double hi, double step) {
  Axis a;
  a.step = step;
  a.lo = std::floor(lo / step + 1e-9) * step;
  a.hi = std::ceil(hi / step - 1e-9) * step;
  if (a.hi <= a.lo) a.hi = a.lo + step;
  for (double t = a.lo; t <= a.hi + step * 1e-6; t += step) a.ticks.push_back(std::abs(t) < step * 1e-9 ? 0.0 : t);
  return a;
}

}  // namespace

Axis value_axis(double lo, double hi, int max_ticks) {
  max_ticks = std::max(max_ticks, 2);
  if (!(hi > lo)) hi = lo + 1;
  const double rough = (hi - lo) / (max_ticks - 1);
  double magnitude = std::pow(10.0, std::floor(std::log10(rough)));
  for (;; magnitude *= 10) {
    for (double m : {1.0, 2.0, 5.0}) {
      const Axis a = covering(lo, hi, m * magnitude);
      if (static_cast<int>(a.ticks.size()) <= max_ticks) return a;
    }
  }
}

Axis time_axis(double lo_s, double hi_s, int max_ticks) {
  max_ticks = std::max(max_ticks, 2);
  if (!(hi_s > lo_s)) hi_s = lo_s + 1;
  static constexpr double kSteps[] = {1,    2,    5,    10,   15,    30,    60,    120,   300,   600,   900,
                                      1800, 3600, 7200, 10800, 14400, 21600, 43200, 86400};
  for (double step : kSteps) {
    const Axis a = covering(lo_s, hi_s, step);
    if (static_cast<int>(a.ticks.size()) <= max_ticks) return a;
  }
  for (double days = 2;; days *= 2) {
    const Axis a = covering(lo_s, hi_s, days * 86400);
    if (static_cast<int>(a.ticks.size()) <= max_ticks) return a;
  }
}

std::string value_label(double v, double step) {
  const int decimals = step >= 1 ? 0 : static_cast<int>(std::ceil(-std::log10(step) - 1e-9));
  return fmt::format("{:.{}f}", v, decimals);
}

std::string time_label(double seconds, double step_s) {
  if (seconds == 0) return "0";
  auto in = [&](double unit, const char* name) {
    const double v = seconds / unit;
    return std::abs(v - std::round(v)) < 1e-9 ? fmt::format("{:.0f} {}", v, name) : fmt::format("{:.1f} {}", v, name);
  };
  if (step_s >= 3600) return in(3600, "h");
  if (step_s >= 60) return in(60, "min");
  return in(1, "s");
}

}  // namespace gpuvet::report
