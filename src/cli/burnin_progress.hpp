// Live progress of a burn-in, as the runner's observer: on a terminal the table is redrawn in
// place; when not a terminal, plain lines at a fixed run-time period. Output is paced on wall
// time, so a simulated run in virtual time does not flood the terminal. Writes to the stream it
// is given (the CLI passes stderr, so --json on stdout stays clean); the text is
// report/burnin_progress_text's.
#pragma once

#include <chrono>
#include <ostream>

#include "probes/burnin_runner.hpp"

namespace gpuvet::cli {

struct ProgressOptions {
  bool terminal = false;
  double plain_every_s = 60;  // run time between plain lines (not a terminal)
  std::chrono::milliseconds redraw_every{250};  // wall time between redraws (terminal)
};

class BurninProgress final : public probes::BurninObserver {
 public:
  BurninProgress(std::ostream& out, ProgressOptions options) : out_(out), options_(options) {}
  void on_tick(const probes::BurninTick& tick) override;
  void on_event(const core::TelemetryEvent& event) override;
  void on_finish(const probes::BurninTick& tick) override;

 private:
  void draw(const probes::BurninTick& tick);
  std::ostream& out_;
  ProgressOptions options_;
  int drawn_lines_ = 0;
  double next_plain_s_ = 0;
  double last_drawn_s_ = -1;
  std::chrono::steady_clock::time_point last_redraw_{};
};

}  // namespace gpuvet::cli
