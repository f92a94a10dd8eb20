// VRAM verification results: how much of a GPU's memory could be allocated, written with
// patterns and read back, and where stored bits did not read back. Memory in bytes; reports
// show GiB (2^30 B).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/reading.hpp"

namespace gpuvet::core {

struct VramMiscompare {
  std::string pattern;             // "address", "walking-ones", "random"
  std::uint64_t first_offset = 0;  // byte offset of the first bad 8-byte word in the tested range
  std::uint64_t last_offset = 0;   // byte offset of the last bad word
  std::uint64_t words = 0;         // bad 8-byte words
};

struct VramCheck {
  int gpu = 0;                          // NVML / nvidia-smi index
  std::string name;                     // as the driver names the GPU
  Reading<std::uint64_t> total_bytes;   // what the driver reports as the GPU's memory
  Reading<std::uint64_t> tested_bytes;  // allocated, written and verified
  std::vector<std::string> patterns;    // patterns run over the tested bytes, in order
  std::vector<VramMiscompare> miscompares;
  Reading<double> seconds;
  Reading<std::string> error;           // present when the check stopped early (what happened)
};

struct VramRun {
  std::string source;                   // "gpuvet vram (CUDA 13.0)" or "simulated hgx-h100-8x"
  std::uint64_t seed = 0;               // the random pattern's seed, to reproduce a run
  std::vector<VramCheck> gpus;
};

}  // namespace gpuvet::core
