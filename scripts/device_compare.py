#!/usr/bin/env python3
"""Compares gpuvet outputs for scripts/device-check.sh (standard library only).

  device_compare.py machine LIVE.json PASTED.json
      `gpuvet inspect --json` (live NVML + sysfs) against `gpuvet analyze --json` of the same
      machine's nvidia-smi -q -x / topo -m: the same GPUs, links, NUMA nodes and versions, or a
      list of differences (exit 1). Facts one side cannot know (null) are listed, not counted.
  device_compare.py ratio GPUVET.json REFERENCE.json
      gpuvet's figure over a reference tool's, read back by `gpuvet analyze --json`: copy
      bandwidth per testcase (median GB/s), busbw per collective (peak GB/s).
"""
import json
import sys

GPU_FIELDS = ("name", "uuid", "serial", "pci_bus_id", "memory_total_mib", "vbios", "board_part_number",
              "numa_node", "pcie_gen_max", "pcie_width_max", "compute_capability")
MACHINE_FIELDS = ("driver_version", "cuda_version", "attached_gpus", "nvswitch_present")


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def compare_value(where, live, pasted, differences, unknown):
    if live is None or pasted is None:
        if live != pasted:
            unknown.append(f"{where}: live {live!r}, nvidia-smi {pasted!r}")
        return
    if live != pasted:
        differences.append(f"{where}: live {live!r}, nvidia-smi {pasted!r}")


def links_of(machine):
    """(label, label) -> the topo -m cell, for GPU pairs."""
    links = machine.get("links") or {}
    labels, matrix = links.get("labels") or [], links.get("matrix") or []
    out = {}
    for i, row in enumerate(matrix):
        for j, cell in enumerate(row):
            if i < j and i < len(labels) and j < len(labels):
                out[(labels[i], labels[j])] = cell
    return out


def paired(live_gpus, pasted_gpus, differences):
    """GPUs matched by PCI bus id where both sides know it (a missing GPU shifts the indices),
    else by position."""
    by_bus = {g.get("pci_bus_id"): g for g in pasted_gpus if g.get("pci_bus_id")}
    if by_bus and all(g.get("pci_bus_id") for g in live_gpus):
        for g in live_gpus:
            if g["pci_bus_id"] in by_bus:
                yield g, by_bus[g["pci_bus_id"]]
            else:
                differences.append(f"GPU {g.get('index')} ({g['pci_bus_id']}): live only")
        live_bus = {g["pci_bus_id"] for g in live_gpus}
        for bus, g in by_bus.items():
            if bus not in live_bus:
                differences.append(f"GPU {g.get('index')} ({bus}): nvidia-smi only")
        return
    yield from zip(live_gpus, pasted_gpus)


def compare_machines(live, pasted):
    differences, unknown = [], []
    for field in MACHINE_FIELDS:
        compare_value(field, live.get(field), pasted.get(field), differences, unknown)
    live_gpus, pasted_gpus = live.get("gpus") or [], pasted.get("gpus") or []
    if len(live_gpus) != len(pasted_gpus):
        differences.append(f"GPU count: live {len(live_gpus)}, nvidia-smi {len(pasted_gpus)}")
    for lg, pg in paired(live_gpus, pasted_gpus, differences):
        for field in GPU_FIELDS:
            compare_value(f"GPU {lg.get('index')} {field}", lg.get(field), pg.get(field), differences, unknown)
        live_links = sum(1 for l in lg.get("nvlinks") or [] if l.get("active"))
        pasted_links = sum(1 for l in pg.get("nvlinks") or [] if l.get("active"))
        compare_value(f"GPU {lg.get('index')} active NVLinks", live_links, pasted_links, differences, unknown)
    compare_value("interconnect class", (live.get("interconnect") or {}).get("class"),
                  (pasted.get("interconnect") or {}).get("class"), differences, unknown)
    ll, pl = links_of(live), links_of(pasted)
    for key in sorted(set(ll) | set(pl), key=str):
        compare_value(f"link {key[0]}-{key[1]}", ll.get(key), pl.get(key), differences, unknown)
    compare_value("NUMA nodes", live.get("numa_nodes"), pasted.get("numa_nodes"), differences, unknown)
    return differences, unknown


def ratios(gpuvet, reference):
    lines = []
    ref_bw = {b["testcase"]: b for b in reference.get("bandwidth") or []}
    for b in gpuvet.get("bandwidth") or []:
        ref = ref_bw.get(b.get("testcase"))
        if ref and b.get("median") and ref.get("median"):
            lines.append((f"copy {b['testcase']} (median GB/s)", b["median"], ref["median"]))
    ref_coll = {c["op"]: c for c in reference.get("collectives") or []}
    for c in gpuvet.get("collectives") or []:
        ref = ref_coll.get(c.get("op"))
        if ref and c.get("peak_busbw_gbps") and ref.get("peak_busbw_gbps"):
            lines.append((f"{c['op']} peak busbw (GB/s)", c["peak_busbw_gbps"], ref["peak_busbw_gbps"]))
    return lines


def main(argv):
    if len(argv) != 4 or argv[1] not in ("machine", "ratio"):
        print(__doc__, file=sys.stderr)
        return 2
    try:
        a, b = load(argv[2]), load(argv[3])
    except (OSError, ValueError) as e:
        print(f"device_compare: {e}", file=sys.stderr)
        return 2
    if argv[1] == "machine":
        differences, unknown = compare_machines(a, b)
        for d in differences:
            print(f"DIFFERS  {d}")
        for u in unknown:
            print(f"UNKNOWN  {u}")
        print(f"{len(differences)} differences, {len(unknown)} facts known on one side only")
        return 1 if differences else 0
    lines = ratios(a, b)
    for what, ours, theirs in lines:
        print(f"{what}: gpuvet {ours:.2f}, reference {theirs:.2f}, ratio {ours / theirs:.3f}")
    if not lines:
        print("no figure in common")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
