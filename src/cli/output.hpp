// Judges a machine, renders it (text or JSON) and returns the exit code for its verdict.
#pragma once

#include <string>
#include <vector>

#include "analysis/judge.hpp"
#include "cli/app.hpp"
#include "core/bandwidth.hpp"
#include "core/collective.hpp"
#include "core/machine.hpp"

namespace gpuvet::cli {

// Benchmark logs given with the machine description.
struct Benchmarks {
  std::vector<core::CollectiveRun> collectives;
  std::vector<core::BandwidthRun> bandwidth;
  bool machine_described = true;  // false: only logs were given (analyze); they must judge something to pass
};

core::ExitCode judge_and_render(const std::string& command, const core::Machine& machine,
                                const analysis::Expectations& expect, bool json, Streams& streams,
                                const Benchmarks& runs = {});

}  // namespace gpuvet::cli
