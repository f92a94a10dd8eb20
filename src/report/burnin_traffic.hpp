// The burn-in report's link traffic (internal to report/): the traffic settings and every
// interval's busbw, copy rates and wrong elements in JSON, and a short table in text (at most
// kTrafficTextRows intervals, evenly spread, with the first and last). Pure.
#pragma once

#include <cstddef>
#include <string>

#include <nlohmann/json.hpp>

#include "core/telemetry.hpp"

namespace gpuvet::report {

inline constexpr std::size_t kTrafficTextRows = 12;

// {"kinds": [...], "share": F, "interval_s": S, "intervals": [...]}; {"kinds": []} without traffic.
nlohmann::ordered_json traffic_json(const core::BurninRecord& record);
// "" without traffic.
std::string traffic_text(const core::BurninRecord& record);

}  // namespace gpuvet::report
