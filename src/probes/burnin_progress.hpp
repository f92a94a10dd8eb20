// Live progress of a burn-in: on a terminal, one line per GPU redrawn in place (TFLOP/s,
// temperature, SM clock, power, active throttle reasons) under an elapsed/remaining header; when
// not a terminal, plain lines at a fixed run-time period. Output is paced on wall time, so a
// simulated run in virtual time does not flood the terminal. Writes to the stream it is given
// (the CLI passes stderr, so --json on stdout stays clean).
#pragma once

#include <chrono>
#include <ostream>

#include "probes/burnin_runner.hpp"

namespace gpuvet::probes {

struct ProgressOptions {
  bool terminal = false;
  double plain_every_s = 60;  // run time between plain lines (not a terminal)
  std::chrono::milliseconds redraw_every{250};  // wall time between redraws (terminal)
};

class BurninProgress final : public BurninObserver {
 public:
  BurninProgress(std::ostream& out, ProgressOptions options) : out_(out), options_(options) {}
  void on_tick(const BurninTick& tick) override;
  void on_event(const core::TelemetryEvent& event) override;
  void on_finish(const BurninTick& tick) override;

 private:
  void draw(const BurninTick& tick);
  std::ostream& out_;
  ProgressOptions options_;
  int drawn_lines_ = 0;
  double next_plain_s_ = 0;
  double last_drawn_s_ = -1;
  std::chrono::steady_clock::time_point last_redraw_{};
};

// "01:02:03" for a run time in seconds.
std::string format_hms(double seconds);

}  // namespace gpuvet::probes
