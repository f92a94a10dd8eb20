// GPU health counters: row remapping, retired pages, and clocks held back by active
// clocks-event (throttle) reasons. Unknown counters are not judged.
#include <algorithm>
#include <map>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "analysis/finding_codes.hpp"
#include "analysis/rules.hpp"

namespace gpuvet::analysis {
namespace {

using core::Severity;

std::string count_or_na(const core::Reading<int>& r) { return r ? std::to_string(*r) : "n/a"; }

// Reasons that mean the hardware itself is slowing the GPU (heat, power delivery).
bool hardware_reason(std::string_view reason) {
  return contains_nocase(reason, "hw ") || contains_nocase(reason, "hw_") || contains_nocase(reason, "thermal") ||
         contains_nocase(reason, "power brake");
}

void check_memory_health(const core::Gpu& gpu, std::vector<core::Finding>& out) {
  const auto& h = gpu.memory_health;
  const int correctable = h.remapped_rows_correctable.value_or(0);
  const int uncorrectable = h.remapped_rows_uncorrectable.value_or(0);
  const std::vector<std::pair<std::string, std::string>> remap_evidence = {
      {"remapped_rows_correctable", count_or_na(h.remapped_rows_correctable)},
      {"remapped_rows_uncorrectable", count_or_na(h.remapped_rows_uncorrectable)},
      {"remap_pending", h.remap_pending ? (*h.remap_pending ? "yes" : "no") : "n/a"},
      {"remap_failure", h.remap_failure ? (*h.remap_failure ? "yes" : "no") : "n/a"},
  };
  if (known_true(h.remap_pending)) {
    auto f = make_finding(code::row_remap_pending, Severity::fail, {gpu.index},
                          fmt::format("GPU {} has a row remap pending: it needs a reset before its memory is "
                                      "trustworthy",
                                      gpu.index));
    f.evidence = remap_evidence;
    out.push_back(std::move(f));
  }
  if (known_true(h.remap_failure)) {
    auto f = make_finding(code::row_remap_failure, Severity::fail, {gpu.index},
                          fmt::format("GPU {} failed to remap a memory row: the GPU should be replaced", gpu.index));
    f.evidence = remap_evidence;
    out.push_back(std::move(f));
  }
  if ((correctable > 0 || uncorrectable > 0) && !known_true(h.remap_pending) && !known_true(h.remap_failure)) {
    auto f = make_finding(code::remapped_rows, Severity::info, {gpu.index},
                          fmt::format("GPU {} has remapped {} memory row{} ({} correctable, {} uncorrectable); "
                                      "nothing pending",
                                      gpu.index, correctable + uncorrectable,
                                      correctable + uncorrectable == 1 ? "" : "s", correctable, uncorrectable));
    f.evidence = remap_evidence;
    out.push_back(std::move(f));
  }
  const int retired = h.retired_pages_sbe.value_or(0) + h.retired_pages_dbe.value_or(0);
  const bool pending = known_true(h.retired_pages_pending);
  if (retired > 0 || pending) {
    auto f = make_finding(code::retired_pages, pending ? Severity::fail : Severity::warn, {gpu.index},
                          pending ? fmt::format("GPU {} has a page retirement pending a reboot ({} pages retired)",
                                                gpu.index, retired)
                                  : fmt::format("GPU {} has retired {} memory page{}", gpu.index, retired,
                                                retired == 1 ? "" : "s"));
    f.evidence = {{"retired_pages_sbe", count_or_na(h.retired_pages_sbe)},
                  {"retired_pages_dbe", count_or_na(h.retired_pages_dbe)},
                  {"retired_pages_pending", h.retired_pages_pending ? (pending ? "yes" : "no") : "n/a"}};
    out.push_back(std::move(f));
  }
}

// A count since the last reset (nvidia-smi -q "Replays Since Reset"): no time base, so no rate to
// hold against DCGM's 8 per minute (the burn-in and the monitor have one); any replay warns.
void check_pcie_replays(const core::Gpu& gpu, std::vector<core::Finding>& out) {
  if (!gpu.pcie.replays || *gpu.pcie.replays <= 0) return;
  const int n = *gpu.pcie.replays;
  auto f = make_finding(code::pcie_replays, Severity::warn, {gpu.index},
                        fmt::format("GPU {} shows {} PCIe replay{} since the last reset; a static paste shows a count, "
                                    "not the rate DCGM's limit (8 per minute) is about: run gpuvet monitor or burn-in "
                                    "to see whether it grows",
                                    gpu.index, n, n == 1 ? "" : "s"));
  f.evidence = {{"replays_since_reset", std::to_string(n)}};
  out.push_back(std::move(f));
}

}  // namespace

std::vector<core::Finding> check_health(const RuleContext& ctx) {
  std::vector<core::Finding> out;
  for (const auto& gpu : ctx.machine.gpus) check_memory_health(gpu, out);
  for (const auto& gpu : ctx.machine.gpus) check_pcie_replays(gpu, out);

  // GPUs with the same active reasons share one finding.
  std::map<std::vector<std::string>, std::vector<int>> by_reasons;
  for (const auto& gpu : ctx.machine.gpus) {
    if (!gpu.clocks_event_reasons) continue;
    std::vector<std::string> reasons;
    for (const auto& r : *gpu.clocks_event_reasons) {
      if (!contains_nocase(r, "idle")) reasons.push_back(r);
    }
    if (reasons.empty()) continue;
    std::sort(reasons.begin(), reasons.end());
    by_reasons[reasons].push_back(gpu.index);
  }
  for (const auto& [reasons, gpus] : by_reasons) {
    const bool hardware = std::any_of(reasons.begin(), reasons.end(), hardware_reason);
    auto f = make_finding(code::throttle_active, hardware ? Severity::warn : Severity::info, gpus,
                          fmt::format("{} report{} clocks held back: {}", describe_gpus(gpus),
                                      gpus.size() == 1 ? "s" : "", fmt::join(reasons, ", ")));
    f.evidence = {{"active reasons", fmt::format("{}", fmt::join(reasons, ", "))}};
    out.push_back(std::move(f));
  }
  return out;
}

}  // namespace gpuvet::analysis
