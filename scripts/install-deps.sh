#!/usr/bin/env bash
# Installs gpuvet's build and test dependencies from Debian 12 packages. Idempotent: packages
# already present are left alone, so it is safe to re-run. Needs root (or sudo) for apt-get.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config
  libfmt-dev libcli11-dev nlohmann-json3-dev libpugixml-dev libyaml-cpp-dev
  libgtest-dev libgmock-dev
  libsqlite3-dev libbenchmark-dev
  libcpp-httplib-dev  # gpuvet monitor: HTTP endpoint (/metrics, /alerts, /healthz)
  prometheus  # tests: promtool check metrics/rules and a real Prometheus scraping gpuvet monitor
  libssl-dev chromium
  libopenmpi-dev openmpi-bin
  python3
  clang-14 libclang-rt-14-dev  # scripts/fuzz.sh, scripts/sanitize.sh: clang++-14, libFuzzer, ASan and UBSan runtimes
  clang-format-14 clang-tidy-14  # scripts/check-style.sh
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages already installed"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
echo "install-deps: installing ${missing[*]}"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
