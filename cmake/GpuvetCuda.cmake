# Finds nvcc for gpuvet's CUDA kernels (included from the top-level CMakeLists.txt).
#
# gpuvet links no CUDA library: the kernels of src/backends/cuda are compiled by nvcc into one
# fatbin that is embedded in the binary, and the driver (libcuda.so.1), cuBLAS and NCCL are
# opened with dlopen at run time (docs/compatibility.md). So nvcc is the only build dependency,
# and CMake's CUDA language is not enabled.
#
# Sets GPUVET_HAVE_CUDA, GPUVET_NVCC, GPUVET_NVCC_VERSION (e.g. 13.0.88), GPUVET_CUDA_INCLUDE_DIR,
# GPUVET_CUDA_SASS_ARCHS and GPUVET_CUDA_PTX_ARCH.
#   -DGPUVET_CUDA=OFF or -DCMAKE_DISABLE_FIND_PACKAGE_CUDAToolkit=ON: build without CUDA probes.
#   -DGPUVET_NVCC=/usr/local/cuda-12.8/bin/nvcc: compile the kernels with another toolkit.

# SASS for every architecture gpuvet claims (A100, A10/RTX 30, L40S/RTX 40, H100/H200,
# B200/GB200, RTX 50/RTX PRO 6000 Blackwell) because the PTX a CUDA 13 nvcc writes can only be
# JIT-compiled by a driver of the 580 branch or later; the PTX for compute_80 covers GPUs not
# listed on new drivers. A cubin runs on later minor revisions of its major (sm_80 on sm_87,
# sm_100 on sm_103, sm_120 on sm_121).
set(GPUVET_CUDA_SASS_ARCHS "80;86;89;90;100;120" CACHE STRING "SASS architectures of the embedded kernels")
set(GPUVET_CUDA_PTX_ARCH "80" CACHE STRING "Virtual architecture whose PTX is also embedded")

set(GPUVET_HAVE_CUDA OFF)
if(GPUVET_CUDA)
  find_package(CUDAToolkit QUIET)
  if(NOT GPUVET_NVCC AND CUDAToolkit_FOUND AND CUDAToolkit_NVCC_EXECUTABLE)
    set(GPUVET_NVCC "${CUDAToolkit_NVCC_EXECUTABLE}")
  endif()
  set(GPUVET_NVCC "${GPUVET_NVCC}" CACHE FILEPATH "nvcc that compiles gpuvet's kernels")
  if(CUDAToolkit_FOUND AND GPUVET_NVCC AND EXISTS "${GPUVET_NVCC}")
    execute_process(COMMAND "${GPUVET_NVCC}" --version OUTPUT_VARIABLE nvcc_out RESULT_VARIABLE nvcc_rc)
    if(nvcc_rc EQUAL 0 AND nvcc_out MATCHES "release [0-9.]+, V([0-9]+\\.[0-9]+\\.[0-9]+)")
      set(GPUVET_NVCC_VERSION "${CMAKE_MATCH_1}")
      # nvcc may be a wrapper (Debian-style /usr/local/bin/nvcc that execs the toolkit's): the
      # headers are beside the real nvcc, else where CMake found the toolkit.
      get_filename_component(nvcc_real "${GPUVET_NVCC}" REALPATH)
      get_filename_component(nvcc_bin "${nvcc_real}" DIRECTORY)
      set(GPUVET_CUDA_INCLUDE_DIR "")
      foreach(dir IN ITEMS "${nvcc_bin}/../include" LISTS CUDAToolkit_INCLUDE_DIRS)
        if(NOT GPUVET_CUDA_INCLUDE_DIR AND EXISTS "${dir}/cuda.h")
          get_filename_component(GPUVET_CUDA_INCLUDE_DIR "${dir}" ABSOLUTE)
        endif()
      endforeach()
      if(GPUVET_CUDA_INCLUDE_DIR)
        set(GPUVET_HAVE_CUDA ON)
      else()
        message(STATUS "gpuvet: nvcc ${GPUVET_NVCC_VERSION} found but no cuda.h beside it or in ${CUDAToolkit_INCLUDE_DIRS}")
      endif()
    endif()
  endif()
endif()
if(GPUVET_HAVE_CUDA)
  message(STATUS "gpuvet: nvcc ${GPUVET_NVCC_VERSION} (${GPUVET_NVCC}, headers ${GPUVET_CUDA_INCLUDE_DIR}); CUDA kernels for sm_${GPUVET_CUDA_SASS_ARCHS} + compute_${GPUVET_CUDA_PTX_ARCH}")
else()
  message(STATUS "gpuvet: no usable nvcc; building without CUDA probes")
endif()
