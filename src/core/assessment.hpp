// What the judge concludes about a machine: its interconnect class with the reasoning, the
// bandwidth that class implies, and the findings. Produced by analysis/, rendered by report/.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/bandwidth.hpp"
#include "core/collective.hpp"
#include "core/finding.hpp"
#include "core/reading.hpp"

namespace gpuvet::core {

enum class InterconnectClass { nvswitch_full_mesh, nvlink_direct_full_mesh, nvlink_partial, pcie_only, unknown };
std::string_view to_string(InterconnectClass cls);
// Accepts the underscore names and the hyphenated ones (nvswitch-full-mesh), plus the short
// claims a buyer writes: nvswitch, nvlink (any NVLink full mesh), pcie.
bool parse_interconnect_claim(std::string_view text, InterconnectClass& out, bool& any_nvlink_mesh);

struct InterconnectSummary {
  InterconnectClass cls = InterconnectClass::unknown;
  std::string reasoning;                   // why this class, in one or two sentences
  Reading<double> gpu_bandwidth_gbps;      // per GPU per direction the fabric should deliver
  std::string headline;                    // "8x H100, NVSwitch full mesh: 450 GB/s per GPU ..."
  bool inferred = false;                   // a likely class, not observed: cannot confirm a claim
};

struct Assessment {
  InterconnectSummary interconnect;
  std::vector<Finding> findings;
  // Expectations the user stated that the machine picture could not confirm or refute (e.g.
  // --expect-memory when no source reports memory). Any entry makes the verdict incomplete.
  std::vector<std::string> unverified;
  // One entry per collective benchmark run that was judged (nccl-tests logs, gpuvet nccl).
  std::vector<CollectiveSummary> collectives;
  // One entry per copy-bandwidth matrix that was read (nvbandwidth, p2pBandwidthLatencyTest).
  std::vector<BandwidthSummary> bandwidth;
};

}  // namespace gpuvet::core
