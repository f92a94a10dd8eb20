// The NCCL collective backend: libnccl.so.2 loaded with dlopen, one process driving every local
// GPU (ncclCommInitAll), CUDA events per iteration, a kernel counting wrong elements, and a
// timeout that aborts the communicators instead of hanging. In a build without the CUDA toolkit
// the factory returns an environment error (nccl_unavailable.cpp).
#pragma once

#include <memory>
#include <string>

#include "backends/api/collective_backend.hpp"
#include "core/error.hpp"

namespace gpuvet::cuda {

// `library`: soname or path of libnccl (the CLI passes $GPUVET_NCCL_LIBRARY or libnccl.so.2).
// Environment error when the CUDA driver, a GPU or NCCL is missing, naming what was tried.
core::Result<std::unique_ptr<api::CollectiveBackend>> make_nccl_backend(const std::string& library);

}  // namespace gpuvet::cuda
