// The burnin clause decided as a pure function of what the soak left: the stored run, the burn-in
// judge's findings, the spec's totals (throttled time, ECC, Xid, NVLink errors) and how the run
// ended. A failure of the judge fails it; the four tolerance findings fail it only beyond the
// spec's limits; a run cut short or a counter nobody could read leaves it not run.
#pragma once

#include <string>

#include "accept/accept_model.hpp"
#include "analysis/soak_totals.hpp"
#include "core/telemetry.hpp"
#include "spec/spec.hpp"

namespace gpuvet::accept {

struct SoakOutcome {
  const spec::BurninLimits& limits;
  const core::BurninRecord& stored;        // the header, GPUs, events and unsupported fields
  const core::BurninAssessment& judged;    // the streaming judge over the stored samples
  const analysis::SoakTotals& totals;      // the spec's counters over the same pass
  core::BurninStatus status = core::BurninStatus::completed;  // how the soak ended
  std::string db;                          // where the samples are (":memory:" none)
  bool has_nvlink = false;                 // the machine's GPUs have NVLink ports
};

// Decides `c` when it is the burnin clause; other clauses are left as they are.
void decide_burnin_clause(ClauseResult& c, const SoakOutcome& o);

}  // namespace gpuvet::accept
