// The finding catalogue: one entry per code, in the order the judge runs its rules.
// Append only; never rename a code (reports, dashboards and specs match on it).
#include "analysis/finding_catalog.hpp"

namespace gpuvet::analysis {

using core::Severity;

const std::vector<FindingInfo>& finding_catalog() {
  static const std::vector<FindingInfo> kCatalog = {
      {"interconnect_class", Severity::info, "GPU interconnect class",
       "How the GPUs talk to each other (NVSwitch full mesh, direct NVLink mesh, partial NVLink, "
       "PCIe only, or unknown), the reasoning, and the per-GPU bandwidth that fabric implies.",
       "Confirm with a measurement: nvbandwidth (device_to_device_memcpy_read_ce) or nccl-tests "
       "all_reduce_perf across all GPUs."},
      {"interconnect_not_as_claimed", Severity::fail, "Interconnect differs from the claim",
       "The interconnect class found is not the one expected (--expect); e.g. an 'NVSwitch' "
       "machine whose GPUs are only bridged in pairs.",
       "Ask the provider for the machine that was advertised; attach nvidia-smi topo -m."},
      {"gpu_missing", Severity::fail, "GPUs missing",
       "Fewer GPUs are usable than are attached, or than were expected (--expect-gpus). A warning "
       "when the input itself was trimmed and cannot show every GPU.",
       "Check nvidia-smi -L and dmesg for 'fallen off the bus' / Xid 79; ask for a replacement."},
      {"numa_imbalance", Severity::warn, "GPUs or NICs unevenly spread over NUMA nodes",
       "GPUs are spread unevenly over the NUMA nodes (e.g. 5+3, or all on one socket of two), a NIC "
       "sits on a node without GPUs, or a GPU's nearest NIC is across the inter-socket link (SYS).",
       "Pin each rank to its GPU's NUMA node (numactl / NCCL_IB_HCA); expect lower host-to-device "
       "and GPUDirect RDMA bandwidth on the crossing paths."},
      {"gpu_numa_misplaced", Severity::warn, "GPU reports an unexpected NUMA node",
       "A GPU reports a NUMA node different from the GPUs or NIC behind the same PCIe switch, or its "
       "CPU affinity does not match its NUMA node's CPU list (often a BIOS/ACPI SRAT problem).",
       "Check /sys/bus/pci/devices/<bus id>/numa_node and the BIOS NUMA settings (NPS, SNC)."},
      {"mixed_inventory", Severity::fail, "GPUs are not all alike",
       "GPUs differ in model (fail), or in VBIOS, board part number, memory size, power limit, "
       "maximum clocks, ECC mode or MIG mode (warn). The odd GPUs are named.",
       "Ask the provider to align firmware and settings (nvidia-smi -pl, -e, -mig) or replace the "
       "odd GPUs; mixed GPUs run collectives at the pace of the slowest."},
      {"memory_below_advertised", Severity::fail, "GPU memory below what was advertised",
       "A GPU reports less framebuffer memory than its model (catalogue) or the expectation "
       "(--expect-memory) allows, beyond the ECC reservation.",
       "Compare nvidia-smi -q 'FB Memory Usage: Total' with the offer; a smaller variant was supplied."},
      {"card_class_mismatch", Severity::warn, "GPU class does not suit the workload",
       "Inference, workstation or consumer cards rented for training (warn), training cards rented "
       "for inference (info: it works, but NVLink and FP64 are paid for and unused), or different "
       "card classes mixed in one machine (warn).",
       "Check the workload against the card: training at scale wants NVLink/NVSwitch and HBM."},
      {"pcie_link_degraded", Severity::fail, "PCIe link below its capability",
       "A GPU's PCIe link runs narrower than it can (fail: lanes never downshift at idle), or at a "
       "lower generation while the GPU is busy (warn; idle GPUs lower the generation to save power, "
       "so idle ones are not judged).",
       "Reseat the card or riser; check nvidia-smi -q 'GPU Link Info' under load and lspci -vv LnkSta."},
      {"nvlink_down", Severity::fail, "NVLink links down",
       "An NVLink port that the GPU model should have active is inactive, or a GPU has fewer bonded "
       "NVLinks to its peers than the machine's other GPUs.",
       "Run nvidia-smi nvlink -s and -e; ask the provider to reseat or replace the GPU/baseboard."},
      {"fabric_not_ready", Severity::fail, "NVSwitch fabric not ready",
       "A GPU reports an NVSwitch fabric state other than Completed (Not Started, In Progress, "
       "Failure): the fabric manager has not trained the NVLink fabric, so CUDA cannot use NVLink.",
       "Check nvidia-fabricmanager (systemctl status nvidia-fabricmanager; its log) and that its "
       "version matches the driver; ask the provider to fix it before use."},
      {"nvlink_not_bridged", Severity::info, "No NVLink bridge fitted",
       "PCIe cards that can take an NVLink bridge have every NVLink port inactive: no bridge is "
       "fitted, so these GPUs talk to each other over PCIe.",
       "Nothing is wrong if no bridge was advertised; otherwise ask for the NVLink bridges."},
      {"nic_down", Severity::warn, "NIC port down or slow",
       "An InfiniBand/RoCE port (from /sys/class/infiniband) is not ACTIVE, or links at a lower rate "
       "than the machine's other NICs: inter-node collectives through it fail or slow down.",
       "Check ibstat / ibv_devinfo and the cable or switch port; ask the provider to fix the link."},
      {"busbw_below_expected", Severity::fail, "Collective bandwidth below the envelope",
       "An NCCL collective's peak busbw at the plateau (messages of 1 GiB and more) is below 90 % "
       "(warn) or 80 % (fail) of what healthy machines of this fabric and architecture reach.",
       "Rerun nccl-tests with -b 8 -e 16G -f 2; run gpuvet inspect for links down or PCIe/NUMA faults; "
       "bisect with 2- and 4-GPU runs to find the slow GPU or link."},
      {"bandwidth_below_expected", Severity::fail, "Copy bandwidth below the envelope",
       "A host<->device copy of a GPU, or a peer copy between two GPUs (nvbandwidth CE testcases, "
       "p2pBandwidthLatencyTest with P2P), is below 85 % (warn) or 70 % (fail) of what the link "
       "delivers on healthy machines. Names the GPUs or pairs.",
       "Check the path with gpuvet inspect (PCIe downtrained, NUMA misplacement, NVLink down, P2P "
       "disabled); pin the test to the GPU's NUMA node and rerun."},
      {"p2p_unavailable", Severity::fail, "P2P access unavailable",
       "GPU pairs cannot access each other's memory, so peer copies and NCCL go through host memory: "
       "fail when the pair is NVLink-connected, info on GeForce cards (no P2P with the stock driver), "
       "warn otherwise (IOMMU, ACS, BIOS or virtualisation settings).",
       "Check nvidia-smi topo -p2p r, IOMMU/ACS settings (CUDA docs: IOMMU on Linux) and the "
       "hypervisor's P2P support."},
      {"collective_wrong_results", Severity::fail, "Collective returned wrong results",
       "nccl-tests counted wrong elements (#wrong): data was corrupted between GPUs.",
       "Rerun with -c 1; check Xid events and NVLink/PCIe error counters; ask for the GPU or "
       "baseboard to be replaced."},
      {"collective_not_judged", Severity::info, "Collective not judged",
       "A collective run could not be compared with an envelope: multi-node, no published numbers "
       "for this fabric, unknown GPU model or rank count, or messages too small for the plateau.",
       "Give nvidia-smi topo -m and -q of the same machine, and run up to 8-16 GiB."},
      {"row_remap_pending", Severity::fail, "Row remapping pending",
       "A GPU has remapped a memory row but the remap only takes effect after a GPU reset.",
       "Reset the GPU (nvidia-smi -r, or reboot) before use, then check again."},
      {"row_remap_failure", Severity::fail, "Row remapping failed",
       "A GPU could not remap a failing memory row: its memory is no longer reliable.",
       "Ask the provider to replace the GPU (NVIDIA RMA criteria)."},
      {"retired_pages", Severity::fail, "Retired memory pages",
       "A GPU has retired memory pages (warn), or has a page retirement pending a reboot (fail).",
       "Reboot to apply pending retirements; replace the GPU if the count keeps growing."},
      {"remapped_rows", Severity::info, "Memory rows remapped",
       "A GPU has remapped memory rows and nothing is pending: it has used some of its spare rows.",
       "Nothing to do now; recheck after a burn-in that the count does not grow."},
      {"throttle_active", Severity::warn, "Clocks held back",
       "A GPU reports active clocks-event (throttle) reasons other than idle: info for power caps "
       "and similar, warn for hardware slowdown, thermal slowdown or power brake.",
       "Check cooling and power (nvidia-smi -q -d PERFORMANCE,TEMPERATURE,POWER) under load."},
  };
  return kCatalog;
}

const FindingInfo* find_finding_info(std::string_view code) {
  for (const auto& info : finding_catalog()) {
    if (info.code == code) return &info;
  }
  return nullptr;
}

}  // namespace gpuvet::analysis
