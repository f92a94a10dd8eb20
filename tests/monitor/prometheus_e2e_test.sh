#!/usr/bin/env bash
# A real Prometheus (Debian's /usr/bin/prometheus) scrapes two simulated gpuvet monitor daemons on
# loopback: hgx-h100-8x with util-lag on GPU 3, and the same machine clean. Scrape and rule
# evaluation every second, the rules of `gpuvet monitor rules --speed N` (windows and for: divided
# by N, as the daemons run N simulated seconds per second). Asserts through Prometheus' HTTP API
# that every GPU's samples are there, that GpuvetUtilizationBelowPeers fires for GPU 3 of the
# faulty daemon and for nothing else, and that the clean daemon fires no alert at all, Prometheus'
# nor its own (gpuvet_alert). Bounded (about 40 s, 90 s at most), loopback only; everything it
# started is stopped on exit. Usage: prometheus_e2e_test.sh GPUVET [PROMETHEUS]
set -euo pipefail
gpuvet="$1"
prometheus="${2:-prometheus}"
speed=180          # 5 min utilization window and for: 5m -> 2 s each (rounded from 1.7 s)
deadline_s=90
tmp="$(mktemp -d)"
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  rm -rf "$tmp"
}
trap cleanup EXIT

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}
fail() {
  echo "FAIL: $*"
  for log in "$tmp"/*.log; do echo "--- $log"; tail -n 20 "$log"; done
  exit 1
}

faulty_port="$(free_port)"
clean_port="$(free_port)"
prom_port="$(free_port)"

"$gpuvet" monitor --sim hgx-h100-8x --fault util-lag:gpu=3 --speed "$speed" --duration 6h \
  --listen "127.0.0.1:$faulty_port" > "$tmp/faulty.log" 2>&1 &
pids+=($!)
"$gpuvet" monitor --sim hgx-h100-8x --speed "$speed" --duration 6h \
  --listen "127.0.0.1:$clean_port" > "$tmp/clean.log" 2>&1 &
pids+=($!)

"$gpuvet" monitor rules --speed "$speed" > "$tmp/gpuvet-rules.yml"
cat > "$tmp/prometheus.yml" <<YAML
global:
  scrape_interval: 1s
  scrape_timeout: 900ms
  evaluation_interval: 1s
rule_files:
  - $tmp/gpuvet-rules.yml
scrape_configs:
  - job_name: gpuvet
    static_configs:
      - targets: ['127.0.0.1:$faulty_port']
        labels: {case: faulty}
      - targets: ['127.0.0.1:$clean_port']
        labels: {case: clean}
YAML
"$prometheus" --config.file="$tmp/prometheus.yml" --storage.tsdb.path="$tmp/tsdb" \
  --web.listen-address="127.0.0.1:$prom_port" --log.level=warn > "$tmp/prometheus.log" 2>&1 &
pids+=($!)

# One query of Prometheus' HTTP API, answered as Python prints it (standard library only).
api() {
  python3 - "$prom_port" "$@" <<'PY'
import json, sys, urllib.parse, urllib.request
port, what = sys.argv[1], sys.argv[2]
def get(path, **params):
    url = f"http://127.0.0.1:{port}{path}"
    if params:
        url += "?" + urllib.parse.urlencode(params)
    with urllib.request.urlopen(url, timeout=2) as r:
        return json.load(r)["data"]
try:
    if what == "count":      # series of a query per case: "faulty=8 clean=8"
        result = get("/api/v1/query", query=f"count by (case) ({sys.argv[3]})")["result"]
        print(" ".join(sorted(f"{r['metric'].get('case')}={r['value'][1]}" for r in result)))
    elif what == "alerts":   # alerts: "state case alertname gpu" per line
        for a in get("/api/v1/alerts")["alerts"]:
            l = a["labels"]
            print(a["state"], l.get("case"), l.get("alertname"), l.get("gpu", "-"))
except Exception as e:  # not up yet
    print(f"unavailable: {e}", file=sys.stderr)
PY
}

start=$SECONDS
# 1. Samples of all 8 GPUs of both daemons.
until [ "$(api count gpuvet_gpu_utilization_ratio 2>/dev/null)" = "clean=8 faulty=8" ]; do
  [ $((SECONDS - start)) -lt "$deadline_s" ] || fail "no samples of 8 GPUs per daemon after ${deadline_s}s: $(api count gpuvet_gpu_utilization_ratio 2>&1)"
  for pid in "${pids[@]}"; do kill -0 "$pid" 2>/dev/null || fail "process $pid exited early"; done
  sleep 1
done
[ "$(api count gpuvet_gpu_temperature_celsius)" = "clean=8 faulty=8" ] || fail "temperatures: $(api count gpuvet_gpu_temperature_celsius)"
[ "$(api count gpuvet_power_usage_watts)" = "clean=8 faulty=8" ] || fail "power: $(api count gpuvet_power_usage_watts)"
echo "samples of 8 GPUs from both daemons after $((SECONDS - start)) s"

# 2. The alert fires for GPU 3 of the faulty daemon.
until api alerts | grep -qx "firing faulty GpuvetUtilizationBelowPeers 3"; do
  [ $((SECONDS - start)) -lt "$deadline_s" ] || fail "GpuvetUtilizationBelowPeers not firing for GPU 3 after ${deadline_s}s: $(api alerts)"
  sleep 1
done
echo "GpuvetUtilizationBelowPeers fires for GPU 3 after $((SECONDS - start)) s"

# 3. Nothing else fires or is pending: not for other GPUs, not on the clean daemon.
others="$(api alerts | grep -vx "firing faulty GpuvetUtilizationBelowPeers 3" || true)"
[ -z "$others" ] || fail "unexpected alerts: $others"
# The daemons' own evaluators agree: utilization_below_peers on GPU 3 of the faulty one, nothing on the clean one.
[ "$(api count 'gpuvet_alert{case="faulty",code="utilization_below_peers",gpu="3"}')" = "faulty=1" ] \
  || fail "the faulty daemon's own gpuvet_alert for GPU 3 is missing"
[ -z "$(api count 'gpuvet_alert{case="clean"}')" ] || fail "the clean daemon raised: $(api count 'gpuvet_alert{case="clean"}')"
[ -z "$(api count 'gpuvet_alert{case="faulty",gpu!="3"}')" ] || fail "the faulty daemon raised alerts for other GPUs"
echo "PASS: only GPU 3 of the faulty daemon alerts ($((SECONDS - start)) s)"
