// The burn-in's progress lines; "n/a" for a reading the sampler could not take, never 0.
#include "report/burnin_progress_text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace gpuvet::report {

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

BurninProgressText render_burnin_progress(const BurninProgressFrame& frame, bool terminal, int redraw_over) {
  BurninProgressText out;
  if (terminal && redraw_over > 0) out.text += fmt::format("\x1b[{}F", redraw_over);  // back to the header
  out.text += fmt::format("burn-in {} / {} (remaining {}){}\n", format_hms(frame.t_s), format_hms(frame.duration_s),
                          format_hms(frame.duration_s - frame.t_s), terminal ? "\x1b[K" : "");
  out.lines = 1;
  for (const auto& s : frame.latest) {
    const bool stopped = std::find(frame.stopped.begin(), frame.stopped.end(), s.gpu) != frame.stopped.end();
    out.text += gpu_line(s, stopped) + (terminal ? "\x1b[K\n" : "\n");
    ++out.lines;
  }
  return out;
}

std::string render_burnin_event(const core::TelemetryEvent& event, int erase_over) {
  std::string out = erase_over > 0 ? fmt::format("\x1b[{}F\x1b[J", erase_over) : std::string();
  out += fmt::format("[{}] GPU{} {}{}: {}\n", format_hms(event.t_s), event.gpu, core::to_string(event.kind),
                     event.kind == core::TelemetryEventKind::xid ? fmt::format(" {}", event.code) : std::string(),
                     event.message);
  return out;
}

}  // namespace gpuvet::report
