// When the burn-in's progress is drawn, and where: the pacing and the terminal's cursor state.
#include "cli/burnin_progress.hpp"

#include "report/burnin_progress_text.hpp"

namespace gpuvet::cli {

void BurninProgress::draw(const probes::BurninTick& tick) {
  const auto drawn = report::render_burnin_progress({tick.t_s, tick.duration_s, *tick.latest, *tick.stopped},
                                                    options_.terminal, drawn_lines_);
  drawn_lines_ = options_.terminal ? drawn.lines : 0;
  last_drawn_s_ = tick.t_s;
  out_ << drawn.text << std::flush;
}

void BurninProgress::on_tick(const probes::BurninTick& tick) {
  if (options_.terminal) {
    const auto now = std::chrono::steady_clock::now();
    if (drawn_lines_ > 0 && now - last_redraw_ < options_.redraw_every) return;
    last_redraw_ = now;
    draw(tick);
    return;
  }
  if (tick.t_s + 1e-9 < next_plain_s_) return;
  next_plain_s_ = tick.t_s + options_.plain_every_s;
  draw(tick);
}

void BurninProgress::on_event(const core::TelemetryEvent& event) {
  out_ << report::render_burnin_event(event, options_.terminal ? drawn_lines_ : 0) << std::flush;
  if (options_.terminal) drawn_lines_ = 0;
}

void BurninProgress::on_finish(const probes::BurninTick& tick) {
  if (!tick.latest->empty() && tick.t_s != last_drawn_s_) draw(tick);
}

}  // namespace gpuvet::cli
