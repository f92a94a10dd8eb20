// Copy-bandwidth benchmark results (nvbandwidth, CUDA samples' p2pBandwidthLatencyTest, later
// gpuvet's own probes): named matrices of GB/s (or µs for latency), N/A cells kept as absences.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/reading.hpp"

namespace gpuvet::core {

struct BandwidthMatrix {
  // nvbandwidth's testcase key ("host_to_device_memcpy_ce", "device_to_device_memcpy_read_ce",
  // ...); for p2pBandwidthLatencyTest one of "p2p_unidirectional_p2p_disabled",
  // "p2p_unidirectional_p2p_enabled", "p2p_bidirectional_p2p_disabled",
  // "p2p_bidirectional_p2p_enabled", "p2p_latency_gpu_p2p_disabled", "p2p_latency_gpu_p2p_enabled",
  // "p2p_latency_cpu_p2p_disabled", "p2p_latency_cpu_p2p_enabled".
  std::string testcase;
  std::string title;                  // the header line as printed
  std::string unit = "GB/s";          // "GB/s" (1e9 B/s); latency "us" (p2p test) or "ns" (nvbandwidth)
  std::vector<std::string> row_labels;     // "0".."7" (GPU index), or "CPU"/"0" for host rows
  std::vector<std::string> column_labels;
  std::vector<std::vector<Reading<double>>> values;  // [row][column]; N/A -> absent
  Reading<double> printed_sum;        // nvbandwidth's "SUM <testcase> X"
  Reading<std::string> status;        // "WAIVED" or an error the tool printed for this testcase
};

struct BandwidthRun {
  std::string tool;                   // "nvbandwidth" or "p2pBandwidthLatencyTest"
  std::string source;                 // "nvbandwidth (<file>)"
  Reading<std::string> tool_version;
  Reading<std::string> driver_version;
  std::vector<std::string> device_names;          // by CUDA device index
  std::vector<std::string> device_bus_ids;        // by CUDA device index, normalised; "" when not printed
  Reading<std::vector<std::vector<bool>>> p2p_access;  // [i][j]: device i can access j (p2p test)
  std::vector<BandwidthMatrix> matrices;
  std::vector<std::string> notes;     // elided lines, a run that stopped on an assertion, ...
  // The tool's own words that the run failed, quoted with their line ("line 19: ASSERT in
  // expression h_errorFlag == 0 ..."): assertions, data-check miscompares, CUDA errors, crashes.
  std::vector<std::string> failures;
  // Set when the output stops before the tool's own end (a paste cut short, a run stopped): what
  // is not in it ("the testcases after host_to_device_memcpy_ce"). The verdict is then incomplete.
  std::optional<std::string> cut;
};

// What the judge makes of one matrix: its spread and the envelope it expected.
struct BandwidthSummary {
  std::string tool;
  std::string testcase;
  std::string source;
  std::string unit;
  int cells = 0;                       // known cells
  Reading<double> min;
  Reading<double> median;
  Reading<double> max;
  Reading<double> expected_gbps;       // per cell; absent when not judged
  std::string expected_basis;          // how, or why not judged
  Reading<std::string> status;         // WAIVED / error as the tool printed it
};

}  // namespace gpuvet::core
