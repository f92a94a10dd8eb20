// The formats of pasted tool output gpuvet reads, in one table: each format's name, how a section of
// it is named, how a whole text is recognised as it, and which line of a paste starts it. A new
// format adds its detectors and one row to kFormats.
#include "parsers/input_format.hpp"

#include <string>

#include "parsers/dcgmi_nvlink_parser.hpp"
#include "parsers/ib_status_parser.hpp"
#include "parsers/kernel_log_parser.hpp"
#include "parsers/nccl_tests_log.hpp"
#include "parsers/nccl_tests_parser.hpp"
#include "parsers/nvbandwidth_parser.hpp"
#include "parsers/p2p_test_parser.hpp"
#include "parsers/paste_sections.hpp"
#include "parsers/smi_table_parser.hpp"
#include "parsers/topo_common.hpp"
#include "parsers/topo_p2p_parser.hpp"

namespace gpuvet::parsers {

namespace {

using Lines = std::vector<Line>;

// Whole-text detectors: the text holds this output.

bool is_smi_query_xml(std::string_view text, const Lines&) { return text.find("<nvidia_smi_log") != std::string_view::npos; }

bool is_smi_query_text(std::string_view text, const Lines& lines) {
  if (text.find("==============NVSMI LOG") != std::string_view::npos) return true;
  for (const auto& line : lines) {
    if (starts_with(trim(line.text), "Attached GPUs")) return true;
  }
  return false;
}

bool is_topo_matrix(std::string_view, const Lines& lines) {
  for (const auto& line : lines) {
    if (is_topo_header(line.text)) return true;
  }
  return false;
}

bool is_nvlink_status(std::string_view, const Lines& lines) {
  for (size_t i = 0; i + 1 < lines.size(); ++i) {
    int index = -1;
    std::string rest;
    if (!is_nvlink_gpu_line(lines[i].text, index, rest) || rest.find("(UUID:") == std::string::npos) continue;
    const auto next = trim(lines[i + 1].text);
    if (starts_with(next, "Link ") || starts_with(next, "NVML:") || starts_with(next, "NVLE:")) return true;
  }
  return false;
}

bool is_nccl_tests_json(std::string_view text, const Lines&) {
  const auto body = trim(text);
  return !body.empty() && body.front() == '{' && body.find("\"results\"") != std::string_view::npos &&
         body.find("bus") != std::string_view::npos;
}

bool is_nccl_tests_text(std::string_view text, const Lines&) { return looks_like_nccl_tests(text); }
bool is_nvbandwidth(std::string_view text, const Lines&) { return looks_like_nvbandwidth(text); }
bool is_p2p_test(std::string_view text, const Lines&) { return looks_like_p2p_test(text); }
bool is_kernel_log(std::string_view text, const Lines&) { return looks_like_kernel_log(text); }
bool is_ib_status(std::string_view text, const Lines&) { return looks_like_ib_status(text); }
bool is_dcgmi_nvlink(std::string_view text, const Lines&) { return looks_like_dcgmi_nvlink(text); }
bool is_smi_table(std::string_view, const Lines& lines) { return looks_like_smi_table(lines); }
bool is_topo_p2p(std::string_view, const Lines& lines) { return looks_like_topo_p2p(lines); }

// Line-start detectors: line i of a paste (not empty) is where an output of this format begins.
// `fresh`: a start that always opens a new output ("<?xml"), even where the format repeats its start.

enum class Begins { no, here, fresh };

Begins when(bool starts) { return starts ? Begins::here : Begins::no; }

// The next non-empty line after i, trimmed; "" at the end.
std::string_view next_text(const Lines& lines, size_t i) {
  for (size_t j = i + 1; j < lines.size(); ++j) {
    const auto t = trim(lines[j].text);
    if (!t.empty()) return t;
  }
  return "";
}

bool is_border(std::string_view t) { return starts_with(t, "+--") || starts_with(t, "+==") || starts_with(t, "+ --"); }

Begins begins_smi_query_xml(const Lines& lines, size_t i) {
  const auto t = trim(lines[i].text);
  if (starts_with(t, "<?xml")) return Begins::fresh;
  return when(starts_with(t, "<nvidia_smi_log"));
}

Begins begins_smi_query_text(const Lines& lines, size_t i) { return when(starts_with(trim(lines[i].text), "==============NVSMI LOG")); }

// A topo -p2p header is a topo -m header: the paste is cut there as topo_matrix and detect_format
// then tells the section's two kinds apart.
Begins begins_topo(const Lines& lines, size_t i) { return when(is_topo_header(lines[i].text)); }

Begins begins_smi_table(const Lines& lines, size_t i) {
  return when(is_border(trim(lines[i].text)) && next_text(lines, i).find("NVIDIA-SMI ") != std::string_view::npos);
}

Begins begins_nvlink_status(const Lines& lines, size_t i) {
  int index = -1;
  std::string rest;
  if (!is_nvlink_gpu_line(trim(lines[i].text), index, rest) || rest.find("(UUID:") == std::string::npos) return Begins::no;
  const auto n = next_text(lines, i);
  return when(starts_with(n, "Link ") || starts_with(n, "NVML:"));
}

Begins begins_dcgmi_nvlink(const Lines& lines, size_t i) {
  if (!is_border(trim(lines[i].text))) return Begins::no;
  const auto n = next_text(lines, i);
  return when(n.find("NvLink Link Status") != std::string_view::npos || n.find("NVLINK Error Counts") != std::string_view::npos);
}

Begins begins_nccl_tests_text(const Lines& lines, size_t i) {
  const auto t = trim(lines[i].text);
  return when(starts_with(t, "# nThread") || starts_with(t, "nThread ") || is_nccl_debug_line(t));
}

Begins begins_nvbandwidth(const Lines& lines, size_t i) { return when(starts_with(trim(lines[i].text), "nvbandwidth Version")); }

Begins begins_p2p_test(const Lines& lines, size_t i) {
  return when(starts_with(trim(lines[i].text), "[P2P (Peer-to-Peer) GPU Bandwidth Latency Test]"));
}

Begins begins_kernel_log(const Lines& lines, size_t i) { return when(trim(lines[i].text).find("NVRM: ") != std::string_view::npos); }

Begins begins_ib_status(const Lines& lines, size_t i) {
  const auto t = trim(lines[i].text);
  return when(starts_with(t, "hca_id:") || (starts_with(t, "CA '") && starts_with(next_text(lines, i), "CA type:")));
}

struct Format {
  InputFormat format;
  std::string_view name;    // to_string()
  std::string_view output;  // output_name()
  bool (*holds)(std::string_view text, const Lines& lines);
  Begins (*begins)(const Lines& lines, size_t i);  // nullptr: no line of a paste is cut on for it
  bool repeats;  // its start line recurs inside one output: a start right after it continues it
};

// Order matters, for whole texts and for lines alike: the first match wins, most specific first.
constexpr Format kFormats[] = {
    {InputFormat::smi_query_xml, "smi_query_xml", kQueryXmlLabel, is_smi_query_xml, begins_smi_query_xml, true},
    {InputFormat::smi_query_text, "smi_query_text", "nvidia-smi -q", is_smi_query_text, begins_smi_query_text, true},
    {InputFormat::topo_p2p, "topo_p2p", "nvidia-smi topo -p2p", is_topo_p2p, nullptr, false},
    {InputFormat::topo_matrix, "topo_matrix", "nvidia-smi topo -m", is_topo_matrix, begins_topo, false},
    {InputFormat::smi_table, "smi_table", "nvidia-smi", is_smi_table, begins_smi_table, false},
    {InputFormat::nvlink_status, "nvlink_status", "nvidia-smi nvlink", is_nvlink_status, begins_nvlink_status, true},
    {InputFormat::dcgmi_nvlink, "dcgmi_nvlink", "dcgmi nvlink", is_dcgmi_nvlink, begins_dcgmi_nvlink, false},
    {InputFormat::nccl_tests_json, "nccl_tests_json", "nccl-tests", is_nccl_tests_json, nullptr, false},
    {InputFormat::nccl_tests_text, "nccl_tests_text", "nccl-tests", is_nccl_tests_text, begins_nccl_tests_text, true},
    {InputFormat::nvbandwidth, "nvbandwidth", "nvbandwidth", is_nvbandwidth, begins_nvbandwidth, false},
    {InputFormat::p2p_test, "p2p_test", "p2pBandwidthLatencyTest", is_p2p_test, begins_p2p_test, false},
    {InputFormat::kernel_log, "kernel_log", "kernel log", is_kernel_log, begins_kernel_log, true},
    {InputFormat::ib_status, "ib_status", "ibstat / ibv_devinfo", is_ib_status, begins_ib_status, true},
};

const Format* row_of(InputFormat format) {
  for (const auto& f : kFormats) {
    if (f.format == format) return &f;
  }
  return nullptr;
}

}  // namespace

std::string_view to_string(InputFormat format) {
  const auto* row = row_of(format);
  return row ? row->name : "unknown";
}

std::string_view output_name(InputFormat format) {
  const auto* row = row_of(format);
  return row ? row->output : "unrecognised text";
}

InputFormat detect_format(std::string_view text) {
  const auto lines = split_lines(text);
  for (const auto& f : kFormats) {
    if (f.holds(text, lines)) return f.format;
  }
  return InputFormat::unknown;
}

OutputStart output_start(const std::vector<Line>& lines, std::size_t i) {
  if (trim(lines[i].text).empty()) return {};
  for (const auto& f : kFormats) {
    if (!f.begins) continue;
    const Begins b = f.begins(lines, i);
    if (b != Begins::no) return {f.format, f.repeats && b == Begins::here};
  }
  return {};
}

}  // namespace gpuvet::parsers
