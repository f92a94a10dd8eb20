// Parameter checking shared by every family of fault overlays (internal to the simulator):
// each fault declares the params it accepts; errors are usage errors naming the fault text.
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "backends/sim/sim_state.hpp"

namespace gpuvet::sim {

// The params of one fault, checked against what the fault accepts.
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
      error_ = fail(fmt::format("{}='{}' is not an integer", key, s));
    } else if (v < lo || v > hi) {
      error_ = fail(fmt::format("{}={} is out of range: {} {}..{}", key, v, what, lo, hi));
    }
    return v;
  }

  [[nodiscard]] core::Error fail(const std::string& what) const {
    return core::usage_error("fault '" + fault_.text + "': " + what);
  }
  // Records a failure found after construction; error() returns it.
  void reject(const std::string& what) { error_ = fail(what); }

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

}  // namespace gpuvet::sim
