// Finding codes as typed identifiers: rules emit, clauses match and renderers pick out findings by
// these constants, never a spelled-out string, so a typo does not compile and a renamed code cannot
// slip by (finding_codes_test checks each one against finding_catalog()). Append-only, like the catalogue.
#pragma once

#include <string_view>

namespace gpuvet::core::code {

inline constexpr std::string_view interconnect_class = "interconnect_class";
inline constexpr std::string_view interconnect_not_as_claimed = "interconnect_not_as_claimed";
inline constexpr std::string_view gpu_missing = "gpu_missing";
inline constexpr std::string_view numa_imbalance = "numa_imbalance";
inline constexpr std::string_view gpu_numa_misplaced = "gpu_numa_misplaced";
inline constexpr std::string_view mixed_inventory = "mixed_inventory";
inline constexpr std::string_view memory_below_advertised = "memory_below_advertised";
inline constexpr std::string_view card_class_mismatch = "card_class_mismatch";
inline constexpr std::string_view pcie_link_degraded = "pcie_link_degraded";
inline constexpr std::string_view nvlink_down = "nvlink_down";
inline constexpr std::string_view fabric_not_ready = "fabric_not_ready";
inline constexpr std::string_view nvlink_not_bridged = "nvlink_not_bridged";
inline constexpr std::string_view nic_down = "nic_down";
inline constexpr std::string_view busbw_below_expected = "busbw_below_expected";
inline constexpr std::string_view bandwidth_below_expected = "bandwidth_below_expected";
inline constexpr std::string_view host_copy_far_numa_faster = "host_copy_far_numa_faster";
inline constexpr std::string_view vram_short = "vram_short";
inline constexpr std::string_view vram_errors = "vram_errors";
inline constexpr std::string_view p2p_unavailable = "p2p_unavailable";
inline constexpr std::string_view collective_wrong_results = "collective_wrong_results";
inline constexpr std::string_view collective_not_judged = "collective_not_judged";
inline constexpr std::string_view row_remap_pending = "row_remap_pending";
inline constexpr std::string_view row_remap_failure = "row_remap_failure";
inline constexpr std::string_view retired_pages = "retired_pages";
inline constexpr std::string_view remapped_rows = "remapped_rows";
inline constexpr std::string_view throttle_active = "throttle_active";
inline constexpr std::string_view straggler_gpu = "straggler_gpu";
inline constexpr std::string_view slow_link = "slow_link";
inline constexpr std::string_view scaling_below_expected = "scaling_below_expected";
inline constexpr std::string_view collective_hung = "collective_hung";
inline constexpr std::string_view node_inventory_mismatch = "node_inventory_mismatch";
inline constexpr std::string_view clock_desync = "clock_desync";
inline constexpr std::string_view thermal_outlier = "thermal_outlier";
inline constexpr std::string_view power_not_reached = "power_not_reached";
inline constexpr std::string_view throttle_reasons = "throttle_reasons";
inline constexpr std::string_view ecc_errors_new = "ecc_errors_new";
inline constexpr std::string_view xid_event = "xid_event";
inline constexpr std::string_view nvlink_errors_growing = "nvlink_errors_growing";
inline constexpr std::string_view pcie_replays = "pcie_replays";
inline constexpr std::string_view compute_miscompare = "compute_miscompare";
inline constexpr std::string_view plan_does_not_fit = "plan_does_not_fit";
inline constexpr std::string_view plan_interconnect_rule_of_thumb = "plan_interconnect_rule_of_thumb";
inline constexpr std::string_view plan_sharding_over_slow_link = "plan_sharding_over_slow_link";
inline constexpr std::string_view plan_comm_dominated = "plan_comm_dominated";
inline constexpr std::string_view gpu_lost = "gpu_lost";
inline constexpr std::string_view xid_logged = "xid_logged";
inline constexpr std::string_view inforom_corrupted = "inforom_corrupted";
inline constexpr std::string_view nvlink_error_counters = "nvlink_error_counters";
inline constexpr std::string_view mig_enabled = "mig_enabled";
inline constexpr std::string_view benchmark_failed = "benchmark_failed";
inline constexpr std::string_view nccl_tests_not_joined = "nccl_tests_not_joined";
inline constexpr std::string_view p2p_slower_than_staged = "p2p_slower_than_staged";
inline constexpr std::string_view model_not_as_claimed = "model_not_as_claimed";
inline constexpr std::string_view hotter_than_peers = "hotter_than_peers";
inline constexpr std::string_view slower_than_peers = "slower_than_peers";
inline constexpr std::string_view baseline_drift = "baseline_drift";
inline constexpr std::string_view utilization_below_peers = "utilization_below_peers";
inline constexpr std::string_view remapped_rows_growing = "remapped_rows_growing";

// Every id above, for the test that holds them to the catalogue.
inline constexpr std::string_view kAll[] = {
    interconnect_class, interconnect_not_as_claimed, gpu_missing, numa_imbalance, gpu_numa_misplaced,
    mixed_inventory, memory_below_advertised, card_class_mismatch, pcie_link_degraded, nvlink_down,
    fabric_not_ready, nvlink_not_bridged, nic_down, busbw_below_expected, bandwidth_below_expected,
    host_copy_far_numa_faster, vram_short, vram_errors, p2p_unavailable, collective_wrong_results,
    collective_not_judged, row_remap_pending, row_remap_failure, retired_pages, remapped_rows,
    throttle_active, straggler_gpu, slow_link, scaling_below_expected, collective_hung,
    node_inventory_mismatch, clock_desync, thermal_outlier, power_not_reached, throttle_reasons,
    ecc_errors_new, xid_event, nvlink_errors_growing, pcie_replays, compute_miscompare,
    plan_does_not_fit, plan_interconnect_rule_of_thumb, plan_sharding_over_slow_link,
    plan_comm_dominated, gpu_lost, xid_logged, inforom_corrupted, nvlink_error_counters, mig_enabled,
    benchmark_failed, nccl_tests_not_joined, p2p_slower_than_staged, model_not_as_claimed, hotter_than_peers,
    slower_than_peers, baseline_drift, utilization_below_peers, remapped_rows_growing
};

}  // namespace gpuvet::core::code
