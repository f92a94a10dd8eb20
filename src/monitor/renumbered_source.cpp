// A telemetry source in a history's GPU numbering (see renumbered_source.hpp).
#include "monitor/renumbered_source.hpp"

namespace gpuvet::monitor {

RenumberedSource::RenumberedSource(api::TelemetrySource& source, const telemetry::HistoryGpuMatch& match)
    : source_(source), present_(match.present) {
  for (std::size_t i = 0; i < match.present.size() && i < match.source_index.size(); ++i) {
    to_source_[match.present[i].index] = match.source_index[i];
    to_history_[match.source_index[i]] = match.present[i].index;
  }
}

int RenumberedSource::to_source(int history_index) const {
  const auto it = to_source_.find(history_index);
  return it == to_source_.end() ? -1 : it->second;  // -1: no such GPU (the source answers absent)
}

std::vector<core::UnsupportedField> RenumberedSource::probe(int gpu) {
  auto fields = source_.probe(to_source(gpu));
  for (auto& f : fields) f.gpu = gpu;
  return fields;
}

core::TelemetrySample RenumberedSource::sample(int gpu, double t_s) {
  core::TelemetrySample s = source_.sample(to_source(gpu), t_s);
  s.gpu = gpu;
  return s;
}

std::vector<core::TelemetryEvent> RenumberedSource::drain_events(double t_s) {
  std::vector<core::TelemetryEvent> out;
  for (auto& e : source_.drain_events(t_s)) {
    const auto it = to_history_.find(e.gpu);
    if (it == to_history_.end()) continue;
    e.gpu = it->second;
    out.push_back(std::move(e));
  }
  return out;
}

}  // namespace gpuvet::monitor
