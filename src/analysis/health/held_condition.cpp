// Runs of a condition that holds (see held_condition.hpp).
#include "analysis/health/held_condition.hpp"

#include <algorithm>

namespace gpuvet::analysis::health {

void HeldCondition::close_run() {
  if (current_.length_s() > longest_.length_s() || longest_.from_s < 0) longest_ = current_;
  current_ = HeldRun{};
}

void HeldCondition::observe(double t_s, bool holds, double interval_s) {
  if (!holds) {
    if (on()) close_run();
    return;
  }
  if (!on()) current_.from_s = t_s;
  current_.to_s = t_s;
  total_s_ += interval_s;
  if (first_s_ < 0) first_s_ = t_s;
  if (first_long_s_ < 0 && current_.length_s() >= min_run_s_) first_long_s_ = current_.from_s;
  if (current_.length_s() > longest_.length_s() || longest_.from_s < 0) longest_ = current_;
}

void HeldCondition::add_held(double from_s, double to_s, double held_s) {
  if (held_s <= 0) return;
  if (on()) close_run();
  total_s_ += held_s;
  if (first_s_ < 0) first_s_ = from_s;
  const HeldRun run{std::max(from_s, to_s - held_s), to_s};
  if (run.length_s() > longest_.length_s() || longest_.from_s < 0) longest_ = run;
  if (first_long_s_ < 0 && run.length_s() >= min_run_s_) first_long_s_ = run.from_s;
}

}  // namespace gpuvet::analysis::health
