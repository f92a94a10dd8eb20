// Round axis ticks for the report's charts: values in 1-2-5 steps (0, 200, 400, ...), time in
// steps a reader counts in (30 s, 5 min, 15 min, 1 h, ...). Pure.
#pragma once

#include <string>
#include <vector>

namespace gpuvet::report {

struct Axis {
  double lo = 0;               // the axis starts here (a tick)
  double hi = 1;               // and ends here (a tick), hi > lo
  std::vector<double> ticks;   // lo, lo + step, ..., hi
  double step = 1;
};

// Ticks covering [lo, hi] at a 1, 2 or 5 x 10^k step, at most `max_ticks` of them (>= 2).
Axis value_axis(double lo, double hi, int max_ticks = 6);

// Ticks covering [lo_s, hi_s] seconds at 1/2/5/10/15/30 s, 1/2/5/10/15/30 min or 1/2/3/4/6/12/24 h
// (then whole days), at most `max_ticks`.
Axis time_axis(double lo_s, double hi_s, int max_ticks = 7);

// "0", "250", "1.5k" style is not used: the tick as a short decimal ("0", "0.5", "1200").
std::string value_label(double v, double step);
// "0", "30 s", "15 min", "1 h", "1.5 h" (in the unit of the axis step).
std::string time_label(double seconds, double step_s);

}  // namespace gpuvet::report
