// Progress lines for a running burn-in.
#include "probes/burnin_progress.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace gpuvet::probes {

namespace {

std::string field(const core::Reading<double>& r, const char* format) {
  return r.known() ? fmt::format(fmt::runtime(format), *r) : std::string("n/a");
}

std::string reasons_label(const core::Reading<std::uint64_t>& r) {
  if (!r.known()) return "n/a";
  std::string out;
  for (std::uint64_t bit = 1; bit <= 0x100; bit <<= 1) {
    if ((*r & bit) == 0 || bit == core::clocks_event::gpu_idle) continue;
    out += (out.empty() ? "" : ",") + core::clocks_event_name(bit);
  }
  return out.empty() ? "-" : out;
}

std::string gpu_line(const core::TelemetrySample& s, bool stopped) {
  return fmt::format("  GPU{:<2} {:>9} TFLOP/s {:>6} °C {:>9} MHz {:>8} W  {}{}", s.gpu, field(s.tflops, "{:.1f}"),
                     field(s.gpu_temp_c, "{:.0f}"), field(s.sm_clock_mhz, "{:.0f}"), field(s.power_w, "{:.0f}"),
                     reasons_label(s.clocks_event_reasons), stopped ? "  [load stopped]" : "");
}

}  // namespace

std::string format_hms(double seconds) {
  const auto total = static_cast<long long>(std::llround(std::max(0.0, seconds)));
  return fmt::format("{:02}:{:02}:{:02}", total / 3600, (total / 60) % 60, total % 60);
}

void BurninProgress::draw(const BurninTick& tick) {
  std::string text;
  if (options_.terminal && drawn_lines_ > 0) text += fmt::format("\x1b[{}F", drawn_lines_);  // back to the header
  text += fmt::format("burn-in {} / {} (remaining {}){}\n", format_hms(tick.t_s), format_hms(tick.duration_s),
                      format_hms(tick.duration_s - tick.t_s), options_.terminal ? "\x1b[K" : "");
  int lines = 1;
  for (const auto& s : *tick.latest) {
    const bool stopped = std::find(tick.stopped->begin(), tick.stopped->end(), s.gpu) != tick.stopped->end();
    text += gpu_line(s, stopped) + (options_.terminal ? "\x1b[K\n" : "\n");
    ++lines;
  }
  drawn_lines_ = options_.terminal ? lines : 0;
  last_drawn_s_ = tick.t_s;
  out_ << text << std::flush;
}

void BurninProgress::on_tick(const BurninTick& tick) {
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
  if (options_.terminal && drawn_lines_ > 0) {
    out_ << fmt::format("\x1b[{}F\x1b[J", drawn_lines_);
    drawn_lines_ = 0;
  }
  out_ << fmt::format("[{}] GPU{} {}{}: {}\n", format_hms(event.t_s), event.gpu, core::to_string(event.kind),
                      event.kind == core::TelemetryEventKind::xid ? fmt::format(" {}", event.code) : std::string(),
                      event.message)
       << std::flush;
}

void BurninProgress::on_finish(const BurninTick& tick) {
  if (!tick.latest->empty() && tick.t_s != last_drawn_s_) draw(tick);
}

}  // namespace gpuvet::probes
