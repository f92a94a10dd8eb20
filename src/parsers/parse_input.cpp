// Dispatch from detected input format to parser (see parse_input.hpp).
#include "parsers/parse_input.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <optional>
#include <string>

#include "core/text_safety.hpp"
#include "parsers/dcgmi_nvlink_parser.hpp"
#include "parsers/ib_status_parser.hpp"
#include "parsers/input_format.hpp"
#include "parsers/kernel_log_parser.hpp"
#include "parsers/machine_merge.hpp"
#include "parsers/paste_sections.hpp"
#include "parsers/nccl_tests_parser.hpp"
#include "parsers/nvbandwidth_parser.hpp"
#include "parsers/p2p_test_parser.hpp"
#include "parsers/nvlink_status_parser.hpp"
#include "parsers/smi_query_text_parser.hpp"
#include "parsers/smi_query_xml_parser.hpp"
#include "parsers/smi_table_parser.hpp"
#include "parsers/topo_p2p_parser.hpp"
#include "parsers/text_lines.hpp"
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
      ParsedFile file{std::nullopt, std::move(runs.value().front()), std::nullopt, {}, {}, {}};
      for (size_t i = 1; i < runs.value().size(); ++i) file.more_collectives.push_back(std::move(runs.value()[i]));
      return file;
    }
    auto run = parse_nccl_tests_json(text, file_name);
    if (!run) return run.error();
    return ParsedFile{std::nullopt, std::move(run).value(), std::nullopt, {}, {}, {}};
  }
  if (format == InputFormat::nvbandwidth || format == InputFormat::p2p_test) {
    auto run = format == InputFormat::nvbandwidth ? parse_nvbandwidth(text, file_name) : parse_p2p_test(text, file_name);
    if (!run) return run.error();
    return ParsedFile{std::nullopt, std::nullopt, std::move(run).value(), {}, {}, {}};
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
  return ParsedFile{std::move(machine).value(), std::nullopt, std::nullopt, {}, {}, {}};
}

// What a section no parser reads says, in one line: lscpu's model, sockets and NUMA nodes, else
// its first line (driver and fabric manager versions).
std::string summary_of(std::string_view text) {
  std::vector<std::string> picked;
  std::string first;
  for (const auto& line : split_lines(text)) {
    const auto t = trim(line.text);
    if (t.empty()) continue;
    if (first.empty()) first = std::string(t.substr(0, 160));
    for (const char* key : {"Model name:", "Socket(s):", "NUMA node(s):"}) {
      if (starts_with(t, key)) picked.push_back(fmt::format("{} {}", key, trim(t.substr(std::string_view(key).size()))));
    }
  }
  return picked.empty() ? first : fmt::format("{}", fmt::join(picked, "; "));
}

core::Error in_section(const core::Error& e, const PasteSection& s, std::string_view name) {
  return core::Error{e.kind, fmt::format("{} (in the {} section, lines {}-{})", e.message, name, s.first_line, s.last_line)};
}

// A gpuvet collect file that is not whole: cut before its "### end" line, or without the
// nvidia-smi -q -x section collect always writes first. A note says so, and `not_read` what is
// therefore not judged (the verdict is then incomplete).
void check_collect_whole(const Paste& paste, const std::string& file_name, std::vector<std::string>& notes,
                         std::vector<std::string>& not_read) {
  if (!paste.collect_file) return;
  if (!paste.collect_ended) {
    const auto where = paste.sections.empty()
                           ? std::string("its header")
                           : fmt::format("the {} section (line {})", paste.sections.back().label, paste.sections.back().last_line);
    notes.push_back(fmt::format("{}: the gpuvet collect file is cut: it ends in {} without its \"{}\" line", file_name, where,
                                kEndMarker));
    not_read.push_back(fmt::format("{}: the gpuvet collect file is cut in {} (no \"{}\" line): the rest of that section and "
                                   "the sections after it are not judged",
                                   file_name, where, kEndMarker));
  }
  const bool query = std::any_of(paste.sections.begin(), paste.sections.end(), [](const PasteSection& s) {
    return s.label == kQueryXmlLabel && !s.not_collected && !s.blank();
  });
  if (!query) {
    notes.push_back(fmt::format("{}: the gpuvet collect file has no {} output (collect writes it first and stops without it)",
                                file_name, kQueryXmlLabel));
    not_read.push_back(fmt::format("{}: no {} section: what it shows of each GPU (model, memory, ECC, remapped rows, clocks, "
                                   "PCIe link, fabric state) is not judged",
                                   file_name, kQueryXmlLabel));
  }
}

// A file of several outputs: each section parsed alone, machine views merged.
core::Result<ParsedFile> parse_sections(const Paste& paste, const std::string& file_name) {
  ParsedFile out;
  std::vector<core::Machine> parts;
  std::vector<std::string> notes;
  if (!paste.header.empty()) notes.push_back(fmt::format("{}: written by gpuvet collect ({})", file_name, fmt::join(paste.header, ", ")));
  for (const auto& s : paste.sections) {
    const auto format = detect_format(s.text);
    const std::string name = s.label.empty() ? std::string(output_name(format)) : s.label;
    if (s.not_collected) {
      notes.push_back(fmt::format("{}: {} was not collected ({})", file_name, name, *s.not_collected));
      continue;
    }
    if (s.blank()) {
      out.sections.push_back(fmt::format("{} (printed nothing)", name));
      continue;
    }
    if (format == InputFormat::unknown) {
      out.sections.push_back(fmt::format("{} (lines {}-{}, not judged)", name, s.first_line, s.last_line));
      notes.push_back(fmt::format("{}: {}: {}", file_name, name, summary_of(s.text)));
      continue;
    }
    // "paste.txt [nvidia-smi topo -m]": errors, merge conflicts and sources name the section.
    auto parsed = parse_valid(s.text, fmt::format("{} [{}]", file_name, name));
    if (!parsed) return in_section(parsed.error(), s, name);
    auto& p = parsed.value();
    out.sections.push_back(fmt::format("{} (lines {}-{})", name, s.first_line, s.last_line));
    if (p.machine) parts.push_back(std::move(*p.machine));
    if (p.collective) {
      if (!out.collective) out.collective = std::move(*p.collective);
      else out.more_collectives.push_back(std::move(*p.collective));
    }
    for (auto& more : p.more_collectives) out.more_collectives.push_back(std::move(more));
    if (p.bandwidth) {
      if (!out.bandwidth) out.bandwidth = std::move(*p.bandwidth);
      else out.more_bandwidth.push_back(std::move(*p.bandwidth));
    }
  }
  if (parts.empty() && !out.collective && !out.bandwidth) {
    return core::input_error(fmt::format("{}: {} sections found ({}), but none that gpuvet reads", file_name,
                                         paste.sections.size(), fmt::join(out.sections, ", ")));
  }
  notes.push_back(fmt::format("{}: {} {} sections: {}", file_name, paste.collect_file ? "a gpuvet collect file of" : "a paste of",
                              out.sections.size(), fmt::join(out.sections, ", ")));
  std::vector<std::string> not_read;
  check_collect_whole(paste, file_name, notes, not_read);
  if (!parts.empty()) {
    auto merged = parts.size() == 1 ? core::Result<core::Machine>(std::move(parts.front())) : merge_machines(parts);
    if (!merged) return merged.error();
    out.machine = std::move(merged).value();
    for (auto& n : notes) out.machine->notes.push_back(std::move(n));
    for (auto& n : not_read) out.machine->not_read.push_back(std::move(n));
  } else if (out.collective) {
    for (auto& n : notes) out.collective->notes.push_back(std::move(n));
  } else {
    for (auto& n : notes) out.bandwidth->notes.push_back(std::move(n));
  }
  return out;
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
  const auto paste = split_paste(v.text(raw));
  auto parsed = paste ? parse_sections(*paste, file_name) : parse_valid(v.text(raw), file_name);
  if (!parsed || !v.note) return parsed;
  auto& p = parsed.value();
  if (p.machine) p.machine->notes.push_back(*v.note);
  if (p.collective) p.collective->notes.push_back(*v.note);
  if (p.bandwidth) p.bandwidth->notes.push_back(*v.note);
  return parsed;
}

}  // namespace gpuvet::parsers
