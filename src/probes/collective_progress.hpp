// Live progress of a collective sweep on a terminal: one status line redrawn in place with the
// op, the GPUs, the size and the busbw just measured, and how many sizes so far. Paced on wall
// time (a simulated sweep finishes in milliseconds); callers draw it only on a terminal. Called on
// the probe's thread through CollectiveProbeOptions::on_row.
#pragma once

#include <chrono>
#include <ostream>
#include <vector>

#include "backends/api/collective_backend.hpp"
#include "core/collective.hpp"

namespace gpuvet::probes {

class CollectiveProgress {
 public:
  explicit CollectiveProgress(std::ostream& out, std::chrono::milliseconds redraw_every = std::chrono::milliseconds(100))
      : out_(out), redraw_every_(redraw_every) {}
  void on_row(api::CollectiveOp op, const std::vector<int>& gpus, const core::CollectiveRow& row);
  // Erases the status line (if one is drawn); returns whether anything was drawn since the last call.
  bool finish();

 private:
  std::ostream& out_;
  std::chrono::milliseconds redraw_every_;
  std::chrono::steady_clock::time_point last_{};
  int rows_ = 0;
  bool drawn_ = false;
};

}  // namespace gpuvet::probes
