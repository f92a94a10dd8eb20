// Where gpuvet plan's offers come from (CLI wiring, I/O): an offers YAML file, a simulator
// profile (--offer PROFILE: catalogue numbers, no price), or an acceptance bundle directory whose
// verified report.json supplies measured busbw, bandwidth, TFLOP/s and memory.
#pragma once

#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/gpu_model.hpp"
#include "plan/offer.hpp"

namespace gpuvet::cli {

core::Result<plan::Offer> offer_from_profile(const std::string& profile, const core::Catalog& catalog);
core::Result<plan::Offer> offer_from_bundle(const std::string& dir, const core::Catalog& catalog);
// The offers of a YAML file; a `bundle:` path is read relative to the file's directory.
core::Result<std::vector<plan::Offer>> offers_from_file(const std::string& path, const core::Catalog& catalog);

}  // namespace gpuvet::cli
