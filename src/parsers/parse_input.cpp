// Dispatch from detected input format to parser (see parse_input.hpp).
#include "parsers/parse_input.hpp"

#include <fmt/format.h>
#include <optional>
#include <string>

#include "core/text_safety.hpp"
#include "parsers/dcgmi_nvlink_parser.hpp"
#include "parsers/ib_status_parser.hpp"
#include "parsers/input_format.hpp"
#include "parsers/kernel_log_parser.hpp"
#include "parsers/nccl_tests_parser.hpp"
#include "parsers/nvbandwidth_parser.hpp"
#include "parsers/p2p_test_parser.hpp"
#include "parsers/nvlink_status_parser.hpp"
#include "parsers/smi_query_text_parser.hpp"
#include "parsers/smi_query_xml_parser.hpp"
#include "parsers/smi_table_parser.hpp"
#include "parsers/topo_p2p_parser.hpp"
#include "parsers/topo_parser.hpp"

namespace gpuvet::parsers {

namespace {

// Pasted text is checked for UTF-8 at this edge: names, serials and NIC names go on into JSON
// reports, which can carry only valid UTF-8 (nlohmann::json::dump throws otherwise).
struct ValidText {
  std::string replaced;             // the text with U+FFFD for bad bytes, when there were any
  std::optional<std::string> note;  // set when bytes were replaced
  // What the parsers read: `replaced` when bytes were replaced, else the raw text.
  [[nodiscard]] std::string_view text(std::string_view raw) const { return note ? std::string_view(replaced) : raw; }
};

ValidText valid_utf8(std::string_view raw, const std::string& file_name) {
  ValidText v;
  const auto bad_line = core::first_invalid_utf8_line(raw);
  if (!bad_line) return v;
  v.replaced = core::to_valid_utf8(raw);
  v.note = fmt::format("{}: line {}: bytes that are not UTF-8 (the first on this line) were replaced by U+FFFD", file_name,
                       *bad_line);
  return v;
}

core::Result<core::Machine> parse_machine(std::string_view text, const std::string& file_name) {
  switch (detect_format(text)) {
    case InputFormat::topo_matrix: return parse_topo_matrix(text, file_name);
    case InputFormat::smi_query_text: return parse_smi_query_text(text, file_name);
    case InputFormat::smi_query_xml: return parse_smi_query_xml(text, file_name);
    case InputFormat::nvlink_status: return parse_nvlink_status(text, file_name);
    case InputFormat::kernel_log: return parse_kernel_log(text, file_name);
    case InputFormat::ib_status: return parse_ib_status(text, file_name);
    case InputFormat::dcgmi_nvlink: return parse_dcgmi_nvlink(text, file_name);
    case InputFormat::smi_table: return parse_smi_table(text, file_name);
    case InputFormat::topo_p2p: {
      auto p2p = parse_topo_p2p(text, file_name);
      if (!p2p) return p2p.error();
      return std::move(p2p.value().machine);
    }
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

core::Result<ParsedFile> parse_valid(std::string_view text, const std::string& file_name) {
  const auto format = detect_format(text);
  if (format == InputFormat::nccl_tests_text || format == InputFormat::nccl_tests_json) {
    if (format == InputFormat::nccl_tests_text) {
      auto runs = parse_nccl_tests_runs(text, file_name);
      if (!runs) return runs.error();
      ParsedFile file{std::nullopt, std::move(runs.value().front()), std::nullopt, {}};
      for (size_t i = 1; i < runs.value().size(); ++i) file.more_collectives.push_back(std::move(runs.value()[i]));
      return file;
    }
    auto run = parse_nccl_tests_json(text, file_name);
    if (!run) return run.error();
    return ParsedFile{std::nullopt, std::move(run).value(), std::nullopt, {}};
  }
  if (format == InputFormat::nvbandwidth || format == InputFormat::p2p_test) {
    auto run = format == InputFormat::nvbandwidth ? parse_nvbandwidth(text, file_name) : parse_p2p_test(text, file_name);
    if (!run) return run.error();
    return ParsedFile{std::nullopt, std::nullopt, std::move(run).value(), {}};
  }
  if (format == InputFormat::topo_p2p) {  // a machine (the GPUs) and the P2P capability of each pair
    auto p2p = parse_topo_p2p(text, file_name);
    if (!p2p) return p2p.error();
    ParsedFile file;
    file.machine = std::move(p2p.value().machine);
    file.bandwidth = std::move(p2p.value().access);
    return file;
  }
  auto machine = parse_machine(text, file_name);
  if (!machine) {
    if (format != InputFormat::unknown) return machine.error();
    if (text.find("ROCm System Management Interface") != std::string_view::npos) {
      return core::input_error(fmt::format("{}: AMD rocm-smi output: gpuvet reads what NVIDIA GPUs and their tools print, not AMD GPUs",
                                           file_name));
    }
    return core::input_error(fmt::format(
        "{}: not a recognised format (expected nvidia-smi topo -m, nvidia-smi -q, nvidia-smi -q -x, nvidia-smi "
        "nvlink -s, nccl-tests, nvbandwidth or p2pBandwidthLatencyTest output)",
        file_name));
  }
  return ParsedFile{std::move(machine).value(), std::nullopt, std::nullopt, {}};
}

}  // namespace

core::Result<core::Machine> parse_input(std::string_view raw, const std::string& file_name) {
  const auto v = valid_utf8(raw, file_name);
  auto machine = parse_machine(v.text(raw), file_name);
  if (machine && v.note) machine.value().notes.push_back(*v.note);
  return machine;
}

core::Result<ParsedFile> parse_file(std::string_view raw, const std::string& file_name) {
  const auto v = valid_utf8(raw, file_name);
  auto parsed = parse_valid(v.text(raw), file_name);
  if (!parsed || !v.note) return parsed;
  auto& p = parsed.value();
  if (p.machine) p.machine->notes.push_back(*v.note);
  if (p.collective) p.collective->notes.push_back(*v.note);
  if (p.bandwidth) p.bandwidth->notes.push_back(*v.note);
  return parsed;
}

}  // namespace gpuvet::parsers
