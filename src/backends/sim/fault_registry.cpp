// The one list of fault families, and what every family shares: parameter parsing.
#include "backends/sim/fault_registry.hpp"

#include <cmath>

#include "backends/sim/fault_params.hpp"

namespace gpuvet::sim {

const std::vector<FaultDef>& fault_defs() {
  static const std::vector<FaultDef> defs = [] {
    std::vector<FaultDef> all;
    for (auto family : {machine_fault_defs, link_fault_defs, collective_fault_defs, network_fault_defs, burnin_fault_defs, soak_fault_defs,
                        monitor_fault_defs, memory_fault_defs}) {
      for (auto& def : family()) all.push_back(std::move(def));
    }
    return all;
  }();
  return defs;
}

std::optional<core::Error> apply_fault(SimState& state, const FaultSpec& fault) {
  for (const auto& def : fault_defs()) {
    if (def.name == fault.name) return def.apply(state, fault);
  }
  std::string names;
  for (const auto& def : fault_defs()) names += (names.empty() ? "" : ", ") + def.name;
  return core::usage_error("fault '" + fault.text + "': unknown fault '" + fault.name + "' (known: " + names + ")");
}

int gpu_param(const SimState& state, Params& params) {
  const int n = params.integer("gpu", 0, static_cast<int>(state.gpus.size()) - 1, "this profile has GPUs");
  if (params.error()) return -1;
  if (!state.gpus[static_cast<std::size_t>(n)].present) {
    params.reject(fmt::format("GPU {} was already removed by a gpu-missing fault", n));
    return -1;
  }
  return n;
}

double number_param(Params& params, const std::string& key, double lo, double hi, const std::string& what) {
  const std::string& s = params.text(key);
  double v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || !std::isfinite(v)) {
    params.reject(fmt::format("{}='{}' is not a number", key, s));
  } else if (v < lo || v > hi) {
    params.reject(fmt::format("{}={} is out of range: {} {}..{}", key, s, what, lo, hi));
  }
  return v;
}

double duration_param(Params& params, const std::string& key) {
  std::string s = params.text(key);
  double scale = 1;
  if (!s.empty()) {
    const char unit = s.back();
    if (unit == 's') scale = 1;
    if (unit == 'm') scale = 60;
    if (unit == 'h') scale = 3600;
    if (unit == 's' || unit == 'm' || unit == 'h') s.pop_back();
  }
  double v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc() || end != s.data() + s.size() || !std::isfinite(v) || v < 0 || v * scale > 1e7) {
    params.reject(fmt::format("{}='{}' is not a duration (90s, 15m, 2h or seconds)", key, params.text(key)));
    return 0;
  }
  return v * scale;
}

}  // namespace gpuvet::sim
