// Factories of the CUDA backend and what `gpuvet --version` reports about CUDA. In a build
// without the CUDA toolkit each factory returns an environment error saying so
// (cuda_unavailable.cpp), so callers need no #ifdef.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "backends/api/copy_backend.hpp"
#include "core/error.hpp"

namespace gpuvet::cuda {

// Whether this binary was built with the CUDA probes.
bool built_with_cuda();

// Copies and memory on the GPUs the CUDA driver sees (libcuda.so.1, or $GPUVET_CUDA_LIBRARY).
// Environment error when there is no driver, it is older than CUDA 12.0, or there is no GPU,
// naming the library, the driver found and what the driver said.
core::Result<std::unique_ptr<api::CopyBackend>> make_copy_backend();

// One line of `gpuvet --version`.
struct VersionLine {
  std::string component;  // "CUDA driver"
  std::string detail;     // "570.124.06 (CUDA 12.8), libcuda.so.1" or "not found (...)"
};

// What this binary's CUDA probes were built with; loads nothing.
std::vector<VersionLine> build_versions();

// What this machine offers: the CUDA driver (release and CUDA version; the driver is not
// initialised), NCCL and cuBLAS (their versions; no GPU needed), each "not found (why)" when
// absent. Never fails; only dlopen and version queries, so it is fast. Main thread.
std::vector<VersionLine> runtime_versions();

}  // namespace gpuvet::cuda
