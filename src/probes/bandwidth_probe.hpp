// Copy-bandwidth measurements through an api::CopyBackend: the testcases nvbandwidth names
// (host_to_device_memcpy_ce, device_to_device_memcpy_read_ce, ...) plus a few of gpuvet's own
// (far-NUMA host copies, host-staged peer copies, an SM copy of device memory), each a
// core::BandwidthMatrix of medians. Probes observe; analysis judges.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "backends/api/copy_backend.hpp"
#include "core/bandwidth.hpp"

namespace gpuvet::probes {

enum class BandwidthSuite { host, p2p, memory };

struct BandwidthOptions {
  std::vector<int> gpus;                    // CUDA ordinals; empty = every GPU
  std::uint64_t bytes = 512ull << 20;       // per copy (nvbandwidth's default buffer)
  int repeats = 16;                         // copies per sample (nvbandwidth's loop count)
  int samples = 5;                          // the median of these is reported
  std::chrono::milliseconds timeout{20000};  // per sample
  // Called before each testcase with its key; for progress lines.
  std::function<void(const std::string&)> on_testcase;
};

// Runs every testcase of the suite. A cell whose samples fail is absent with the backend's own
// words; a testcase that cannot run at all (one GPU for a peer test, one NUMA node for a far
// row) keeps its matrix with a status saying why. Fails only when the backend cannot list GPUs
// or `gpus` names one that does not exist.
core::Result<core::BandwidthRun> run_bandwidth_suite(api::CopyBackend& backend, BandwidthSuite suite,
                                                     const BandwidthOptions& options);

}  // namespace gpuvet::probes
