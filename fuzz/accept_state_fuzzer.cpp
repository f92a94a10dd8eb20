// Fuzzes the resumable accept state file (accept.state.json under --out): any input must give the
// stage records or a bad_input Error naming the file; records read must survive a round trip.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "accept/accept_json.hpp"

namespace accept = gpuvet::accept;

// The seeds in fuzz/corpus/accept_state_fuzzer are saved under this key, so their stages are read.
constexpr const char* kKey = "fuzz";

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto stages = accept::parse_state(text, kKey, "fuzz-state.json");
  if (!stages) {
    const auto& error = stages.error();
    if (error.kind != gpuvet::core::ErrorKind::bad_input || error.message.find("fuzz-state.json") == std::string::npos) {
      __builtin_trap();
    }
    return 0;
  }
  const auto again = accept::parse_state(accept::render_state(kKey, stages.value()), kKey, "rendered.json");
  if (!again || again.value().size() != stages.value().size()) __builtin_trap();
  return 0;
}
