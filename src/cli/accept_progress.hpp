// Live progress inside accept's long stages, on a terminal only (quiet when stderr is not one):
// the burn-in table (per-GPU TFLOP/s, °C, MHz, W, throttle reasons) redrawn in place, and the
// collective sweep's status line. Each starts on a fresh line below the stage's "[i/n] id ..."
// line; take_drawn() tells the stage's closing line to name the stage again. One accept run,
// the command's thread (the stages call it on theirs, which is the same).
#pragma once

#include <functional>
#include <memory>
#include <ostream>
#include <vector>

#include "core/collective.hpp"
#include "cli/burnin_progress.hpp"
#include "probes/collective_progress.hpp"

namespace gpuvet::cli {

class AcceptLiveProgress {
 public:
  AcceptLiveProgress(std::ostream& err, bool terminal);
  AcceptLiveProgress(const AcceptLiveProgress&) = delete;
  AcceptLiveProgress& operator=(const AcceptLiveProgress&) = delete;
  ~AcceptLiveProgress();

  // Null / empty when stderr is not a terminal.
  probes::BurninObserver* burnin();
  std::function<void(api::CollectiveOp, const std::vector<int>&, const core::CollectiveRow&)> collective_rows();

  // Ends what is drawn (erases the collective status line; the burn-in table stays) and returns
  // whether anything was drawn since the last call.
  bool take_drawn();

 private:
  class BurninLines;
  void open_line();
  std::ostream& err_;
  bool terminal_;
  bool drawn_ = false;
  std::unique_ptr<BurninLines> burnin_;
  probes::CollectiveProgress collectives_;
};

}  // namespace gpuvet::cli
