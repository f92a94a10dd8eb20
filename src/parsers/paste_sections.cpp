// Splitting a file of several tool outputs into sections (see paste_sections.hpp).
#include "parsers/paste_sections.hpp"

#include <regex>

#include "parsers/input_format.hpp"
#include "parsers/text_lines.hpp"

namespace gpuvet::parsers {

namespace {

// "$ nvidia-smi topo -m", "root@node1:~# nvidia-smi -q", "(venv) user@h:~$ ./all_reduce_perf -g 8".
// The command, or "" when the line is not a prompt that runs a tool gpuvet reads.
std::string prompt_command(std::string_view t) {
  static const std::regex kPrompt(
      R"(^(?:\([^)]*\) *)?(?:[A-Za-z0-9_.-]+@[A-Za-z0-9_.-]+(?::[^$#>]*)? *)?[$#>] +((?:sudo +)?(?:\S*/)?(?:nvidia-smi|nvbandwidth|ibstat|ibv_devinfo|dmesg|journalctl|dcgmi|mpirun|srun|[a-z_]+_perf|p2pBandwidthLatencyTest|lscpu)\b.*)$)");
  std::match_results<std::string_view::const_iterator> m;
  if (!std::regex_match(t.begin(), t.end(), m, kPrompt)) return "";
  return std::string(trim(std::string_view(&*m[1].first, static_cast<size_t>(m[1].length()))));
}

// "Tue Dec  1 17:35:40 2026", the first line of the nvidia-smi table.
bool is_date_line(std::string_view t) {
  static const std::regex kDate(R"(^(Mon|Tue|Wed|Thu|Fri|Sat|Sun) [A-Z][a-z]{2} +\d{1,2} \d\d:\d\d:\d\d \d{4}$)");
  return std::regex_match(t.begin(), t.end(), kDate);
}

// What a line of a paste starts: an output of one of the formats (input_format.hpp), or a shell
// prompt line that runs a tool gpuvet reads.
struct Start {
  OutputStart output;
  bool prompt = false;
  [[nodiscard]] bool any() const { return prompt || output.format != InputFormat::unknown; }
};

Start start_of(const std::vector<Line>& lines, size_t i) {
  const auto output = output_start(lines, i);
  if (output.format != InputFormat::unknown) return Start{output, false};
  const auto t = trim(lines[i].text);
  return Start{{}, !t.empty() && !prompt_command(t).empty()};
}

std::vector<std::string_view> raw_lines(std::string_view text) {
  std::vector<std::string_view> out;
  size_t at = 0;
  while (at < text.size()) {
    const auto end = text.find('\n', at);
    if (end == std::string_view::npos) {
      out.push_back(text.substr(at));
      break;
    }
    out.push_back(text.substr(at, end - at));
    at = end + 1;
  }
  return out;
}

// Lines [from, to) of the file as a section (line numbers 1-based = index + 1).
PasteSection section_of(const std::vector<std::string_view>& raw, size_t from, size_t to, std::string label) {
  PasteSection s;
  s.first_line = static_cast<int>(from) + 1;
  s.last_line = static_cast<int>(to);
  s.label = std::move(label);
  s.text.assign(from, '\n');
  for (size_t i = from; i < to; ++i) {
    s.text.append(raw[i]);
    s.text.push_back('\n');
  }
  return s;
}

std::optional<Paste> split_collect(const std::vector<std::string_view>& raw) {
  Paste p;
  p.collect_file = true;
  size_t i = 0;
  while (i < raw.size() && trim(raw[i]).empty()) ++i;
  for (++i; i < raw.size() && starts_with(raw[i], "### ") && !starts_with(raw[i], kSectionMarker); ++i) {
    if (starts_with(raw[i], kEndMarker)) p.collect_ended = true;
    else p.header.emplace_back(trim(raw[i].substr(4)));
  }
  while (i < raw.size()) {
    if (starts_with(raw[i], kEndMarker)) p.collect_ended = true;
    if (!starts_with(raw[i], kSectionMarker)) {
      ++i;  // text outside a section (after "### end"): not ours to read
      continue;
    }
    std::string label(trim(raw[i].substr(kSectionMarker.size())));
    std::optional<std::string> status;
    size_t from = i + 1;
    if (from < raw.size() && starts_with(raw[from], kStatusMarker)) {
      status = std::string(trim(raw[from].substr(kStatusMarker.size())));
      ++from;
    }
    size_t to = from;
    while (to < raw.size() && !starts_with(raw[to], kSectionMarker) && !starts_with(raw[to], kEndMarker)) ++to;
    auto s = section_of(raw, from, to, std::move(label));
    if (!status) s.not_collected = "no status line after the section marker";
    else if (*status != "exit 0") s.not_collected = *status;
    p.sections.push_back(std::move(s));
    i = to;
  }
  return p;
}

}  // namespace

bool PasteSection::blank() const { return trim(text).empty(); }

std::optional<Paste> split_paste(std::string_view text) {
  const auto raw = raw_lines(text);
  for (const auto& l : raw) {
    if (trim(l).empty()) continue;
    if (trim(l) == kCollectMagic) return split_collect(raw);
    break;
  }
  const auto lines = split_lines(text);
  struct Cut {
    size_t at;
    std::string label;
    bool prompt;
  };
  std::vector<Cut> cuts;
  InputFormat current = InputFormat::unknown;  // the output being read (unknown: none yet, or a prompt line)
  bool under_prompt = false;  // only blank lines since the last cut, a prompt line
  for (size_t i = 0; i < lines.size() && i < raw.size(); ++i) {
    const Start s = start_of(lines, i);
    if (!s.any()) {
      if (!trim(lines[i].text).empty()) under_prompt = false;
      continue;
    }
    if (!s.prompt && s.output.format == current && s.output.continues) continue;
    if (under_prompt && !s.prompt) {
      current = s.output.format;  // the output under its prompt line: one section
      under_prompt = false;
      continue;
    }
    size_t at = i;
    // The date nvidia-smi prints above its table belongs to the table.
    if (s.output.format == InputFormat::smi_table && i > 0 && is_date_line(trim(lines[i - 1].text))) at = i - 1;
    cuts.push_back(Cut{at, s.prompt ? prompt_command(trim(lines[i].text)) : std::string(), s.prompt});
    under_prompt = s.prompt;
    current = s.output.format;
  }
  if (cuts.size() < 2) return std::nullopt;
  Paste p;
  for (size_t c = 0; c < cuts.size(); ++c) {
    // Lines before the first start belong to the first section; a prompt line itself is dropped.
    const size_t from = c == 0 ? 0 : cuts[c].at;
    const size_t to = c + 1 < cuts.size() ? cuts[c + 1].at : raw.size();
    auto s = section_of(raw, from, to, cuts[c].label);
    if (cuts[c].prompt) {
      const auto prompt_at = s.text.find(raw[cuts[c].at]);
      if (prompt_at != std::string::npos) s.text.replace(prompt_at, raw[cuts[c].at].size(), "");
    }
    if (!s.blank()) p.sections.push_back(std::move(s));
  }
  if (p.sections.size() < 2) return std::nullopt;
  return p;
}

}  // namespace gpuvet::parsers
