// The GPU catalogue: profiles/gpus.yaml (embedded in the binary) parsed into core::Catalog.
// Read by the judge (what a model should deliver) and the simulator (what a model reports).
#pragma once

#include <string>
#include <string_view>

#include "core/error.hpp"
#include "core/gpu_model.hpp"

namespace gpuvet::catalog {

// The built-in catalogue, parsed once on first use (thread-safe). The embedded file is validated
// by a test, so a parse failure here is a gpuvet bug: it yields an empty catalogue.
const core::Catalog& gpu_catalog();

// Parses a catalogue in the gpus.yaml schema. Errors (bad_input) name the file, the model and the field.
core::Result<core::Catalog> parse_catalog(std::string_view yaml_text, const std::string& file_name);

}  // namespace gpuvet::catalog
