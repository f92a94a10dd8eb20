// bandwidth: the lowest known cell of the clause's testcases against the floor or the envelope;
// vram: per GPU verified memory and miscompares. A measurement that produced nothing leaves its
// clause not run, so the verdict cannot pass on it.
#include "accept/copy_clauses.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <initializer_list>
#include <limits>
#include <string_view>

#include "accept/clauses.hpp"
#include "accept/promised_envelope.hpp"
#include "core/copy_testcases.hpp"
#include "core/finding_codes.hpp"

namespace gpuvet::accept {
namespace {

struct Spread {
  double min = std::numeric_limits<double>::infinity();
  std::string where;
  std::string testcase;  // of the lowest cell
  int cells = 0;
};

bool listed(std::initializer_list<std::string_view> list, std::string_view item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

// Lowest known cell of the testcases (GPU pairs off the diagonal).
Spread lowest(const core::BandwidthRun& run, std::initializer_list<std::string_view> testcases) {
  Spread s;
  for (const auto& mx : run.matrices) {
    if (!listed(testcases, mx.testcase)) continue;
    for (std::size_t r = 0; r < mx.values.size(); ++r) {
      for (std::size_t c = 0; c < mx.values[r].size(); ++c) {
        if (!mx.values[r][c]) continue;
        ++s.cells;
        if (*mx.values[r][c] < s.min) {
          s.min = *mx.values[r][c];
          s.where = fmt::format("{} {}->{}", mx.testcase, mx.row_labels[r], mx.column_labels[c]);
          s.testcase = mx.testcase;
        }
      }
    }
  }
  return s;
}

// `promised`: what the spec's machine delivers on this path, the target of an `auto` clause when
// known (the delivered machine's own envelope otherwise). `codes`: the findings that bear on it.
void decide(ClauseResult& c, const Spread& spread, const std::optional<double>& floor, const PromisedEnvelope& promised,
            const core::Assessment& a, std::initializer_list<std::string_view> codes, const std::string& what) {
  if (spread.cells == 0) {
    c.status = ClauseStatus::not_run;
    c.reason = "no " + what + " measurement succeeded";
    return;
  }
  c.measured = spread.min;
  c.observed = fmt::format("lowest {:.1f} GB/s ({})", spread.min, spread.where);
  std::vector<std::string> failures;
  for (const auto& f : a.findings) {
    if (!listed(codes, f.code)) continue;
    if (std::find(c.findings.begin(), c.findings.end(), f.code) == c.findings.end()) c.findings.push_back(f.code);
    // With a floor the spec decides the numbers; "auto" fails on anything below the envelope.
    // Missing P2P and a failed copy fail either way: a cell that could not be measured is no pass.
    const bool always = f.code == core::code::p2p_unavailable || f.code == core::code::benchmark_failed;
    if ((!floor || always) && f.severity != core::Severity::info) failures.push_back(f.message);
  }
  if (!floor) {
    // `auto`: the promised machine's envelope when the spec fixes it, else the envelope of the
    // lowest cell's testcase on this machine.
    std::optional<double> own;
    for (const auto& b : a.bandwidth) {
      if (b.testcase == spread.testcase && b.expected_gbps) own = *b.expected_gbps;
    }
    c.target = promised.gbps ? std::optional<double>(*promised.gbps) : own;
    if (promised.gbps && spread.min < *promised.gbps * kPromisedCopyFailShare) {
      failures.push_back(fmt::format("{:.1f} GB/s is below {:.0f} % of the {:.1f} GB/s the promised machine delivers ({}){}",
                                     spread.min, kPromisedCopyFailShare * 100, *promised.gbps, promised.basis,
                                     own ? fmt::format("; this machine's own envelope is {:.1f} GB/s", *own) : ""));
    }
  }
  if (floor) {
    c.target = *floor;
    if (spread.min < *floor) failures.push_back(fmt::format("{:.1f} GB/s is below the floor of {:g} GB/s", spread.min, *floor));
  }
  c.status = failures.empty() ? ClauseStatus::pass : ClauseStatus::fail;
  for (const auto& f : failures) c.reason += (c.reason.empty() ? "" : "; ") + f;
}

}  // namespace

void decide_bandwidth_clause(ClauseResult& c, const CopySuiteOutcome& host, const CopySuiteOutcome& peer,
                             const spec::Spec& spec, const core::Catalog& catalog) {
  namespace tc = core::testcase;
  namespace code = core::code;
  if (c.id == clause_id::bandwidth_h2d) {
    decide(c, lowest(host.run, {tc::host_to_device_memcpy_ce, tc::device_to_host_memcpy_ce}), spec.h2d_gbps->value,
           promised_host_copy(spec, catalog), host.judged,
           {code::bandwidth_below_expected, code::host_copy_far_numa_faster, code::benchmark_failed}, "host<->device");
  } else if (c.id == clause_id::bandwidth_p2p) {
    decide(c, lowest(peer.run, {tc::device_to_device_memcpy_read_ce, tc::device_to_device_memcpy_write_ce}),
           spec.p2p_gbps->value, promised_peer_copy(spec, catalog), peer.judged,
           {code::bandwidth_below_expected, code::p2p_unavailable, code::benchmark_failed}, "peer copy");
  }
}

void decide_vram_clause(ClauseResult& c, const core::VramRun& run, const std::vector<core::Finding>& findings,
                        const spec::Spec& spec) {
  if (c.id != clause_id::vram) return;
  if (!spec.memory_gib) {
    c.reason = "the spec states no memory per GPU to compare with";
    return;
  }
  const double advertised = spec.memory_gib->value;
  const double fraction = spec.vram_min_fraction->value;
  c.target = advertised * fraction;
  double lowest_gib = std::numeric_limits<double>::infinity();
  // In the order the GPUs were checked; `machine` tells a bad GPU from one we could not verify.
  struct Problem {
    std::string text;
    bool machine = false;
  };
  std::vector<Problem> problems;
  for (const auto& check : run.gpus) {
    if (check.error || !check.tested_bytes) {
      problems.push_back({fmt::format("GPU {} not verified: {}", check.gpu, check.error.value_or("no result")), false});
      continue;
    }
    const double gib = static_cast<double>(*check.tested_bytes) / 1073741824.0;
    lowest_gib = std::min(lowest_gib, gib);
    if (!check.miscompares.empty()) problems.push_back({fmt::format("GPU {}: memory reads back wrong", check.gpu), true});
    if (gib < advertised * fraction) {
      problems.push_back(
          {fmt::format("GPU {}: {:.2f} GiB usable, below {:g} % of {:g}", check.gpu, gib, fraction * 100, advertised), true});
    }
  }
  for (const auto& f : findings) c.findings.push_back(f.code);
  if (lowest_gib < std::numeric_limits<double>::infinity()) {
    c.measured = lowest_gib;
    c.observed = fmt::format("lowest {:.2f} GiB usable and verified", lowest_gib);
  }
  const bool failed = std::any_of(problems.begin(), problems.end(), [](const Problem& p) { return p.machine; });
  const bool unverified = std::any_of(problems.begin(), problems.end(), [](const Problem& p) { return !p.machine; });
  c.status = failed ? ClauseStatus::fail : unverified ? ClauseStatus::not_run : ClauseStatus::pass;
  for (const auto& p : problems) c.reason += (c.reason.empty() ? "" : "; ") + p.text;
}

}  // namespace gpuvet::accept
