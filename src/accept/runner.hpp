// Runs the stages in registry order on the calling thread: resumed measuring stages are taken
// from an earlier run's state (quick gates never are: they are observed again), --quick skips
// long-running stages, --fail-fast stops after the first failing stage, and a stage that throws
// becomes an error record. Every clause a stage leaves
// undecided stays not_run, so the verdict is incomplete (fail-closed).
#pragma once

#include <functional>
#include <memory>
#include <vector>

#include "accept/stage.hpp"
#include "analysis/judge.hpp"

namespace gpuvet::accept {

struct RunOptions {
  bool quick = false;
  bool fail_fast = false;
};

struct RunHooks {
  std::function<void(const Stage&, size_t index, size_t total)> started;  // progress
  std::function<void(const StageRecord&)> finished;                      // progress, save state
  std::function<double()> seconds_now;                                    // monotonic clock; none: 0
};

std::vector<StageRecord> run_stages(const std::vector<std::unique_ptr<Stage>>& stages, const StageContext& ctx,
                                    const RunOptions& options, const std::vector<StageRecord>& resumed,
                                    const RunHooks& hooks);

// What the judge should expect of the machine, from the spec.
analysis::Expectations expectations_of(const spec::Spec& spec);

}  // namespace gpuvet::accept
