// The one device translation unit: nvcc compiles it into gpuvet_kernels.fatbin (SASS for every
// listed architecture plus PTX; cmake/GpuvetCuda.cmake), which gpuvet embeds and loads with
// cuModuleLoadData into each GPU's primary context. Host code never calls a kernel directly:
// kernel_launch.hpp launches them by name with cuLaunchKernel.
#include "backends/cuda/copy_kernels.cu"
#include "backends/cuda/gemm_kernels.cu"
#include "backends/cuda/nccl_kernels.cu"
