// JSON of gpuvet's own measurements (internal to report/): matrices with absent cells as null
// plus their reasons, and VRAM checks.
#pragma once

#include <nlohmann/json.hpp>

#include "report/machine_report.hpp"

namespace gpuvet::report {

nlohmann::ordered_json measurements_json(const Measurements& measurements);

}  // namespace gpuvet::report
