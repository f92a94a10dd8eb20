// A condition that holds for a while (a throttle reason set, a PCIe link below its maximum, a row
// remap pending, a GPU that gives no reading): its current run, its longest run and its total
// time, from readings (samples: held from the first reading it held at to the last) or from a
// span's held time (rollups: held for that much of the span, not known to be in one run). The
// daemon asks the current run, a report the longest; both read this state. Memory: fixed.
#pragma once

namespace gpuvet::analysis::health {

struct HeldRun {
  double from_s = -1;  // the first reading it held at (-1: not holding)
  double to_s = -1;    // the last
  [[nodiscard]] double length_s() const { return from_s < 0 ? 0 : to_s - from_s; }
};

class HeldCondition {
 public:
  // A reading at t_s that says whether the condition holds; `interval_s` is the time one reading
  // stands for (its share of total_s). An unknown reading is not fed: it neither starts nor ends a run.
  void observe(double t_s, bool holds, double interval_s);
  // Held for `held_s` of [from_s, to_s] (a rollup): counted in total_s, and as a run of that length
  // ending at to_s when it reaches the condition's limit (the rollup cannot say it was one run).
  void add_held(double from_s, double to_s, double held_s);

  [[nodiscard]] bool on() const { return current_.from_s >= 0; }
  [[nodiscard]] const HeldRun& current() const { return current_; }
  [[nodiscard]] const HeldRun& longest() const { return longest_; }
  [[nodiscard]] double total_s() const { return total_s_; }
  [[nodiscard]] double first_s() const { return first_s_; }
  // The first run that lasted at least min_s: when it began (-1: none did).
  [[nodiscard]] double first_long_run_s() const { return first_long_s_; }
  // Call with the rule's limit before feeding, so first_long_run_s knows what long means.
  void set_min_run(double min_s) { min_run_s_ = min_s; }

 private:
  void close_run();
  HeldRun current_, longest_;
  double total_s_ = 0, first_s_ = -1, first_long_s_ = -1, min_run_s_ = 0;
};

}  // namespace gpuvet::analysis::health
