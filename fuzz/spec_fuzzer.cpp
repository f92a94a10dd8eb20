// Fuzzes the acceptance spec parser (YAML -> spec::Spec + catalogue defaults): any input must give
// a Spec or a bad_input Error naming the file, never a crash, hang or sanitizer report.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "catalog/gpu_catalog.hpp"
#include "spec/spec.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto result = gpuvet::spec::parse_spec(text, "fuzz.yaml", gpuvet::catalog::gpu_catalog());
  if (!result && (result.error().kind != gpuvet::core::ErrorKind::bad_input ||
                  result.error().message.find("fuzz.yaml") == std::string::npos)) {
    __builtin_trap();
  }
  return 0;
}
