// Reads a history database (a burn-in's, or the monitor daemon's: one schema) for `gpuvet trend`:
// first the time it spans, then the run, GPUs and events, every raw sample still kept in time
// order, and the hourly rollups (schema 3; what is left once the raw samples are pruned). One
// read-only connection (a live daemon's -wal is read through a private copy, as read_burnin
// does); memory: one tick, as read_burnin.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "core/error.hpp"
#include "core/telemetry.hpp"
#include "telemetry/hour_rollup.hpp"
#include "telemetry/telemetry_store.hpp"

namespace gpuvet::telemetry {

// The wall-clock time a database covers: its raw samples (ticks) and its rollups. Absent when it
// holds none of them. Rollup hours and minutes count from the run's start.
struct HistorySpan {
  std::optional<std::int64_t> first_unix_ms, last_unix_ms;  // everything
  std::optional<std::int64_t> first_raw_unix_ms;            // the oldest raw sample still kept
};

struct HistorySinks {
  std::function<void(const HistorySpan&)> on_span;          // first, before the header
  HeaderSink on_header;
  SampleSink on_sample;
  // Each hourly rollup, by GPU then hour, with the wall-clock start of its hour (run start + hour).
  std::function<void(const HourRollup&, std::int64_t hour_unix_ms)> on_hour_rollup;
};

// Errors as read_burnin's (bad_input naming the file: not a gpuvet database, a schema version this
// gpuvet does not read, malformed data; the file's own problems: missing, a directory, unreadable).
core::Result<core::BurninRecord> read_history(const std::string& path, const HistorySinks& sinks);

}  // namespace gpuvet::telemetry
