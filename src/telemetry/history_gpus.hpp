// Which GPUs of a monitor history are the GPUs present now (gpuvet monitor restarting on an
// existing --db). Matched by UUID, not by position: after a GPU falls off the bus the driver
// renumbers the others, so NVML's index 2 may be the card the history knows as GPU 3.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/telemetry.hpp"

namespace gpuvet::telemetry {

struct HistoryGpuMatch {
  // The GPUs present now, each with its index in the history (what samples and labels use).
  std::vector<core::BurninGpu> present;
  // Parallel to `present`: the index the telemetry source (NVML, the simulator) knows it by.
  std::vector<int> source_index;
  // GPUs of the history not present now, as the history recorded them (index, UUID, bus id).
  std::vector<core::BurninGpu> missing;
};

// Every GPU present, numbered as the source numbers it; nothing missing (a new history).
HistoryGpuMatch same_numbering(const std::vector<core::BurninGpu>& present);

// Matches the GPUs present now (as the source numbers them) with the GPUs of the history at
// `path` (for messages). When every GPU on both sides has a UUID, by UUID: each present GPU must
// be in the history (a card the history does not know, swapped in or added, or another machine,
// is refused), and the history's GPUs not present are `missing`. When a UUID is unknown on either
// side, by position: the same count and indices, and the same UUID where both know it (nothing
// can be missing then). Errors: bad_input "holds the history of other GPUs" naming why.
core::Result<HistoryGpuMatch> match_history_gpus(const std::string& path, const std::vector<core::BurninGpu>& history,
                                                 const std::vector<core::BurninGpu>& present);

// A card replaced (RMA) or added since the history began: every UUID known on both sides, at
// least one present GPU in the history and at least one not (so not another machine). `new_cards`
// are present GPUs the history does not have, `gone` the history's GPUs not present. nullopt when
// match_history_gpus would not refuse for that reason.
struct ReplacedCards {
  std::vector<core::BurninGpu> new_cards;
  std::vector<core::BurninGpu> gone;
};
std::optional<ReplacedCards> replaced_cards(const std::vector<core::BurninGpu>& history, const std::vector<core::BurninGpu>& present);

// Moves the history at `path` (and its -wal and -shm beside it) to `path`.replaced-`stamp`, by
// hard link then unlink: never overwrites (an existing target is an error, bad_input) and never
// deletes data. Returns the new path. Errors name the file and the system's reason; usage (exit
// 2) while a writer holds the history (writer_lock.hpp).
core::Result<std::string> move_history_aside(const std::string& path, const std::string& stamp);

// The GPUs recorded in the monitor history at `path`, after the read-only checks of reopen
// (no other writer holds it, a gpuvet monitor history of a readable schema, not corrupt); defined
// in telemetry_history.cpp.
core::Result<std::vector<core::BurninGpu>> read_monitor_history_gpus(const std::string& path);

// The checks TelemetryStore::reopen makes before it writes (no other writer holds it, a monitor
// history of a schema this gpuvet reads, not corrupt, of these GPUs), through a read-only connection, and the match: for
// deciding something else before continuing the history (defined in telemetry_history.cpp).
core::Result<HistoryGpuMatch> inspect_monitor_history(const std::string& path, const std::vector<core::BurninGpu>& gpus);

}  // namespace gpuvet::telemetry
