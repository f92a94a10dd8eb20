// --sim/--fault and --gpus, parsed once for every measuring command.
#include "cli/target_options.hpp"

#include <sstream>

namespace gpuvet::cli {

core::Result<sim::SimState> simulated_state(const std::string& profile, const std::vector<std::string>& fault_texts) {
  if (profile.empty()) return core::usage_error("--fault needs --sim PROFILE: faults are overlays on a simulated machine");
  std::vector<sim::FaultSpec> faults;
  for (const auto& text : fault_texts) {
    auto fault = sim::parse_fault(text);
    if (!fault) return fault.error();
    faults.push_back(std::move(fault).value());
  }
  return sim::build_simulation(profile, faults);
}

core::Result<std::vector<int>> parse_gpu_list(const std::string& text) {
  std::vector<int> out;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    std::size_t used = 0;
    int v = -1;
    try {
      v = std::stoi(item, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (item.empty() || used != item.size() || v < 0) {
      return core::usage_error("--gpus '" + text + "': expected GPU indices separated by commas, e.g. 0,1,4");
    }
    out.push_back(v);
  }
  return out;
}

}  // namespace gpuvet::cli
