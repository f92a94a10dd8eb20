// Embeds gpuvet_kernels.fatbin (GPUVET_KERNELS_FATBIN, set by CMake) with the assembler's .incbin
// and lists its images. The fatbin layout (a 16-byte header, then entries each with its own header:
// kind 1 = PTX, 2 = ELF, at +28 the architecture) is what nvcc 12 and 13 write; it is not a
// documented ABI, so only --version and error messages rely on it, never the loading itself.
#include "backends/cuda/embedded_kernels.hpp"

#include <fmt/format.h>

#include <cstdint>
#include <cstring>

// 16-byte aligned as cuModuleLoadData wants it; hidden so that nothing outside gpuvet sees it.
__asm__(".section .rodata.gpuvet_kernels,\"a\"\n"
        ".balign 16\n"
        ".global gpuvet_kernels_fatbin\n"
        ".hidden gpuvet_kernels_fatbin\n"
        "gpuvet_kernels_fatbin:\n"
        ".incbin \"" GPUVET_KERNELS_FATBIN "\"\n"
        ".global gpuvet_kernels_fatbin_end\n"
        ".hidden gpuvet_kernels_fatbin_end\n"
        "gpuvet_kernels_fatbin_end:\n"
        ".byte 0\n"
        ".previous\n");

extern "C" const unsigned char gpuvet_kernels_fatbin[];
extern "C" const unsigned char gpuvet_kernels_fatbin_end[];

namespace gpuvet::cuda {
namespace {

template <class T>
T read(const unsigned char* p) {
  T value;
  std::memcpy(&value, p, sizeof value);
  return value;
}

constexpr std::uint32_t kFatbinMagic = 0xBA55ED50;

}  // namespace

const unsigned char* embedded_fatbin() { return gpuvet_kernels_fatbin; }
std::size_t embedded_fatbin_size() { return static_cast<std::size_t>(gpuvet_kernels_fatbin_end - gpuvet_kernels_fatbin); }

std::vector<FatbinImage> list_fatbin(const unsigned char* data, std::size_t size) {
  std::vector<FatbinImage> images;
  if (size < 16 || read<std::uint32_t>(data) != kFatbinMagic) return images;
  const std::size_t header = read<std::uint16_t>(data + 6);
  const std::uint64_t body = read<std::uint64_t>(data + 8);
  if (header > size || body > size - header) return images;
  std::size_t at = header;
  const std::size_t end = header + body;
  while (at + 32 <= end) {
    const auto kind = read<std::uint16_t>(data + at);
    const auto entry_header = read<std::uint32_t>(data + at + 4);
    const auto payload = read<std::uint64_t>(data + at + 8);
    if (entry_header < 32 || entry_header > end - at || payload > end - at - entry_header) break;
    FatbinImage image;
    image.ptx = kind == 1;
    image.arch = static_cast<int>(read<std::uint32_t>(data + at + 28));
    if (image.ptx) {
      image.ptx_minor = read<std::uint16_t>(data + at + 24);
      image.ptx_major = read<std::uint16_t>(data + at + 26);
    }
    if (kind == 1 || kind == 2) images.push_back(image);
    at += entry_header + payload;
  }
  return images;
}

std::string describe_fatbin(const std::vector<FatbinImage>& images) {
  std::string sass;
  std::string ptx;
  for (const auto& image : images) {
    if (image.ptx) {
      ptx += fmt::format("{}compute_{} (ISA {}.{})", ptx.empty() ? "" : " ", image.arch, image.ptx_major, image.ptx_minor);
    } else {
      sass += fmt::format("{}sm_{}", sass.empty() ? "" : " ", image.arch);
    }
  }
  if (sass.empty() && ptx.empty()) return "no kernel images";
  return fmt::format("SASS {}, PTX {}", sass.empty() ? "none" : sass, ptx.empty() ? "none" : ptx);
}

const char* kernel_toolkit_version() { return GPUVET_NVCC_VERSION; }

}  // namespace gpuvet::cuda
