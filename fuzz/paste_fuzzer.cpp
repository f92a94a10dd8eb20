// Fuzzes what `gpuvet analyze FILE` reads: parse_file, so a paste of several outputs (split_paste
// and merge_machines), gpuvet collect files, and every benchmark-log parser behind detection. Any
// input must give a ParsedFile or an Error naming the file, never a crash or sanitizer report.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "parsers/parse_input.hpp"
#include "parsers/paste_sections.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  if (const auto paste = gpuvet::parsers::split_paste(text)) {
    for (const auto& s : paste->sections) {
      if (s.first_line < 1 || s.text.size() < static_cast<std::size_t>(s.first_line - 1)) __builtin_trap();
    }
  }
  auto result = gpuvet::parsers::parse_file(text, "fuzz.txt");
  if (!result && result.error().message.find("fuzz.txt") == std::string::npos) __builtin_trap();
  return 0;
}
