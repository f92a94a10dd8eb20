// Entry points of the simulator: the built-in profile list and simulate_machine (profile + faults).
#include "backends/sim/simulator.hpp"

#include <algorithm>

#include "backends/sim/sim_state.hpp"
#include "catalog/gpu_catalog.hpp"

namespace gpuvet::sim {
namespace data {
const std::vector<std::pair<std::string_view, std::string_view>>& embedded_files();
}  // namespace data

namespace {

constexpr std::string_view kDir = "machines/";
constexpr std::string_view kExt = ".yaml";

// Profile name -> embedded YAML text, sorted by name.
std::vector<std::pair<std::string, std::string_view>> embedded_profiles() {
  std::vector<std::pair<std::string, std::string_view>> out;
  for (const auto& [path, text] : data::embedded_files()) {
    if (path.substr(0, kDir.size()) != kDir || path.size() <= kDir.size() + kExt.size()) continue;
    if (path.substr(path.size() - kExt.size()) != kExt) continue;
    out.emplace_back(std::string(path.substr(kDir.size(), path.size() - kDir.size() - kExt.size())), text);
  }
  std::sort(out.begin(), out.end());
  return out;
}

core::Result<SimState> load_state(const std::string& name, std::string_view text) {
  auto profile = parse_machine_profile(text, "profiles/machines/" + name + ".yaml");
  if (!profile) return core::internal_error("built-in " + profile.error().message);
  if (profile->name != name) return core::internal_error("built-in profile " + name + " names itself '" + profile->name + "'");
  auto state = build_state(std::move(profile).value(), catalog::gpu_catalog());
  if (!state) return core::internal_error("built-in " + state.error().message);
  return state;
}

}  // namespace

std::vector<ProfileInfo> list_profiles() {
  std::vector<ProfileInfo> out;
  for (const auto& [name, text] : embedded_profiles()) {
    auto state = load_state(name, text);
    if (!state) continue;  // the profile test catches this; listing stays useful
    ProfileInfo info{name, state->profile.description, state->profile.gpu_count(), ""};
    std::vector<std::string> models;
    for (const auto& gpu : state->gpus) {
      if (std::find(models.begin(), models.end(), gpu.model->display_name) == models.end()) {
        models.push_back(gpu.model->display_name);
      }
    }
    for (const auto& m : models) info.gpu_model += (info.gpu_model.empty() ? "" : " + ") + m;
    out.push_back(std::move(info));
  }
  return out;
}

core::Result<SimState> build_simulation(std::string_view profile, const std::vector<FaultSpec>& faults) {
  const auto profiles = embedded_profiles();
  const auto it = std::find_if(profiles.begin(), profiles.end(), [&](const auto& p) { return p.first == profile; });
  if (it == profiles.end()) {
    std::string names;
    for (const auto& p : profiles) names += (names.empty() ? "" : ", ") + p.first;
    return core::usage_error("unknown simulator profile '" + std::string(profile) + "' (available: " + names + ")");
  }
  auto state = load_state(it->first, it->second);
  if (!state) return state.error();
  for (const auto& fault : faults) {
    if (auto error = apply_fault(state.value(), fault)) return *error;
  }
  return state;
}

core::Result<core::Machine> simulate_machine(std::string_view profile, const std::vector<FaultSpec>& faults) {
  auto state = build_simulation(profile, faults);
  if (!state) return state.error();
  return render_machine(state.value());
}

}  // namespace gpuvet::sim
