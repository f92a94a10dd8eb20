// The accept stage that runs NCCL collectives through an api::CollectiveBackend (NCCL on a live
// machine, the collective model with --sim) and decides collectives.<op>.<n> and
// collectives.scaling. Built by the CLI and handed to make_stages() through StageProviders.
#pragma once

#include <functional>
#include <memory>
#include <vector>

#include "accept/stage.hpp"
#include "backends/api/collective_backend.hpp"
#include "core/collective.hpp"

namespace gpuvet::accept {

struct CollectiveStageOptions {
  // Quick: disjoint pairs and 4-GPU subsets (each GPU once) instead of all of them, fewer
  // iterations. Full: every pair and every 4-GPU subset (a covering sample above 8 GPUs).
  bool quick = false;
  double timeout_s = 120;  // per sample; a hung collective fails its clause, never hangs the run
  // Live progress: each size as it is measured (the CLI draws it on a terminal). Empty: quiet.
  std::function<void(api::CollectiveOp op, const std::vector<int>& gpus, const core::CollectiveRow& row)> on_row{};
};

std::unique_ptr<Stage> make_collectives_stage(std::shared_ptr<api::CollectiveBackend> backend,
                                              CollectiveStageOptions options);

}  // namespace gpuvet::accept
