// Format detection for pasted tool output: an ordered list of cheap detectors. New formats
// (nccl-tests logs, nvbandwidth, ...) add one function and one entry in kDetectors.
#include "parsers/input_format.hpp"

#include <string>
#include <vector>

#include "parsers/dcgmi_nvlink_parser.hpp"
#include "parsers/ib_status_parser.hpp"
#include "parsers/kernel_log_parser.hpp"
#include "parsers/nccl_tests_parser.hpp"
#include "parsers/nvbandwidth_parser.hpp"
#include "parsers/p2p_test_parser.hpp"
#include "parsers/smi_table_parser.hpp"
#include "parsers/text_lines.hpp"
#include "parsers/topo_common.hpp"
#include "parsers/topo_p2p_parser.hpp"

namespace gpuvet::parsers {

namespace {

bool is_smi_query_xml(std::string_view text, const std::vector<Line>&) {
  return text.find("<nvidia_smi_log") != std::string_view::npos;
}

bool is_smi_query_text(std::string_view text, const std::vector<Line>& lines) {
  if (text.find("==============NVSMI LOG") != std::string_view::npos) return true;
  for (const auto& line : lines) {
    if (starts_with(trim(line.text), "Attached GPUs")) return true;
  }
  return false;
}

bool is_topo_matrix(std::string_view, const std::vector<Line>& lines) {
  for (const auto& line : lines) {
    if (is_topo_header(line.text)) return true;
  }
  return false;
}

bool is_nvlink_status(std::string_view, const std::vector<Line>& lines) {
  for (size_t i = 0; i + 1 < lines.size(); ++i) {
    int index = -1;
    std::string rest;
    if (!is_nvlink_gpu_line(lines[i].text, index, rest) || rest.find("(UUID:") == std::string::npos) continue;
    const auto next = trim(lines[i + 1].text);
    if (starts_with(next, "Link ") || starts_with(next, "NVML:") || starts_with(next, "NVLE:")) return true;
  }
  return false;
}

bool is_nccl_tests_json(std::string_view text, const std::vector<Line>&) {
  const auto body = trim(text);
  return !body.empty() && body.front() == '{' && body.find("\"results\"") != std::string_view::npos &&
         body.find("bus") != std::string_view::npos;
}

bool is_nccl_tests_text(std::string_view text, const std::vector<Line>&) { return looks_like_nccl_tests(text); }
bool is_nvbandwidth(std::string_view text, const std::vector<Line>&) { return looks_like_nvbandwidth(text); }
bool is_p2p_test(std::string_view text, const std::vector<Line>&) { return looks_like_p2p_test(text); }
bool is_kernel_log(std::string_view text, const std::vector<Line>&) { return looks_like_kernel_log(text); }
bool is_ib_status(std::string_view text, const std::vector<Line>&) { return looks_like_ib_status(text); }
bool is_dcgmi_nvlink(std::string_view text, const std::vector<Line>&) { return looks_like_dcgmi_nvlink(text); }
bool is_smi_table(std::string_view, const std::vector<Line>& lines) { return looks_like_smi_table(lines); }
bool is_topo_p2p(std::string_view, const std::vector<Line>& lines) { return looks_like_topo_p2p(lines); }

struct Detector {
  InputFormat format;
  bool (*matches)(std::string_view text, const std::vector<Line>& lines);
};

// Order matters: the first match wins, most specific first.
constexpr Detector kDetectors[] = {
    {InputFormat::smi_query_xml, is_smi_query_xml},
    {InputFormat::smi_query_text, is_smi_query_text},
    {InputFormat::topo_p2p, is_topo_p2p},
    {InputFormat::topo_matrix, is_topo_matrix},
    {InputFormat::smi_table, is_smi_table},
    {InputFormat::nvlink_status, is_nvlink_status},
    {InputFormat::dcgmi_nvlink, is_dcgmi_nvlink},
    {InputFormat::nccl_tests_json, is_nccl_tests_json},
    {InputFormat::nccl_tests_text, is_nccl_tests_text},
    {InputFormat::nvbandwidth, is_nvbandwidth},
    {InputFormat::p2p_test, is_p2p_test},
    {InputFormat::kernel_log, is_kernel_log},
    {InputFormat::ib_status, is_ib_status},
};

}  // namespace

std::string_view to_string(InputFormat format) {
  switch (format) {
    case InputFormat::topo_matrix: return "topo_matrix";
    case InputFormat::smi_query_text: return "smi_query_text";
    case InputFormat::smi_query_xml: return "smi_query_xml";
    case InputFormat::nvlink_status: return "nvlink_status";
    case InputFormat::nccl_tests_text: return "nccl_tests_text";
    case InputFormat::nccl_tests_json: return "nccl_tests_json";
    case InputFormat::nvbandwidth: return "nvbandwidth";
    case InputFormat::p2p_test: return "p2p_test";
    case InputFormat::kernel_log: return "kernel_log";
    case InputFormat::smi_table: return "smi_table";
    case InputFormat::topo_p2p: return "topo_p2p";
    case InputFormat::dcgmi_nvlink: return "dcgmi_nvlink";
    case InputFormat::ib_status: return "ib_status";
    case InputFormat::unknown: return "unknown";
  }
  return "unknown";
}

InputFormat detect_format(std::string_view text) {
  const auto lines = split_lines(text);
  for (const auto& d : kDetectors) {
    if (d.matches(text, lines)) return d.format;
  }
  return InputFormat::unknown;
}

}  // namespace gpuvet::parsers
