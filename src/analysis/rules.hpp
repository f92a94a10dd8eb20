// The judge's rule families (internal to analysis/). Each is pure: context in, findings out,
// and silent where it cannot decide. judge.cpp runs them in this order.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "analysis/rule_support.hpp"

namespace gpuvet::analysis {

// interconnect_classifier.cpp: the class of the fabric, from the models matched in `models`.
core::InterconnectSummary classify_with_models(const core::Machine& machine,
                                               const std::vector<const core::GpuModel*>& models);

// interconnect_class, interconnect_not_as_claimed
std::vector<core::Finding> check_interconnect(const RuleContext& ctx);
// gpu_missing, mixed_inventory
std::vector<core::Finding> check_inventory(const RuleContext& ctx);
// model_claim_rules.cpp: model_not_as_claimed (--expect-model)
std::vector<core::Finding> check_model_claim(const RuleContext& ctx);
// memory_below_advertised
std::vector<core::Finding> check_memory(const RuleContext& ctx);
// card_class_mismatch
std::vector<core::Finding> check_card_class(const RuleContext& ctx);
// numa_imbalance, gpu_numa_misplaced
std::vector<core::Finding> check_numa(const RuleContext& ctx);
// pcie_link_degraded, nvlink_down
std::vector<core::Finding> check_links(const RuleContext& ctx);
// nic_down
std::vector<core::Finding> check_nics(const RuleContext& ctx);
// Stated expectations the picture cannot decide (they make the verdict incomplete).
std::vector<std::string> unverified_expectations(const RuleContext& ctx);
// inventory_rules.cpp: the GPUs the input says or shows exist without showing them (the
// gpu_missing warning of a trimmed or cut input, or of gaps in the indices), as the line that
// makes the verdict incomplete; nullopt when the input shows every GPU it names.
std::optional<std::string> gpus_not_seen(const RuleContext& ctx);
// row_remap_pending, row_remap_failure, retired_pages, remapped_rows, throttle_active
std::vector<core::Finding> check_health(const RuleContext& ctx);
// event_rules.cpp: gpu_lost, xid_logged, inforom_corrupted (kernel logs, nvidia-smi warnings)
std::vector<core::Finding> check_events(const RuleContext& ctx);
// nvlink_counter_rules.cpp: nvlink_error_counters (nvlink -e), mig_enabled
std::vector<core::Finding> check_nvlink_counters(const RuleContext& ctx);
std::vector<core::Finding> check_mig(const RuleContext& ctx);

}  // namespace gpuvet::analysis
