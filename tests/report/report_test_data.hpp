// A small accept report for renderer tests: one passing, one failing, one not-run clause, a
// finding, a heatmap and a burn-in series.
#pragma once

#include "accept/accept_model.hpp"

namespace gpuvet::report::testing {

inline accept::AcceptReport sample_report() {
  accept::AcceptReport r;
  r.tool_version = "0.1.0";
  r.spec_name = "hgx-h100-8x";
  r.spec_file = "spec.yaml";
  r.machine_source = "simulated: hgx-h100-8x";
  r.simulated = true;
  r.hostname = "sim <host> & co";
  r.driver_version = "565.57.01";
  r.cuda_version = "12.7";
  r.started_utc = "2026-01-01T00:00:00Z";
  r.finished_utc = "2026-01-01T00:00:09Z";
  accept::StageRecord inv{"inventory", "GPU inventory", accept::StageStatus::done, "", 0.01, false, {}, {}, {}, {}, {}};
  accept::ClauseResult count;
  count.id = "gpu.count";
  count.title = "GPU count";
  count.expected = "8 GPUs";
  count.observed = "8 GPUs";
  count.stage = "inventory";
  count.source = "spec line 8";
  count.status = accept::ClauseStatus::pass;
  accept::ClauseResult batch = count;
  batch.id = "gpu.same_batch";
  batch.title = "Same batch";
  batch.status = accept::ClauseStatus::fail;
  batch.reason = "vbios differs: <96.00.74> on GPU 0,1 | 96.00.61 on GPU 5";
  batch.findings = {"mixed_inventory"};
  inv.clauses = {count, batch};
  inv.findings.push_back({"mixed_inventory", core::Severity::warn, {5}, "GPU 5 runs VBIOS 96.00.61", {{"vbios", "96.00.61"}},
                          "Ask the provider to align firmware"});
  accept::StageRecord bw{"bandwidth", "Copy bandwidth", accept::StageStatus::done, "", 2.0, false, {}, {}, {}, {}, {}};
  accept::ClauseResult h2d = count;
  h2d.id = "bandwidth.h2d";
  h2d.stage = "bandwidth";
  h2d.status = accept::ClauseStatus::not_run;
  h2d.reason = "not built into this binary yet";
  bw.clauses = {h2d};
  bw.heatmaps.push_back({"P2P read", "GB/s", {"GPU0", "GPU1"}, {"GPU0", "GPU1"}, {{std::nullopt, 380.0}, {150.0, std::nullopt}}, 390.0});
  accept::StageRecord burn{"burnin", "Burn-in", accept::StageStatus::done, "", 3.0, false, {}, {}, {}, {}, {}};
  burn.series.push_back({"Temperature", "C", {"GPU0", "GPU1"}, {{{0, 35}, {600, 71}, {1200, 83}}, {{0, 36}, {1200, 70}}},
                         {{900, 1100}}, {{1000, "XID 79 GPU 0"}}});
  r.stages = {inv, bw, burn};
  r.other_findings.push_back({"throttle_active", core::Severity::warn, {2}, "GPU 2 clocks held back: HW slowdown", {},
                              "Check cooling"});
  r.verdict = accept::decide(r.stages, r.why);
  return r;
}

}  // namespace gpuvet::report::testing
