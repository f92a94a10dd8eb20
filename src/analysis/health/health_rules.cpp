// The explicit list of health rules (see health_rules.hpp).
#include "analysis/health/health_rules.hpp"

namespace gpuvet::analysis::health {

const std::vector<const HealthRule*>& health_rules() {
  static const std::vector<const HealthRule*> rules = {
      &gpu_lost_rule(),     &xid_rule(),           &ecc_growth_rule(),        &row_remap_failure_rule(),
      &row_remap_pending_rule(), &remapped_rows_rule(), &retired_pages_rule(), &nvlink_growth_rule(),
      &pcie_link_rule(),    &pcie_replay_rule(),   &throttle_rule(),
  };
  return rules;
}

bool is_health_code(std::string_view code) {
  for (const auto* rule : health_rules()) {
    if (rule->code() == code) return true;
  }
  return false;
}

}  // namespace gpuvet::analysis::health
