// AcceptLiveProgress: the standalone burnin and nccl progress, below accept's stage line.
#include "cli/accept_progress.hpp"

namespace gpuvet::cli {

// The burn-in table of `gpuvet burnin`, moved to a line of its own on its first draw.
class AcceptLiveProgress::BurninLines final : public probes::BurninObserver {
 public:
  BurninLines(AcceptLiveProgress& owner, std::ostream& err) : owner_(owner), table_(err, options()) {}
  void on_tick(const probes::BurninTick& tick) override {
    owner_.open_line();
    table_.on_tick(tick);
  }
  void on_event(const core::TelemetryEvent& event) override {
    owner_.open_line();
    table_.on_event(event);
  }
  void on_finish(const probes::BurninTick& tick) override {
    owner_.open_line();
    table_.on_finish(tick);
  }

 private:
  static ProgressOptions options() {
    ProgressOptions o;
    o.terminal = true;
    return o;
  }
  AcceptLiveProgress& owner_;
  BurninProgress table_;
};

AcceptLiveProgress::AcceptLiveProgress(std::ostream& err, bool terminal) : err_(err), terminal_(terminal), collectives_(err) {
  if (terminal_) burnin_ = std::make_unique<BurninLines>(*this, err_);
}

AcceptLiveProgress::~AcceptLiveProgress() = default;

void AcceptLiveProgress::open_line() {
  if (drawn_) return;
  err_ << "\n";
  drawn_ = true;
}

probes::BurninObserver* AcceptLiveProgress::burnin() { return burnin_.get(); }

std::function<void(api::CollectiveOp, const std::vector<int>&, const core::CollectiveRow&)> AcceptLiveProgress::collective_rows() {
  if (!terminal_) return {};
  return [this](api::CollectiveOp op, const std::vector<int>& gpus, const core::CollectiveRow& row) {
    open_line();
    collectives_.on_row(op, gpus, row);
  };
}

bool AcceptLiveProgress::take_drawn() {
  collectives_.finish();
  const bool was = drawn_;
  drawn_ = false;
  return was;
}

}  // namespace gpuvet::cli
