// decide_burnin_clause: the judge's failures, then the spec's tolerances, then completeness.
#include "accept/burnin_clause.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <string_view>

#include "accept/clauses.hpp"
#include "core/finding_codes.hpp"

namespace gpuvet::accept {
namespace {

namespace code = core::code;

// Findings whose threshold the spec sets with a tolerance; the rest of the judge's failures fail
// the clause as they are.
bool decided_by_tolerance(std::string_view c) {
  return c == code::throttle_reasons || c == code::ecc_errors_new || c == code::xid_event || c == code::nvlink_errors_growing;
}

}  // namespace

void decide_burnin_clause(ClauseResult& c, const SoakOutcome& o) {
  const auto& limits = o.limits;
  const auto& stored = o.stored;
  const auto& judged = o.judged;
  const auto& totals = o.totals;
  const auto& db = o.db;
  const bool has_nvlink = o.has_nvlink;
  if (c.id != clause_id::burnin) return;
  c.unit = "h";
  c.target = limits.duration_s / 3600;
  c.measured = totals.recorded_s / 3600;
  c.observed = fmt::format("{:.2f} h recorded on {} GPUs; throttled {}; {} new uncorrectable ECC; {} Xid; {} new NVLink errors{}",
                           totals.recorded_s / 3600, stored.gpus.size(),
                           totals.throttle_fraction ? fmt::format("{:.1f} % (worst GPU {})", *totals.throttle_fraction * 100, totals.throttle_gpu)
                                                    : std::string("unknown"),
                           totals.ecc_uncorrectable_new ? std::to_string(*totals.ecc_uncorrectable_new) : "unknown",
                           totals.xid_events,
                           totals.nvlink_errors_new ? std::to_string(*totals.nvlink_errors_new) : "not reported",
                           db == ":memory:" ? "" : " (telemetry: " + db + ")");

  std::vector<std::string> failures;
  for (const auto& f : judged.findings) {
    if (f.severity != core::Severity::fail || decided_by_tolerance(f.code)) continue;
    failures.push_back(f.message);
    c.findings.push_back(f.code);
  }
  // A GPU lost or stopped for safety fails the soak whatever Xid count the spec tolerates. It is
  // cited as the code the catalogue gives it: a lost GPU is gpu_missing; a safety stop is the
  // judge's thermal_outlier, except the stop that follows Xid 79 (the GPU fell off the bus).
  for (const auto& e : stored.events) {
    const bool lost = e.kind == core::TelemetryEventKind::gpu_lost;
    if (!lost && e.kind != core::TelemetryEventKind::safety_stop) continue;
    failures.push_back(fmt::format("GPU {} at {:.2f} h: {}", e.gpu, e.t_s / 3600, e.message));
    if (!lost && e.code == 79) continue;
    const std::string_view cited = lost ? code::gpu_missing : code::thermal_outlier;
    if (std::find(c.findings.begin(), c.findings.end(), cited) == c.findings.end()) c.findings.emplace_back(cited);
  }
  auto over = [&](bool exceeded, std::string_view code, std::string message) {
    if (!exceeded) return;
    failures.push_back(std::move(message));
    if (std::find(c.findings.begin(), c.findings.end(), code) == c.findings.end()) c.findings.emplace_back(code);
  };
  std::vector<std::string> unknown;
  auto missing = [&](const std::vector<int>& gpus, const char* what) {
    if (gpus.empty()) return;
    std::string list;
    for (int g : gpus) list += (list.empty() ? "" : ",") + std::to_string(g);
    unknown.push_back(fmt::format("{} of GPU {}", what, list));
  };
  missing(totals.gpus_without_throttle_reasons, "throttle reasons");
  if (totals.throttle_fraction) {
    over(*totals.throttle_fraction > limits.throttle_max_fraction, code::throttle_reasons,
         fmt::format("GPU {} throttled {:.1f} % of the time, more than the {:g} % tolerated", totals.throttle_gpu,
                     *totals.throttle_fraction * 100, limits.throttle_max_fraction * 100));
  }
  // A card without ECC (GeForce) has no uncorrectable-error counter: nothing to count, which is
  // not the same as a counter that could not be read.
  const bool no_ecc = !stored.gpus.empty() && std::all_of(stored.gpus.begin(), stored.gpus.end(), [&](const core::BurninGpu& g) {
    return std::any_of(stored.unsupported.begin(), stored.unsupported.end(), [&](const core::UnsupportedField& u) {
      return u.gpu == g.index && u.field == "ecc_uncorrected";
    });
  });
  // Totals over the GPUs that did report are a lower bound: exceeding the tolerance fails even when
  // some GPU's counter is missing (which alone leaves the clause not run).
  if (no_ecc) {
    c.observed += "; the GPUs have no ECC";
  } else {
    missing(totals.gpus_without_ecc, "uncorrectable ECC counters");
    if (totals.ecc_uncorrectable_new) {
      over(*totals.ecc_uncorrectable_new > static_cast<std::uint64_t>(limits.ecc_uncorrectable_max), code::ecc_errors_new,
           fmt::format("{} new uncorrectable ECC errors, more than the {} tolerated", *totals.ecc_uncorrectable_new,
                       limits.ecc_uncorrectable_max));
    }
  }
  over(totals.xid_events > static_cast<std::uint64_t>(limits.xid_max), code::xid_event,
       fmt::format("{} Xid events, more than the {} tolerated", totals.xid_events, limits.xid_max));
  if (has_nvlink) missing(totals.gpus_without_nvlink, "NVLink error counters");
  if (totals.nvlink_errors_new) {
    over(*totals.nvlink_errors_new > static_cast<std::uint64_t>(limits.nvlink_errors_max), code::nvlink_errors_growing,
         fmt::format("{} new NVLink errors (CRC, recoveries), more than the {} tolerated", *totals.nvlink_errors_new, limits.nvlink_errors_max));
  }
  // Tolerance findings of the judge travel with the clause as evidence when they decided it.
  if (!failures.empty()) {
    c.status = ClauseStatus::fail;
  } else if (o.status != core::BurninStatus::completed || totals.recorded_s + stored.run.interval_s < limits.duration_s) {
    c.reason = fmt::format("the burn-in ended after {:.2f} h of the {:.2f} h the spec requires ({})", totals.recorded_s / 3600,
                           limits.duration_s / 3600, core::to_string(o.status));
  } else if (!judged.unverified.empty() || !unknown.empty()) {
    for (const auto& u : judged.unverified) unknown.push_back(u);
    c.reason = "could not verify: " + fmt::format("{}", fmt::join(unknown, "; "));
  } else {
    c.status = ClauseStatus::pass;
  }
  for (const auto& f : failures) c.reason += (c.reason.empty() ? "" : "; ") + f;
}

}  // namespace gpuvet::accept
