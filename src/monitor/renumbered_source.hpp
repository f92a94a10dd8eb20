// A telemetry source seen through a monitor history's GPU numbering: after a GPU fell off the bus
// the driver renumbers the others, and the restarted daemon keeps calling each card by its index
// in the history (matched by UUID, telemetry/history_gpus.hpp). Translates every call and every
// event between the two numberings; the wrapped source must outlive it. Same threading as the
// wrapped source (the daemon's sampling thread, or a DeadlineCaller worker for a live one).
#pragma once

#include <map>
#include <vector>

#include "backends/api/telemetry_source.hpp"
#include "telemetry/history_gpus.hpp"

namespace gpuvet::monitor {

class RenumberedSource final : public api::TelemetrySource {
 public:
  RenumberedSource(api::TelemetrySource& source, const telemetry::HistoryGpuMatch& match);
  [[nodiscard]] std::string describe() const override { return source_.describe(); }
  [[nodiscard]] bool simulated() const override { return source_.simulated(); }
  // The present GPUs with their history indices (never the missing ones).
  core::Result<std::vector<core::BurninGpu>> gpus() override { return present_; }
  std::vector<core::UnsupportedField> probe(int gpu) override;
  core::TelemetrySample sample(int gpu, double t_s) override;
  // Events of a GPU the match does not know (none: the source sees only present GPUs) are dropped.
  std::vector<core::TelemetryEvent> drain_events(double t_s) override;

 private:
  int to_source(int history_index) const;
  api::TelemetrySource& source_;
  std::vector<core::BurninGpu> present_;
  std::map<int, int> to_source_, to_history_;
};

}  // namespace gpuvet::monitor
