// The accept stages that measure copies and memory through an api::CopyBackend (CUDA on a live
// machine, the simulator with --sim): bandwidth decides bandwidth.h2d / bandwidth.p2p, vram
// decides vram. Built by the CLI and handed to make_stages() through StageProviders.
#pragma once

#include <memory>

#include "accept/stage.hpp"
#include "backends/api/copy_backend.hpp"
#include "probes/bandwidth_probe.hpp"

namespace gpuvet::accept {

std::unique_ptr<Stage> make_bandwidth_stage(std::shared_ptr<api::CopyBackend> backend, probes::BandwidthOptions options);
std::unique_ptr<Stage> make_vram_stage(std::shared_ptr<api::CopyBackend> backend);

}  // namespace gpuvet::accept
