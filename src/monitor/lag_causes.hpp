// The likely cause of a lagging card, from the machine picture: what the machine judge
// (analysis::judge_machine over the NVML/sysfs picture, or the simulator's) found on each GPU at
// the daemon's start, attached to its utilization_below_peers alert. A card that waits on its
// peers usually sits behind a slower path (NVLinks down, a narrower PCIe link), on the wrong NUMA
// node, or comes from another batch; the picture names which, or says it shows nothing.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/assessment.hpp"
#include "monitor/monitor_snapshot.hpp"

namespace gpuvet::monitor {

// Per GPU (the daemon's numbering), the warn and fail findings of the machine judge that name it,
// as "code: message" joined by "; ". GPUs with none are absent.
using LagCauses = std::map<int, std::string>;

// `index_of` maps the picture's GPU index to the daemon's (they differ only when a GPU fell off
// the bus and the driver renumbered the rest); a picture GPU it does not know is left out.
LagCauses lag_causes(const core::Assessment& machine, const std::map<int, int>& index_of);

// Adds the machine picture to each utilization_below_peers alert: evidence `machine_picture` and
// a sentence in the message. `causes` is nullopt when the picture could not be read (`why`).
void attach_lag_causes(std::vector<MonitorAlert>& alerts, const std::optional<LagCauses>& causes,
                       const std::string& why);

}  // namespace gpuvet::monitor
