// `gpuvet monitor` from start to exit, behind one typed entry point: the history (continued,
// matched by UUID, moved aside when a card was replaced), the acceptance baseline numbered as the
// history, the clock (live, or the simulator's scaled or as-fast-as-possible time), the endpoint,
// the sampling loop, --record-series, and a clean shutdown. cli/monitor_command parses options,
// opens the telemetry source and reads the baseline bundle and the machine picture; this runs the
// daemon on the caller's thread until the signals or the duration stop it.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "backends/api/telemetry_source.hpp"
#include "core/assessment.hpp"
#include "core/error.hpp"
#include "core/exit_code.hpp"
#include "core/trend.hpp"
#include "monitor/http_server.hpp"
#include "monitor/monitor_daemon.hpp"

namespace gpuvet::monitor {

// The acceptance bundle of --baseline, as read by the bundle reader (cli/trend_baseline).
struct MonitorBaseline {
  std::string dir;                         // named in messages and as where missing GPUs are known from
  std::vector<core::BurninGpu> bundle_gpus;  // the bundle's identity (index, UUID): numbers a new history
  // The bundle's steady state numbered as the history's GPUs (matched by UUID); bad input for
  // another machine's bundle.
  std::function<core::Result<core::TrendBaseline>(const std::vector<core::GpuTrend>& history_gpus)> numbered;
};

struct MonitorStart {
  DaemonConfig config;            // interval, duration, retention (the rest is filled here)
  std::string db;                 // the history; ":memory:" keeps none
  bool simulated = false;
  std::string sim_profile;        // recorded in a new history
  std::vector<std::string> faults;
  double speed = 1;               // simulated seconds per wall second; 0: as fast as possible
  ListenAddress address;
  std::string listen;             // as the user wrote it
  bool dcgm_names = false;
  std::optional<MonitorBaseline> baseline;
  // The machine picture judged at start, its GPUs numbered as the source numbers them; absent
  // with the reason it could not be read (the lag causes of utilization_below_peers).
  std::optional<core::Assessment> machine;
  std::string machine_unavailable;
  std::string record_series;      // --record-series FILE (simulated, with a duration)
};

// Runs the daemon. Errors: a history that cannot be continued (another machine's, corrupt, locked
// by another writer), the endpoint's address, the store failing, the series file unwritable.
core::Result<core::ExitCode> run_monitor(std::unique_ptr<api::TelemetrySource> source, MonitorStart start, std::ostream& err,
                                         DaemonSignals signals);

}  // namespace gpuvet::monitor
