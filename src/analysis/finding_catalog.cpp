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
       "when the input itself was trimmed or cut and cannot show every GPU (a -q cut short, a topo -m "
       "header without all its rows, a table without its end): the verdict is then incomplete, not pass.",
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
       "maximum clocks, ECC mode or MIG mode (warn; VBIOS, board part number and memory size fail "
       "when one batch was promised with --expect-same-batch). The odd GPUs are named.",
       "Ask the provider to align firmware and settings (nvidia-smi -pl, -e, -mig) or replace the "
       "odd GPUs; mixed GPUs run collectives at the pace of the slowest."},
      {"memory_below_advertised", Severity::fail, "GPU memory below what was advertised",
       "A GPU reports less framebuffer memory than its model (catalogue) or the expectation "
       "(--expect-memory) allows, beyond the ECC reservation.",
       "Compare nvidia-smi -q 'FB Memory Usage: Total' with the offer; a smaller variant was supplied."},
      {"card_class_mismatch", Severity::fail, "GPU class does not suit the workload",
       "Inference, workstation or consumer cards rented for training (fail: the workload was stated "
       "with --workload train or a spec's workload), training cards rented "
       "for inference (info: it works, but NVLink and FP64 are paid for and unused), or different "
       "card classes mixed in one machine (warn).",
       "Check the workload against the card: training at scale wants NVLink/NVSwitch and HBM."},
      {"pcie_link_degraded", Severity::fail, "PCIe link below its capability",
       "A GPU's PCIe link runs narrower than it can (fail: lanes never downshift at idle), or at a "
       "lower generation while the GPU is busy (warn; idle GPUs lower the generation to save power, "
       "so idle ones are not judged). gpuvet monitor: the same, held for a minute (the generation only while "
       "the GPU's utilization is at least 50 %).",
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
      {"host_copy_far_numa_faster", Severity::warn, "Host copies faster from the far NUMA node",
       "gpuvet bench host measured a GPU's copies to and from pinned memory on its own (reported) "
       "NUMA node more than 10 % slower than from another node: the affinity the system reports is "
       "most likely wrong, so frameworks that pin by it put data on the wrong socket.",
       "Check /sys/bus/pci/devices/<bus id>/numa_node against the board's slot map and the BIOS NUMA "
       "settings (NPS, SNC, SRAT); pin host buffers to the faster node until it is fixed."},
      {"vram_short", Severity::fail, "Less usable GPU memory than reported",
       "gpuvet bench vram could allocate and verify clearly less memory than the GPU reports (more than "
       "max(2 GiB, 5 %) below the total, beyond what the driver and a CUDA context hold): the card "
       "does not have the memory it claims, or another process holds it.",
       "Make sure no other process uses the GPU (nvidia-smi), rerun; if it persists, the card is not "
       "the advertised part: ask for a replacement."},
      {"vram_errors", Severity::fail, "GPU memory does not hold its data",
       "Patterns written to GPU memory (address-in-address, walking ones, seeded random) read back "
       "wrong: names the GPU, the byte range (GiB) and the words that failed per pattern.",
       "Check nvidia-smi -q -d ECC,ROW_REMAPPER for remapped rows and pending remaps, reboot and rerun; "
       "a repeatable failure means the GPU must be replaced."},
      {"p2p_unavailable", Severity::fail, "P2P access unavailable",
       "GPU pairs cannot access each other's memory, so peer copies and NCCL go through host memory: "
       "fail when the pair is NVLink-connected, info on GeForce cards (no P2P with the stock driver), "
       "warn otherwise (IOMMU, ACS, BIOS or virtualisation settings).",
       "Check nvidia-smi topo -p2p r, IOMMU/ACS settings (CUDA docs: IOMMU on Linux) and the "
       "hypervisor's P2P support."},
      {"p2p_slower_than_staged", Severity::warn, "P2P copies slower than copies through host memory",
       "p2pBandwidthLatencyTest: with P2P enabled, GPU pairs copy more than 10 % slower than with P2P "
       "disabled (staged through host memory). CUDA and NCCL use P2P when it is available, so they run at "
       "the slower rate: typical of PCIe switches with ACS redirecting peer traffic to the root complex, an "
       "IOMMU in translation mode, or a hypervisor. Names the pairs and both medians.",
       "Check ACS on the PCIe switches (the ACSCtl lines of lspci -vvv), IOMMU passthrough (iommu=pt) and the BIOS "
       "P2P settings; compare nccl-tests with NCCL_P2P_DISABLE=1 until it is fixed."},
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
       "A GPU could not remap a failing memory row (nvmlDeviceGetRemappedRows failureOccurred; gpuvet "
       "monitor too): its memory is no longer reliable.",
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
      {"straggler_gpu", Severity::fail, "GPU slows the collectives it joins",
       "In gpuvet nccl --scaling, (nearly) every GPU pair or 4-GPU subset that includes this GPU reaches "
       "less than 90 % of the upper-quartile busbw of comparable sets (same kind of path); warn, fail below 80 %. "
       "In gpuvet burnin, its sustained GEMM TFLOP/s (median after warm-up) is more than 10 % below the "
       "median of its peers (fail), with the time window it was below. "
       "NVML can look healthy: clocks, power, a bad NVLink/PCIe lane or the card itself.",
       "Check the GPU with gpuvet inspect (links, PCIe, throttle) and a GEMM or burn-in; ask for the GPU or "
       "its baseboard slot to be replaced."},
      {"slow_link", Severity::fail, "Slow path between two GPUs",
       "In gpuvet nccl --scaling, the pair (or the pair common to the slow 4-GPU subsets) reaches less than "
       "90 % of the upper-quartile busbw of pairs joined by the same kind of path, and neither GPU is a straggler; "
       "warn, fail below 80 %.",
       "Run nvbandwidth device_to_device on the pair and nvidia-smi nvlink -e for error counters; ask the "
       "provider to reseat or replace the cable, bridge or baseboard."},
      {"scaling_below_expected", Severity::fail, "Collectives do not scale to all GPUs",
       "busbw on all GPUs is below 90 % of the best 4-GPU subset (pairs on 4-GPU machines): warn, fail "
       "below 75 %. When the topology explains it (all GPUs must cross a slower path such as the socket "
       "link) it is information, unless less than half remains: then fail when the GPUs are of mixed "
       "models (the 4+4 trap), warn on a machine of one model (bridged pairs that never promised a mesh).",
       "Check the topology (gpuvet inspect) and the straggler_gpu / slow_link findings; on PCIe machines "
       "expect the socket crossing to cost bandwidth."},
      {"collective_hung", Severity::fail, "Collective hung",
       "A collective did not complete within the timeout; the communicator was aborted. Names the GPUs "
       "that had not finished and the message size.",
       "Check dmesg for Xid errors, nvidia-smi -q for NVLink/PCIe errors and NCCL_DEBUG=INFO output; rerun "
       "on the pair that hangs."},
      {"node_inventory_mismatch", Severity::fail, "Nodes of a cluster differ",
       "In a multi-node run (gpuvet nccl under mpirun), some nodes hold other GPUs (count or model: fail) or "
       "another driver, CUDA version or VBIOS (warn) than most nodes. The odd nodes are named.",
       "Ask the provider to align the odd nodes (same GPUs, driver and firmware) before multi-node training."},
      {"clock_desync", Severity::warn, "GPU clocks fall out of step under load",
       "During a burn-in, a GPU's SM clock stays more than 5 % below the median of the loaded GPUs at the "
       "same instant for at least 30 s. The first GPU to do so is named as the first to throttle, with when "
       "it started, how low it went and how long it stayed there.",
       "Look at the same GPU's throttle_reasons and thermal_outlier findings; check its cooling (fans, "
       "airflow, cold plate) and power delivery."},
      {"thermal_outlier", Severity::fail, "GPU much hotter than its peers",
       "During a burn-in, a GPU's median temperature under load is 10 °C or more above its peers' median "
       "at the same load (warn), or the load had to be stopped near its shutdown temperature (fail).",
       "Check the GPU's cooling (fan, heat sink, cold plate, airflow in the chassis); ask the provider to "
       "service it."},
      {"power_not_reached", Severity::warn, "GPU does not reach its power limit under load",
       "During a burn-in, a GPU's median board power under full GEMM load (outside thermal slowdown) stays "
       "below 90 % of its enforced power limit: a power-delivery fault or a limit lower than reported.",
       "Compare nvidia-smi -q -d POWER across GPUs under load; check the PSUs and power cables."},
      {"hotter_than_peers", Severity::fail, "GPU runs hotter than its peers for hours",
       "Over a period of monitored history (gpuvet trend), a GPU's mean temperature stays 8 °C or more above "
       "the median of the other GPUs at the same load (peers' median utilization at least 50 %, the GPU within "
       "10 points of it) for at least 2 h and half of the time they could be compared (warn); 15 °C or more "
       "(fail). The early sign of a cooling fault or a card from another batch.",
       "Check the card's cooling (fan, heat sink, cold plate, airflow, a blocked slot) and its VBIOS and board "
       "part number against its peers (nvidia-smi -q); ask the provider to service it before it throttles."},
      {"slower_than_peers", Severity::fail, "GPU runs at lower clocks than its peers for hours",
       "Over a period of monitored history (gpuvet trend), a GPU's mean SM clock stays 5 % or more below the "
       "median of the other GPUs at the same load for at least 2 h and half of the time they could be compared "
       "(warn); 15 % or more (fail). A card that throttles, a lower power limit, or a mixed batch.",
       "Check its clocks-event reasons and power limit against its peers (nvidia-smi -q -d PERFORMANCE,POWER) "
       "and its temperature (hotter_than_peers); a card of another batch slows every collective: ask for a "
       "same-batch replacement."},
      {"baseline_drift", Severity::fail, "GPU has drifted from its acceptance burn-in",
       "Under load (utilization at least 80 %: for at least 2 h of the period in gpuvet trend, 30 min of the "
       "last hour in gpuvet monitor --baseline), a GPU runs 8 °C or more hotter "
       "(warn; 16 °C fail), or at an SM clock 5 % or more lower (warn; 15 % fail), than it did in the "
       "acceptance burn-in of the evidence bundle given as --baseline (its steady state under full load).",
       "Compare with the bundle's report.html; check the card's cooling and clocks-event reasons; the "
       "acceptance bundle is the evidence to show the provider."},
      {"throttle_reasons", Severity::fail, "Clocks held back during the burn-in",
       "Time each GPU spent in the clocks-event reasons that mean trouble during a burn-in: software thermal "
       "slowdown (warn), hardware slowdown, hardware thermal slowdown or power brake (fail), with when each "
       "was first seen. Power capping under a GEMM is normal and not reported.",
       "Check cooling and power under load (nvidia-smi -q -d PERFORMANCE,TEMPERATURE,POWER)."},
      {"ecc_errors_new", Severity::fail, "New ECC errors during the burn-in",
       "A GPU's volatile ECC counters grew during the burn-in: corrected errors (warn, with the rate per "
       "hour) or uncorrected errors (fail).",
       "Check nvidia-smi -q -d ECC,ROW_REMAPPER,PAGE_RETIREMENT; reset the GPU if a remap is pending and "
       "ask for a replacement if uncorrected errors recur."},
      {"xid_event", Severity::fail, "Xid errors during the burn-in",
       "A GPU reported Xid events (NVML event set) during the burn-in or a monitored period, judged as its row of "
       "gpuvet's copy of NVIDIA's Xid catalogue (analysis/xid_catalog, as the monitor daemon): fail for hardware Xids "
       "(48, 63, 64, 74, 79, 92, 94, 95, 119, 120, 136, 140, 143, 144-150, 158), info where NVIDIA points at the "
       "application (13, 31, 43, 45, 69), warn for the others and for an Xid not in the catalogue. Names the code, "
       "meaning, NVIDIA's action, count and time.",
       "Look the Xid up in NVIDIA's Xid catalogue; check dmesg around the time given."},
      {"nvlink_errors_growing", Severity::fail, "NVLink error counters growing",
       "During a burn-in, a GPU's NVLink CRC, replay or recovery counters grew (per link, with the rate "
       "per minute): warn, fail when replays or recoveries grew by more than 1 or CRC errors reached 100 "
       "per second (DCGM's limits).",
       "Run nvidia-smi nvlink -e; ask the provider to reseat or replace the GPU, cable or baseboard."},
      {"pcie_replays", Severity::warn, "PCIe replays",
       "A GPU's PCIe replay counter grew during the burn-in or the monitor: warn above 8 replays per minute "
       "(DCGM's limit), information below. In a pasted nvidia-smi -q (Replays Since Reset) any non-zero "
       "count warns: a static paste shows a count since the last reset, not a rate.",
       "Reseat the card or riser; check lspci -vv for AER errors and the PCIe link width and speed."},
      {"compute_miscompare", Severity::fail, "GEMM results differ from the reference",
       "During a burn-in, a GPU computed matrix products that differ from the reference: words of a result "
       "that differ from the first (golden) result of the same product, or golden elements off a "
       "double-precision product by more than the dtype's tolerance. It computes wrong answers under load.",
       "Do not use the GPU; ask the provider to replace it."},
      {"utilization_below_peers", Severity::warn, "GPU utilization below its group's (gpuvet monitor)",
       "gpuvet monitor: over the last 5 minutes a GPU's mean utilization is more than 20 % below the mean of its "
       "group (all GPUs watched), relative to that mean (below 0.8 x the mean), while the group is busy (mean "
       "utilization at least 50 %). The card waits on its peers: a slower path (PCIe or a link down instead of "
       "NVLink), a GPU far from its NUMA node, or a card of another batch.",
       "Run gpuvet inspect for the card's links, PCIe path and NUMA node and compare its VBIOS and board part "
       "number with its peers; move the job to a full-mesh (NVSwitch) or same-batch machine if the topology is the "
       "cause."},
      {"remapped_rows_growing", Severity::fail, "Remapped memory rows growing (gpuvet monitor)",
       "gpuvet monitor: a GPU's remapped-row count rose within the last 15 minutes: warn for rows remapped after "
       "correctable errors, fail after uncorrectable ones. Each GPU has a few spare rows per bank.",
       "Reset the GPU to apply pending remaps; if the count keeps growing, ask the provider to replace the GPU "
       "(NVIDIA's RMA criteria count remapped rows)."},
      {"plan_does_not_fit", Severity::fail, "Model does not fit the offer (gpuvet plan)",
       "gpuvet plan: the model's memory per GPU (weights, gradients, optimizer, activations, KV cache and the "
       "framework reserve) exceeds the GPU's memory in the planned layout; names the smallest layout that fits, "
       "if any.",
       "Use the layout named, or more GPUs, lower precision, recomputation, shorter sequences or fewer sequences."},
      {"plan_interconnect_rule_of_thumb", Severity::warn, "Fabric below the sizing guides' rule of thumb (gpuvet plan)",
       "gpuvet plan: a training job larger than the guides allow for this fabric: ~30B+ on PCIe-only or partial "
       "NVLink, 100B+ without an NVLink full mesh, or 100B+ across nodes without InfiniBand-class NICs.",
       "Prefer an NVSwitch machine with 400 Gb/s per GPU between machines, or read the communication share."},
      {"plan_sharding_over_slow_link", Severity::warn, "Model fits only by sharding over a slow link (gpuvet plan)",
       "gpuvet plan: the model fits only with ZeRO-3/FSDP, tensor parallelism beyond the NVLink group or pipelines "
       "across nodes, over PCIe or the network, and communication takes more than 25 % of each step.",
       "Choose GPUs with more memory, an NVLink full mesh or faster NICs, or accept the slower run."},
      {"plan_comm_dominated", Severity::warn, "Communication dominates the step (gpuvet plan)",
       "gpuvet plan: exposed communication is more than half of each planned step on this offer.",
       "Raise the global batch, lower the data-parallel size, or choose a faster interconnect."},
      {"gpu_lost", Severity::fail, "GPU lost",
       "A GPU stopped answering: the kernel log says it fell off the bus (Xid 79, or the older and the multi-line "
       "NVRM wording), the driver failed to initialise it (probe routine failed, RmInitAdapter failed), or nvidia-smi "
       "printed 'Unable to determine the device handle for GPU ...'. Named by PCI address.",
       "Reboot and check that nvidia-smi lists every GPU; if it recurs, ask for the GPU, riser or slot to be replaced."},
      {"xid_logged", Severity::fail, "Xid errors in the kernel log",
       "NVRM Xid lines in a pasted kernel log (dmesg, journalctl -k), one finding per Xid number with each GPU (by PCI "
       "address) and how often; judged with NVIDIA's Xid catalogue: fail for hardware Xids (ECC, NVLink, GSP, "
       "fallen off the bus), warn for others, info where NVIDIA points at the application. An Xid only named as the "
       "cause of a later one is reported too.",
       "Follow the action NVIDIA's Xid catalogue gives (reset the GPU, reboot, or replace); an application Xid needs "
       "no action on the machine."},
      {"inforom_corrupted", Severity::warn, "GPU infoROM corrupted",
       "nvidia-smi printed 'infoROM is corrupted at gpu ...': the GPU's persistent records (ECC counts, retired "
       "pages) cannot be trusted.",
       "Ask the provider to reflash the infoROM or replace the GPU."},
      {"nvlink_error_counters", Severity::warn, "NVLink error counters not zero",
       "nvidia-smi nvlink -e / -ec counted CRC, replay, recovery or other link errors on a port since the counters "
       "were last reset. One reading cannot show growth, so any count is a warning; a counter pinned at 65535, "
       "2^32-1 or 2^64-1 has saturated and hides how many errors there were.",
       "Reset the counters (nvidia-smi nvlink -r), run a load, and read them again; a count that grows means the link "
       "must be reseated or replaced."},
      {"mig_enabled", Severity::warn, "MIG mode enabled",
       "GPUs are in MIG mode (the default nvidia-smi table or its MIG devices table, or -q): they are split into GPU "
       "instances, so whole-GPU benchmarks, NCCL across GPUs and peer copies cannot use them as whole GPUs.",
       "Ask the provider to disable MIG (nvidia-smi -mig 0 and a GPU reset) if whole GPUs were rented."},
      {"benchmark_failed", Severity::fail, "A benchmark run failed",
       "A pasted benchmark log shows the run failing: nvbandwidth aborted on an assertion or its data check "
       "found bytes it did not write, nccl-tests stopped on 'NCCL failure' / 'Test failure' ('unhandled "
       "system error', 'unhandled cuda error'), NCCL WARN lines with no result after them, 'Out of bounds "
       "values : N FAILED', or a crash. Quotes the error lines; a failed measurement is never a pass.",
       "Rerun with NCCL_DEBUG=INFO (nccl-tests); check dmesg for Xid errors, the driver and CUDA versions, "
       "nvidia-fabricmanager on NVSwitch machines (systemctl status nvidia-fabricmanager) and the NICs "
       "(ibstat) for multi-node runs; a data-check failure means corrupted copies: replace the GPU or board."},
      {"nccl_tests_not_joined", Severity::warn, "nccl-tests processes ran alone",
       "One file holds several separate nccl-tests runs of one process each (the same Rank 0 line and "
       "table several times): nccl-tests built without MPI and started under mpirun or srun, so each "
       "process ran its own one-rank test and no GPU talked to another.",
       "Rebuild nccl-tests with MPI=1 MPI_HOME=... and start one process per GPU under mpirun, or run one "
       "process with -g N for all GPUs of a node."},
      {"model_not_as_claimed", Severity::fail, "GPU model differs from the one sold",
       "GPUs are another model than the one expected (--expect-model): an H800 or H20 delivered for an "
       "H100 order, a 40 GB card for an 80 GB one, a PCIe card for an SXM module. Names the GPUs and both "
       "models.",
       "Ask the provider for the model in the contract on every slot; export and cut-down SKUs share the "
       "name prefix but have less NVLink, memory or compute."},
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
