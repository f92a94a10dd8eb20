// VRAM verification judged: memory that does not hold its bits, memory that is not there.
#include <fmt/format.h>

#include <algorithm>

#include "analysis/judge.hpp"
#include "analysis/finding_codes.hpp"
#include "analysis/rule_support.hpp"

namespace gpuvet::analysis {
namespace {

constexpr double kGiB = 1073741824.0;
// A CUDA context and the driver hold 0.5-1 GiB; the probe leaves a reserve and allocates in
// chunks. Beyond max(2 GiB, 5 % of the total) missing, the memory is not there.
constexpr double kShortMinGiB = 2.0;
constexpr double kShortShare = 0.05;

std::string gib(std::uint64_t bytes) { return fmt::format("{:.2f} GiB", static_cast<double>(bytes) / kGiB); }

}  // namespace

void judge_vram(const core::VramRun& run, core::Assessment& assessment) {
  for (const auto& check : run.gpus) {
    if (!check.miscompares.empty()) {
      std::vector<std::string> parts;
      std::uint64_t first = check.miscompares.front().first_offset;
      std::uint64_t last = check.miscompares.front().last_offset;
      for (const auto& m : check.miscompares) {
        first = std::min(first, m.first_offset);
        last = std::max(last, m.last_offset);
        parts.push_back(fmt::format("{}: {} words at {:#x}-{:#x}", m.pattern, m.words, m.first_offset, m.last_offset));
      }
      const std::string where = last + 8 - first < (1u << 20)
                                    ? fmt::format("at {} ({} KiB region)", gib(first), (last + 8 - first + 1023) / 1024)
                                    : fmt::format("between {} and {}", gib(first), gib(last + 8));
      auto f = make_finding(code::vram_errors, core::Severity::fail, {check.gpu},
                            fmt::format("GPU {} ({}): memory read back wrong {} into the tested range", check.gpu,
                                        check.name, where));
      f.evidence = {{"miscompares", fmt::format("{}", fmt::join(parts, "; "))}, {"seed", fmt::format("{:#x}", run.seed)}};
      assessment.findings.push_back(std::move(f));
    }
    if (check.error) {
      const std::string tested = check.tested_bytes ? gib(*check.tested_bytes) + " tested" : "nothing tested";
      assessment.unverified.push_back(
          fmt::format("VRAM of GPU {} not fully verified ({}): {}", check.gpu, tested, *check.error));
      continue;
    }
    if (!check.total_bytes || !check.tested_bytes) continue;
    const double total = static_cast<double>(*check.total_bytes);
    const double tested = static_cast<double>(*check.tested_bytes);
    const double allowed_gap = std::max(kShortMinGiB * kGiB, kShortShare * total);
    if (total - tested <= allowed_gap) continue;
    auto f = make_finding(code::vram_short, core::Severity::fail, {check.gpu},
                          fmt::format("GPU {} ({}): only {} of the {} it reports could be allocated and verified", check.gpu,
                                      check.name, gib(*check.tested_bytes), gib(*check.total_bytes)));
    f.evidence = {{"usable", gib(*check.tested_bytes)},
                  {"reported", gib(*check.total_bytes)},
                  {"allowed gap", fmt::format("{:.2f} GiB (max of 2 GiB and 5 %)", allowed_gap / kGiB)}};
    assessment.findings.push_back(std::move(f));
  }
}

}  // namespace gpuvet::analysis
