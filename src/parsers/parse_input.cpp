// Dispatch from detected input format to parser (see parse_input.hpp).
#include "parsers/parse_input.hpp"

#include <fmt/format.h>

#include "parsers/input_format.hpp"
#include "parsers/nvlink_status_parser.hpp"
#include "parsers/smi_query_text_parser.hpp"
#include "parsers/smi_query_xml_parser.hpp"
#include "parsers/topo_parser.hpp"

namespace gpuvet::parsers {

core::Result<core::Machine> parse_input(std::string_view text, const std::string& file_name) {
  switch (detect_format(text)) {
    case InputFormat::topo_matrix: return parse_topo_matrix(text, file_name);
    case InputFormat::smi_query_text: return parse_smi_query_text(text, file_name);
    case InputFormat::smi_query_xml: return parse_smi_query_xml(text, file_name);
    case InputFormat::nvlink_status: return parse_nvlink_status(text, file_name);
    case InputFormat::unknown: break;
  }
  return core::input_error(fmt::format(
      "{}: not a recognised format (expected nvidia-smi topo -m, nvidia-smi -q, nvidia-smi -q -x or nvidia-smi nvlink -s output)",
      file_name));
}

}  // namespace gpuvet::parsers
