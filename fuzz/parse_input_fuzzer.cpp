// Fuzzes format detection and every pasted-output parser behind it: any input must give a
// Machine or an Error naming the file, never a crash, hang or sanitizer report.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "parsers/parse_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto result = gpuvet::parsers::parse_input(text, "fuzz.txt");
  if (!result && result.error().message.find("fuzz.txt") == std::string::npos) __builtin_trap();
  return 0;
}
