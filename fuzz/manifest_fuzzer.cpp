// Fuzzes the evidence bundle's MANIFEST reader (`gpuvet verify`): any input must give the digests
// or a bad_input Error naming the file; digests read must render and read back unchanged.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "bundle/manifest.hpp"

namespace bundle = gpuvet::bundle;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto digests = bundle::parse_manifest(text, "MANIFEST");
  if (!digests) {
    const auto& error = digests.error();
    if (error.kind != gpuvet::core::ErrorKind::bad_input || error.message.find("MANIFEST") == std::string::npos) {
      __builtin_trap();
    }
    return 0;
  }
  const auto again = bundle::parse_manifest(bundle::render_manifest(digests.value()), "rendered");
  if (!again || again.value() != digests.value()) __builtin_trap();
  if (!bundle::compare_digests(digests.value(), digests.value()).intact()) __builtin_trap();
  (void)bundle::compare_digests(digests.value(), {});
  return 0;
}
