// Names of clocks-event reasons, event kinds and run states as the store and JSON spell them.
#include "core/telemetry.hpp"

#include <fmt/format.h>

#include <array>
#include <utility>

namespace gpuvet::core {

std::string clocks_event_name(std::uint64_t bit) {
  for (const auto& e : clocks_event::kTable) {
    if (e.bit == bit) return std::string(e.name);
  }
  return fmt::format("bit_{:#x}", bit);
}

std::string_view to_string(TelemetryEventKind kind) {
  switch (kind) {
    case TelemetryEventKind::xid: return "xid";
    case TelemetryEventKind::gpu_lost: return "gpu_lost";
    case TelemetryEventKind::safety_stop: return "safety_stop";
    case TelemetryEventKind::stress_error: return "stress_error";
  }
  return "xid";
}

bool parse_telemetry_event_kind(std::string_view text, TelemetryEventKind& out) {
  for (auto kind : {TelemetryEventKind::xid, TelemetryEventKind::gpu_lost, TelemetryEventKind::safety_stop,
                    TelemetryEventKind::stress_error}) {
    if (to_string(kind) == text) {
      out = kind;
      return true;
    }
  }
  return false;
}

std::string_view to_string(BurninStatus status) {
  switch (status) {
    case BurninStatus::running: return "running";
    case BurninStatus::completed: return "completed";
    case BurninStatus::interrupted: return "interrupted";
    case BurninStatus::failed: return "failed";
  }
  return "running";
}

bool parse_burnin_status(std::string_view text, BurninStatus& out) {
  for (auto status : {BurninStatus::running, BurninStatus::completed, BurninStatus::interrupted, BurninStatus::failed}) {
    if (to_string(status) == text) {
      out = status;
      return true;
    }
  }
  return false;
}

}  // namespace gpuvet::core
