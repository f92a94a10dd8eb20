// Reads the live machine through NVML: every GPU field NVML can give, the driver and CUDA
// versions, and the GPU x GPU link matrix (NV# from NVLink, PCIe path otherwise). Called once per
// run from the probes/CLI on the main thread. NICs and NUMA nodes are left to the sysfs backend.
#pragma once

#include <string>

#include "core/error.hpp"
#include "core/machine.hpp"

namespace gpuvet::nvml {

// $GPUVET_NVML_LIBRARY when set, else "libnvidia-ml.so.1".
std::string default_library_name();

// Loads `library_name` (soname or path), initialises NVML, reads everything, shuts NVML down.
// Environment error when the library cannot be loaded, lacks a required symbol, or nvmlInit fails
// (NVML's words included). Per-reading problems are absences with reasons, never errors; a GPU
// that falls off the bus keeps its earlier readings and gets a machine note.
core::Result<core::Machine> read_machine(const std::string& library_name);

}  // namespace gpuvet::nvml
