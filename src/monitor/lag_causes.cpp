// The machine picture on a lagging card (see lag_causes.hpp).
#include "monitor/lag_causes.hpp"

#include "core/finding_codes.hpp"

namespace gpuvet::monitor {

LagCauses lag_causes(const core::Assessment& machine, const std::map<int, int>& index_of) {
  LagCauses out;
  for (const auto& f : machine.findings) {
    if (f.severity == core::Severity::info) continue;
    for (int picture_gpu : f.gpus) {
      const auto daemon_gpu = index_of.find(picture_gpu);
      if (daemon_gpu == index_of.end()) continue;
      std::string& text = out[daemon_gpu->second];
      if (!text.empty()) text += "; ";
      text += f.code + ": " + f.message;
    }
  }
  return out;
}

void attach_lag_causes(std::vector<MonitorAlert>& alerts, const std::optional<LagCauses>& causes,
                       const std::string& why) {
  for (auto& a : alerts) {
    if (a.code != core::code::utilization_below_peers || a.gpus.size() != 1) continue;
    std::string picture;
    if (!causes) {
      picture = "not available (" + why + ")";
    } else if (const auto found = causes->find(a.gpus.front()); found != causes->end()) {
      picture = found->second;
      a.message += "; the machine picture shows on it: " + picture;
    } else {
      picture = "nothing on this GPU that its peers lack (links, PCIe, NUMA node, batch as judged at start)";
      a.message += "; the machine picture shows nothing on it that its peers lack: look at the job's placement";
    }
    a.evidence.emplace_back("machine_picture", picture);
  }
}

}  // namespace gpuvet::monitor
