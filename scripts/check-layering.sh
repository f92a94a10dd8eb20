#!/usr/bin/env bash
# The dependency rule of ../shared/STYLE.md, checked include by include: CMake's link graph cannot see
# a header-only include across layers, so this reads every #include "layer/file.hpp" under src/ and
# fails on a pair the table below does not allow. Usage: check-layering.sh [SRC_DIR] (default src/).
# Exit 0: clean; 1: violations (one line each: file:line, the include, the rule); 2: bad usage.
set -euo pipefail
src_dir="${1:-$(dirname "$0")/../src}"
if [ ! -d "$src_dir" ]; then
  echo "check-layering: $src_dir is not a directory (expected the src/ folder of gpuvet)" >&2
  exit 2
fi
exec python3 - "$src_dir" <<'PYTHON'
import os, re, sys

# Layer -> the layers it may include (besides itself). Order of the rule:
# core <- platform <- backends <- probes; parsers, analysis, report, plan, spec pure; accept and
# cli wire things; monitor takes what the daemon needs (sampler, store, rules, /metrics).
BACKEND = {"core", "platform", "backends/api"}
ALLOWED = {
    "core": set(),
    "platform": {"core"},
    "catalog": {"core"},
    "telemetry": {"core", "platform"},
    "backends/api": {"core"},
    "backends/nvml": BACKEND,
    "backends/sysfs": BACKEND,
    "backends/cuda": BACKEND,
    "backends/mpi": BACKEND,
    "backends/sim": BACKEND | {"catalog"},
    "probes": {"core", "platform", "telemetry", "backends/api", "backends/nvml", "backends/sysfs"},
    "parsers": {"core"},
    "analysis": {"core"},
    "spec": {"core", "catalog"},
    "accept_model": {"core"},
    "plan": {"core", "accept_model", "analysis"},
    "report": {"core", "accept_model", "plan"},
    "accept": {"core", "accept_model", "spec", "analysis", "catalog"},
    "accept_stages": {"core", "accept_model", "accept", "spec", "analysis", "catalog", "platform",
                      "telemetry", "backends/api", "probes"},
    # parsers: a bundle's numbers are believed within the limits analyze reads logs with.
    "bundle": {"core", "platform", "accept_model", "report", "parsers"},
    "monitor": {"core", "platform", "telemetry", "backends/api", "probes", "analysis", "report"},
    "cli": None,  # wires everything
}
# Layers that must stay pure: no operating-system, vendor or I/O headers either.
PURE = {"core", "analysis", "report", "parsers", "plan", "spec", "accept_model", "catalog"}
IMPURE_SYSTEM = re.compile(
    r"^(fstream|dlfcn\.h|unistd\.h|fcntl\.h|sys/.*|cuda.*\.h|nvml\.h|nccl\.h|mpi\.h|sqlite3\.h|"
    r"httplib\.h|openssl/.*|thread|filesystem)$")

# Files whose library is not their folder's (src/accept holds three libraries, see its CMakeLists).
ACCEPT_MODEL = {"accept_model", "accept_json", "compare", "compare_metrics", "interconnect_observed"}
ACCEPT_STAGE = re.compile(r"^(.*_stages?|.*_pipeline)$")

def layer_of(rel):
    parts = rel.split("/")
    if len(parts) < 2:
        return None
    if parts[0] == "backends":
        return "backends/" + parts[1] if len(parts) > 2 else None
    if parts[0] == "accept":
        stem = os.path.splitext(parts[-1])[0]
        if stem in ACCEPT_MODEL:
            return "accept_model"
        if ACCEPT_STAGE.match(stem):
            return "accept_stages"
    return parts[0]

src = sys.argv[1]
problems = []
quoted = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
angled = re.compile(r"^\s*#\s*include\s+<([^>]+)>")
for root, _, files in os.walk(src):
    for name in sorted(files):
        if not name.endswith((".hpp", ".cpp", ".h", ".cu", ".inc")):
            continue
        path = os.path.join(root, name)
        rel = os.path.relpath(path, src).replace(os.sep, "/")
        own = layer_of(rel)
        if own is None:
            continue
        if own not in ALLOWED:
            problems.append(f"{rel}: folder '{own}' has no row in the layer table of "
                            "scripts/check-layering.sh (add one that says what it may include)")
            continue
        with open(path, encoding="utf-8", errors="replace") as text:
            for number, line in enumerate(text, 1):
                m = quoted.match(line)
                if m:
                    target = layer_of(m.group(1))
                    if target is None or target == own:
                        continue
                    allowed = ALLOWED[own]
                    if target not in ALLOWED:
                        continue  # generated or build-tree header (embedded data)
                    if allowed is not None and target not in allowed:
                        may = ", ".join(sorted(allowed)) or "nothing but the standard library and fmt"
                        problems.append(f"{rel}:{number}: includes \"{m.group(1)}\" ({target}); "
                                        f"{own} may include only {may}")
                    continue
                m = angled.match(line)
                if m and own in PURE and IMPURE_SYSTEM.match(m.group(1)):
                    problems.append(f"{rel}:{number}: includes <{m.group(1)}>; {own} is pure "
                                    "(no operating-system, vendor or I/O headers: go through platform/ or backends/)")
for p in problems:
    print(p)
if problems:
    print(f"check-layering: {len(problems)} include(s) against the dependency rule", file=sys.stderr)
    sys.exit(1)
print("check-layering: every include follows the dependency rule")
PYTHON
