// Parameter checking shared by every family of fault overlays (internal to the simulator):
// each fault declares the params it accepts; errors are usage errors naming the fault text.
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "backends/sim/sim_state.hpp"

namespace gpuvet::sim {

// The params of one fault, checked against what the fault accepts. The first error stands: a
// fault may read several params and check error() once before it plants anything.
class Params {
 public:
  Params(const FaultSpec& fault, std::vector<std::string> required, std::vector<std::string> optional)
      : fault_(fault) {
    for (const auto& [key, value] : fault.params) {
      const bool known = std::find(required.begin(), required.end(), key) != required.end() ||
                         std::find(optional.begin(), optional.end(), key) != optional.end();
      if (!known) {
        error_ = fail(fmt::format("unknown parameter '{}' (accepted: {})", key, accepted(required, optional)));
        return;
      }
      values_[key] = value;
    }
    for (const auto& key : required) {
      if (!values_.count(key)) {
        error_ = fail(fmt::format("missing parameter '{}' (accepted: {})", key, accepted(required, optional)));
        return;
      }
    }
  }

  [[nodiscard]] const std::optional<core::Error>& error() const { return error_; }
  [[nodiscard]] bool has(const std::string& key) const { return values_.count(key) != 0; }
  [[nodiscard]] const std::string& text(const std::string& key) const { return values_.at(key); }

  // An integer in [lo, hi]; sets error() otherwise.
  int integer(const std::string& key, int lo, int hi, const std::string& what) {
    const std::string& s = values_.at(key);
    int v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size()) {
      reject(fmt::format("{}='{}' is not an integer", key, s));
    } else if (v < lo || v > hi) {
      reject(fmt::format("{}={} is out of range: {} {}..{}", key, v, what, lo, hi));
    }
    return v;
  }

  [[nodiscard]] core::Error fail(const std::string& what) const {
    return core::usage_error("fault '" + fault_.text + "': " + what);
  }
  // Records a failure found after construction; error() returns the first one.
  void reject(const std::string& what) {
    if (!error_) error_ = fail(what);
  }

 private:
  static std::string accepted(const std::vector<std::string>& required, const std::vector<std::string>& optional) {
    std::string out;
    for (const auto& k : required) out += (out.empty() ? "" : ", ") + k;
    for (const auto& k : optional) out += (out.empty() ? "[" : ", [") + k + "]";
    return out;
  }

  const FaultSpec& fault_;
  std::map<std::string, std::string> values_;
  std::optional<core::Error> error_;
};

// GPU indices in faults are the profile's (the machine as built), whatever earlier faults did:
// `--fault gpu-missing:gpu=1 --fault nvlink-down:gpu=7,...` means the profile's GPUs 1 and 7,
// even though NVML would show the second as GPU 6 once GPU 1 is gone.
// Reads gpu=N and returns it, or -1 with params.error() set.
int gpu_param(const SimState& state, Params& params);

// A number in [lo, hi] ("0.5", "2"); sets params.error() otherwise.
double number_param(Params& params, const std::string& key, double lo, double hi, const std::string& what);

// A duration "90s", "15m", "2h" or plain seconds, as seconds in [0, 1e7]; sets params.error() otherwise.
double duration_param(Params& params, const std::string& key);

// What a fault on one GPU does once its params are checked and gpu=N is read: reads the rest of
// `params`, then edits `gpu`; returns an error of its own or params.error() instead.
using GpuPlant = std::function<std::optional<core::Error>(SimGpu& gpu, Params& params)>;

// What applies a fault to the simulator state (FaultDef::apply).
using FaultApply = std::function<std::optional<core::Error>(SimState& state, const FaultSpec& fault)>;

// A fault that strikes one GPU: it takes gpu=N followed by `keys` (all required, in the order its
// usage names them), checks them, then plants.
inline FaultApply gpu_fault(std::vector<std::string> keys, GpuPlant plant) {
  keys.insert(keys.begin(), "gpu");
  return [keys = std::move(keys), plant = std::move(plant)](SimState& state, const FaultSpec& fault) -> std::optional<core::Error> {
    Params params(fault, keys, {});
    if (params.error()) return params.error();
    const int g = gpu_param(state, params);
    if (params.error()) return params.error();
    return plant(state.gpus[static_cast<std::size_t>(g)], params);
  };
}

}  // namespace gpuvet::sim
