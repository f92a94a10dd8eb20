// One entry point for a pasted file: detects which nvidia-smi view it holds and runs the
// matching parser. Called by the CLI once per input file; merge several with merge_machines.
#pragma once

#include <string>
#include <string_view>

#include <optional>

#include "core/bandwidth.hpp"
#include "core/collective.hpp"
#include "core/error.hpp"
#include "core/machine.hpp"

namespace gpuvet::parsers {

// detect_format() then parse_topo_matrix, parse_smi_query_text, parse_smi_query_xml or
// parse_nvlink_status. An unrecognised text gives a bad_input Error:
// "<file>: not a recognised format (expected nvidia-smi topo -m, nvidia-smi -q, ...)".
// nccl-tests logs are not machine descriptions: they give an error here (use parse_file).
// Bytes that are not UTF-8 are replaced by U+FFFD before parsing (reports are JSON) and a note
// names the file and the first line that had them; this holds for parse_file too.
core::Result<core::Machine> parse_input(std::string_view text, const std::string& file_name);

// What one pasted file holds: a description of the machine, or a benchmark run on it.
struct ParsedFile {
  std::optional<core::Machine> machine;
  std::optional<core::CollectiveRun> collective;
  std::optional<core::BandwidthRun> bandwidth;
  std::vector<core::CollectiveRun> more_collectives;  // further nccl-tests runs in the same file
  std::vector<core::BandwidthRun> more_bandwidth;      // further nvbandwidth / p2p runs (a paste of several outputs)
  // A paste of several outputs (or a gpuvet collect file): "nvidia-smi topo -m (lines 1-20)" per
  // section read, in file order; empty for a file of one output.
  std::vector<std::string> sections;
};

// parse_input for machine views, parse_nccl_tests / parse_nccl_tests_json for nccl-tests output,
// parse_nvbandwidth / parse_p2p_test for copy-bandwidth benchmarks. A file of several outputs
// (split_paste) is parsed section by section: the machine views are merged with merge_machines
// (disagreeing sections are a bad_input Error), a note names the sections found, and a section
// that does not parse is a bad_input Error naming its lines.
core::Result<ParsedFile> parse_file(std::string_view text, const std::string& file_name);

}  // namespace gpuvet::parsers
