// The kernels' fatbin embedded in the binary at build time (embedded_kernels.cpp, from the
// gpuvet_kernels.fatbin that nvcc writes; cmake/GpuvetCuda.cmake) and its table of contents,
// read from the fatbin itself so that `--version` and errors say what was really shipped.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace gpuvet::cuda {

// The fatbin's bytes (the image cuModuleLoadData takes).
const unsigned char* embedded_fatbin();
std::size_t embedded_fatbin_size();

struct FatbinImage {
  bool ptx = false;  // PTX for a virtual architecture, else SASS (an ELF cubin)
  int arch = 0;      // 80 for sm_80 / compute_80
  int ptx_major = 0; // PTX ISA version of a PTX image (9.0 for CUDA 13.0)
  int ptx_minor = 0;
};

// The images listed in a fatbin's header; empty when the bytes are not a fatbin.
std::vector<FatbinImage> list_fatbin(const unsigned char* data, std::size_t size);

// "SASS sm_80 sm_86 sm_89 sm_90 sm_100 sm_120, PTX compute_80 (ISA 9.0)"
std::string describe_fatbin(const std::vector<FatbinImage>& images);

// The nvcc release that compiled the kernels ("13.0.88").
const char* kernel_toolkit_version();

}  // namespace gpuvet::cuda
