// Hand-built collective runs for the judge's tests.
#include "test_collectives.hpp"

#include "analysis/judge.hpp"
#include "test_machines.hpp"

namespace gpuvet::analysis::testing {

core::CollectiveRun run(const std::string& op, int ranks, double peak_busbw, std::uint64_t max_bytes,
                        const std::string& device) {
  core::CollectiveRun r;
  r.op = op;
  r.ranks = ranks;
  r.nodes = 1;
  r.source = "test";
  for (int i = 0; i < ranks; ++i) r.device_names.push_back(device);
  for (std::uint64_t size = 1ull << 20; size <= max_bytes; size *= 2) {
    core::CollectiveRow row;
    row.size_bytes = size;
    const double busbw = size == max_bytes ? peak_busbw : peak_busbw * 0.5;
    row.out_of_place.busbw_gbps = busbw;
    row.in_place.busbw_gbps = busbw * 0.99;
    row.out_of_place.wrong = std::int64_t{0};
    row.in_place.wrong = std::int64_t{0};
    r.rows.push_back(row);
  }
  r.printed_avg_busbw_gbps = peak_busbw * 0.6;  // a whole sweep ends with its "# Avg bus bandwidth"
  return r;
}

core::Assessment judge_runs(const std::vector<core::CollectiveRun>& runs) {
  core::Assessment a;
  judge_collectives(runs, core::Machine{}, catalog(), a);
  return a;
}

std::vector<core::Finding> collective_gallery_findings() {
  auto wrong = run("all_reduce", 8, 470);
  wrong.rows.back().in_place.wrong = std::int64_t{3};
  auto multi = run("all_reduce", 16, 300);
  multi.nodes = 2;
  auto failed = run("all_reduce", 8, 300);
  failed.failures = {"line 40: NCCL failure common.cu:1005 'unhandled system error'"};
  auto alone = run("all_reduce", 1, 0);
  alone.separate_runs = 2;
  return judge_runs({run("all_reduce", 8, 300), wrong, multi, run("all_gather", 8, 300, 64ull << 20), failed, alone}).findings;
}

}  // namespace gpuvet::analysis::testing
