// Runs the backend's VRAM check GPU by GPU and keeps every outcome, failures included.
#include "probes/vram_probe.hpp"

#include <fmt/format.h>

namespace gpuvet::probes {

core::Result<core::VramRun> run_vram_check(api::CopyBackend& backend, const VramOptions& options) {
  auto devices = backend.devices();
  if (!devices) return devices.error();
  if (devices->empty()) return core::environment_error("no GPU is visible to the copy backend");
  std::vector<int> gpus = options.gpus;
  for (int g : gpus) {
    if (g < 0 || g >= static_cast<int>(devices->size())) {
      return core::usage_error(fmt::format("--gpus names GPU {}, but this machine has GPUs 0-{}", g, devices->size() - 1));
    }
  }
  if (gpus.empty()) {
    for (const auto& d : *devices) gpus.push_back(d.ordinal);
  }
  core::VramRun run;
  run.source = fmt::format("gpuvet bench vram ({})", backend.describe());
  run.seed = options.seed;
  for (int g : gpus) {
    if (options.on_gpu) options.on_gpu(g);
    auto check = backend.verify_vram({g, options.seed, options.reserve_bytes, options.timeout});
    if (check) {
      run.gpus.push_back(std::move(check).value());
      continue;
    }
    core::VramCheck failed;
    failed.gpu = g;
    failed.name = (*devices)[static_cast<std::size_t>(g)].name;
    failed.total_bytes = core::Reading<std::uint64_t>::absent("check did not run");
    failed.tested_bytes = core::Reading<std::uint64_t>::absent("check did not run");
    failed.error = check.error().message;
    run.gpus.push_back(std::move(failed));
  }
  return run;
}

}  // namespace gpuvet::probes
