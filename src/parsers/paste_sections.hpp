// One file that holds several tool outputs: a vendor's paste of topo -m, nvidia-smi -q, nvlink -s
// ... one after another, or a file written by `gpuvet collect` / scripts/gpuvet-collect.sh (with
// "### section:" markers). split_paste() finds where each output starts; parse_file() parses each
// section alone and merges them. Pure text in, sections out.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpuvet::parsers {

// The first line of a collect file, and the markers around each section (docs/collect.md).
inline constexpr std::string_view kCollectMagic = "### gpuvet-collect 1";
inline constexpr std::string_view kSectionMarker = "### section: ";
inline constexpr std::string_view kStatusMarker = "### status: ";
inline constexpr std::string_view kEndMarker = "### end";
// The section every collect file has first: the GPUs themselves (collect stops without it).
inline constexpr std::string_view kQueryXmlLabel = "nvidia-smi -q -x";

struct PasteSection {
  int first_line = 0;  // 1-based line of the file where the section's text starts
  int last_line = 0;   // last line of the section's text (first_line - 1 when it is empty)
  std::string label;   // "nvidia-smi topo -m": the collect marker, the shell prompt's command, or ""
  // The section's lines, after first_line - 1 empty lines, so that a parser's "line N" is the
  // file's line N.
  std::string text;
  // Collect files: why the command gave no output to read ("not found", "exit 9: ..."); nullopt
  // when it ran (exit 0).
  std::optional<std::string> not_collected;
  [[nodiscard]] bool blank() const;  // nothing but whitespace in text
};

struct Paste {
  bool collect_file = false;
  bool collect_ended = false;       // collect files: the "### end" line was read (the file is not cut)
  std::vector<std::string> header;  // collect files: "host: node1", "date: ..." lines, without "### "
  std::vector<PasteSection> sections;
};

// Collect files (first non-empty line kCollectMagic): one section per "### section:" marker.
// Other text: a new section starts at a line where a known output begins (nvidia-smi -q banner,
// "<?xml", a topo -m header, the nvidia-smi table's top border, an nvlink -s GPU line, "# nThread",
// "nvbandwidth Version", the p2pBandwidthLatencyTest title, ibstat "CA '", ibv_devinfo "hca_id:",
// the dcgmi box, NVRM kernel lines, a shell prompt line "$ nvidia-smi ...") unless it continues
// the output of the same kind (NCCL INFO lines, further ibstat ports, an nvidia-smi -q pasted twice
// ...). Lines before the first
// start belong to the first section (warnings nvidia-smi prints above its log). nullopt when the
// text is a single output: parse it whole.
std::optional<Paste> split_paste(std::string_view text);

}  // namespace gpuvet::parsers
