// The simulator: machines composed from built-in profiles (profiles/machines/*.yaml) and the GPU
// catalogue, with fault overlays applied in order. Pure and deterministic: same input, same Machine.
// Called by the CLI for --sim and by the fake libnvidia-ml.so.1; safe from any thread.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/error.hpp"
#include "core/machine.hpp"

namespace gpuvet::sim {

inline constexpr std::string_view kDefaultProfile = "hgx-h100-8x";

struct FaultSpec {
  std::string name;                                          // "nvlink-down"
  std::vector<std::pair<std::string, std::string>> params;   // {"gpu","3"},{"link","2"} in order
  std::string text;                                          // the text as given
};

// "nvlink-down:gpu=3,link=2" -> FaultSpec. Errors (usage) name the fault text and what was expected.
// Only the syntax is checked here; names and params are validated by simulate_machine.
core::Result<FaultSpec> parse_fault(std::string_view text);

struct ProfileInfo {
  std::string name;
  std::string description;
  int gpu_count = 0;
  std::string gpu_model;  // display name; "A + B" when a profile mixes models
};
// The built-in profiles, sorted by name.
std::vector<ProfileInfo> list_profiles();

struct FaultInfo {
  std::string name;
  std::string usage;        // "nvlink-down:gpu=N,link=L"
  std::string description;
};
std::vector<FaultInfo> list_faults();

// The built-in profile with the faults applied in order. Unknown profile/fault or bad params ->
// usage error listing what exists.
core::Result<core::Machine> simulate_machine(std::string_view profile, const std::vector<FaultSpec>& faults);

}  // namespace gpuvet::sim
