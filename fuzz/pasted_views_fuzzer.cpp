// Fuzzes the parsers of pasted views that format detection reaches only for text that already
// looks right (kernel log, default nvidia-smi table, ibstat / ibv_devinfo, topo -p2p, dcgmi nvlink,
// NCCL INFO lines): the first byte picks the parser, the rest is its input, so each sees arbitrary
// text. Any input must give a value or an Error naming the file, never a crash or sanitizer report.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "parsers/dcgmi_nvlink_parser.hpp"
#include "parsers/ib_status_parser.hpp"
#include "parsers/kernel_log_parser.hpp"
#include "parsers/nccl_debug_info.hpp"
#include "parsers/smi_table_parser.hpp"
#include "parsers/text_lines.hpp"
#include "parsers/topo_p2p_parser.hpp"

namespace {

template <typename R>
void check(const R& result) {
  if (!result && result.error().message.find("fuzz.txt") == std::string::npos) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  namespace p = gpuvet::parsers;
  const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  switch (data[0] % 6) {
    case 0: check(p::parse_kernel_log(text, "fuzz.txt")); break;
    case 1: check(p::parse_smi_table(text, "fuzz.txt")); break;
    case 2: check(p::parse_ib_status(text, "fuzz.txt")); break;
    case 3: check(p::parse_topo_p2p(text, "fuzz.txt")); break;
    case 4: check(p::parse_dcgmi_nvlink(text, "fuzz.txt")); break;
    default: {
      p::NcclDebugFacts facts;
      int n = 0;
      for (const auto& line : p::split_lines(text)) p::read_nccl_debug_line(p::trim(line.text), ++n, facts);
      gpuvet::core::CollectiveRun run;
      p::apply_nccl_debug_facts(facts, run);
      break;
    }
  }
  return 0;
}
