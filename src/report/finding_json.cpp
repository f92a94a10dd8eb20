// The JSON form of a finding (docs/json.md, "findings").
#include "report/finding_json.hpp"

namespace gpuvet::report {

nlohmann::ordered_json finding_json(const core::Finding& finding) {
  nlohmann::ordered_json j;
  j["code"] = finding.code;
  j["severity"] = std::string(core::to_string(finding.severity));
  j["gpus"] = finding.gpus;
  j["message"] = finding.message;
  nlohmann::ordered_json evidence = nlohmann::ordered_json::object();
  for (const auto& [key, value] : finding.evidence) evidence[key] = value;
  j["evidence"] = evidence;
  j["next_step"] = finding.next_step;
  return j;
}

}  // namespace gpuvet::report
