// What pasted benchmark logs left unjudged: a run with no result, or cut short, is not a pass, and
// logs alone pass a machine only when at least one of their results was compared with an envelope.
#include <fmt/format.h>

#include "analysis/judge.hpp"

namespace gpuvet::analysis {

namespace {

constexpr std::uint64_t kPlateauBytes = 1ull << 30;  // as collective_rules.cpp

bool judged(const core::CollectiveSummary& s) {
  return s.expected_busbw_gbps && s.peak_busbw_gbps && s.max_size_bytes && *s.max_size_bytes >= kPlateauBytes;
}

bool judged(const core::BandwidthSummary& s) { return s.expected_gbps && s.cells > 0; }

bool has_values(const core::BandwidthRun& run) {
  for (const auto& mx : run.matrices) {
    if (!mx.values.empty()) return true;
  }
  return false;
}

}  // namespace

void judge_benchmark_coverage(const std::vector<core::CollectiveRun>& collectives,
                              const std::vector<core::BandwidthRun>& bandwidth, bool machine_described,
                              core::Assessment& assessment) {
  bool failed = false;
  for (const auto& run : collectives) {
    failed = failed || !run.failures.empty();
    if (run.rows.empty() && run.failures.empty()) {
      assessment.unverified.push_back(fmt::format("{}: no result row: the run hung, was cut, or only its header was "
                                                  "pasted; nothing was measured",
                                                  run.source));
    }
  }
  for (const auto& run : bandwidth) {
    failed = failed || !run.failures.empty();
    // Capability views (topo -p2p) carry no measurement to miss; the benchmarks do.
    const bool benchmark = run.tool == "nvbandwidth" || run.tool == "p2pBandwidthLatencyTest";
    if (benchmark && !has_values(run) && run.failures.empty()) {
      assessment.unverified.push_back(fmt::format("{}: no measured value (only device lists, SUM totals, waived or "
                                                  "unfinished testcases)",
                                                  run.source));
    } else if (run.cut) {
      // A run cut short cannot pass the machine on the testcases before the cut.
      assessment.unverified.push_back(fmt::format("{}: {}", run.source, *run.cut));
    }
  }
  if (machine_described || failed) return;
  int count = 0;
  for (const auto& s : assessment.collectives) count += judged(s) ? 1 : 0;
  for (const auto& s : assessment.bandwidth) count += judged(s) ? 1 : 0;
  if (count > 0) return;
  assessment.unverified.push_back(
      "only benchmark logs were given and none of their results could be compared with what the machine should reach "
      "(see each result's basis): the machine is not judged; give nvidia-smi topo -m and nvidia-smi -q of it, and run "
      "nccl-tests up to 8-16 GiB");
}

}  // namespace gpuvet::analysis
