// The burn-in's live table as text: an elapsed/remaining header and one line per GPU (TFLOP/s,
// temperature, SM clock, power, active throttle reasons), and a line per event. Pure: the
// observer that paces and redraws it on a terminal is cli/burnin_progress.
#pragma once

#include <string>
#include <vector>

#include "core/telemetry.hpp"

namespace gpuvet::report {

// One frame of the table: the run time and each chosen GPU's latest sample.
struct BurninProgressFrame {
  double t_s = 0;
  double duration_s = 0;
  const std::vector<core::TelemetrySample>& latest;  // last sample per chosen GPU
  const std::vector<int>& stopped;                    // GPUs whose load was stopped
};

struct BurninProgressText {
  std::string text;
  int lines = 0;  // lines it draws (header + one per GPU)
};

// The frame, each line ending in "\n". On a terminal, each line also clears what an earlier
// frame left on it, and `redraw_over` > 0 first moves the cursor back up over that many lines.
BurninProgressText render_burnin_progress(const BurninProgressFrame& frame, bool terminal, int redraw_over = 0);

// "[00:30:00] GPU2 xid 48: <message>\n"; `erase_over` > 0 first erases that many lines above (a
// table drawn on a terminal), so the event line stays where the table was.
std::string render_burnin_event(const core::TelemetryEvent& event, int erase_over = 0);

// "01:02:03" for a run time in seconds.
std::string format_hms(double seconds);

}  // namespace gpuvet::report
