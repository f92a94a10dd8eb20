// The health rules, one file each under rules/, and their explicit list (health_rules.cpp: no
// self-registration). Adding a rule: its file, its line here and in the list, its test.
#pragma once

#include <vector>

#include "analysis/health/health_rule.hpp"

namespace gpuvet::analysis::health {

const HealthRule& nvlink_growth_rule();      // nvlink_errors_growing
const HealthRule& ecc_growth_rule();         // ecc_errors_new
const HealthRule& pcie_replay_rule();        // pcie_replays
const HealthRule& pcie_link_rule();          // pcie_link_degraded
const HealthRule& xid_rule();                // xid_event
const HealthRule& gpu_lost_rule();           // gpu_lost
const HealthRule& row_remap_pending_rule();  // row_remap_pending
const HealthRule& row_remap_failure_rule();  // row_remap_failure
const HealthRule& remapped_rows_rule();      // remapped_rows_growing
const HealthRule& retired_pages_rule();      // retired_pages
const HealthRule& throttle_rule();           // throttle_reasons

// Every rule, in the order findings are listed.
const std::vector<const HealthRule*>& health_rules();
// The codes the rules give (each rule one code).
bool is_health_code(std::string_view code);

}  // namespace gpuvet::analysis::health
