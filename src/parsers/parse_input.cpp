// Dispatch from detected input format to parser (see parse_input.hpp).
#include "parsers/parse_input.hpp"

#include <fmt/format.h>

#include "parsers/input_format.hpp"
#include "parsers/nccl_tests_parser.hpp"
#include "parsers/nvbandwidth_parser.hpp"
#include "parsers/p2p_test_parser.hpp"
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
    case InputFormat::nccl_tests_text:
    case InputFormat::nccl_tests_json:
    case InputFormat::nvbandwidth:
    case InputFormat::p2p_test:
      return core::input_error(file_name + ": a benchmark log, not a machine description");
    case InputFormat::unknown: break;
  }
  return core::input_error(fmt::format(
      "{}: not a recognised format (expected nvidia-smi topo -m, nvidia-smi -q, nvidia-smi -q -x or nvidia-smi nvlink -s output)",
      file_name));
}

core::Result<ParsedFile> parse_file(std::string_view text, const std::string& file_name) {
  const auto format = detect_format(text);
  if (format == InputFormat::nccl_tests_text || format == InputFormat::nccl_tests_json) {
    auto run = format == InputFormat::nccl_tests_text ? parse_nccl_tests(text, file_name)
                                                      : parse_nccl_tests_json(text, file_name);
    if (!run) return run.error();
    return ParsedFile{std::nullopt, std::move(run).value(), std::nullopt};
  }
  if (format == InputFormat::nvbandwidth || format == InputFormat::p2p_test) {
    auto run = format == InputFormat::nvbandwidth ? parse_nvbandwidth(text, file_name) : parse_p2p_test(text, file_name);
    if (!run) return run.error();
    return ParsedFile{std::nullopt, std::nullopt, std::move(run).value()};
  }
  auto machine = parse_input(text, file_name);
  if (!machine) {
    if (format != InputFormat::unknown) return machine.error();
    return core::input_error(fmt::format(
        "{}: not a recognised format (expected nvidia-smi topo -m, nvidia-smi -q, nvidia-smi -q -x, nvidia-smi "
        "nvlink -s, nccl-tests, nvbandwidth or p2pBandwidthLatencyTest output)",
        file_name));
  }
  return ParsedFile{std::move(machine).value(), std::nullopt, std::nullopt};
}

}  // namespace gpuvet::parsers
