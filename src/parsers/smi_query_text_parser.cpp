// Parser of `nvidia-smi -q` / `-a` text: builds an indentation tree of "Key : Value" lines and
// section headers (keeping line numbers), then maps it through the shared field table.
#include "parsers/smi_query_text_parser.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <utility>

#include "parsers/smi_query_duplicates.hpp"
#include "parsers/smi_query_fields.hpp"
#include "parsers/smi_query_tree.hpp"
#include "parsers/smi_table_parser.hpp"
#include "parsers/text_lines.hpp"

namespace gpuvet::parsers {
namespace {

using smi_query::Node;

// nvidia-smi pads keys to a column, so the separator is a ':' with blank space before it; a ':'
// inside a word ("GPU 00000000:18:00.0", a time of day in a value) is not one.
std::size_t separator_of(std::string_view text) {
  for (std::size_t i = 1; i < text.size(); ++i) {
    if (text[i] != ':') continue;
    const bool blank_before = text[i - 1] == ' ' || text[i - 1] == '\t';
    const bool blank_after = i + 1 == text.size() || text[i + 1] == ' ' || text[i + 1] == '\t';
    if (blank_before && blank_after) return i;
  }
  return std::string_view::npos;
}

// The last line number inside a section (its deepest last descendant).
int last_line_of(const Node& node) {
  const Node* n = &node;
  while (!n->children.empty()) n = &n->children.back();
  return n->line;
}

// One line without its end; CR and ANSI escapes are stripped only from lines that have them, as
// the tree is rebuilt for every prefix in tests and most lines are clean.
struct RawLine {
  int number = 0;
  std::string_view text;
};

core::Result<Node> build_tree(std::string_view input, const std::string& file_name, int& last_line) {
  Node root;
  std::vector<std::pair<int, Node*>> stack{{-1, &root}};
  std::string cleaned;
  RawLine line;
  std::size_t start = 0;
  while (start < input.size()) {
    const auto end = input.find('\n', start);
    line.text = input.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
    ++line.number;
    start = end == std::string_view::npos ? input.size() : end + 1;
    std::string_view text = line.text;
    if (text.find_first_of("\r\x1b") != std::string_view::npos) {
      cleaned = strip_ansi(text);
      text = cleaned;
    }
    const std::string_view trimmed = trim(text);
    if (trimmed.empty() || starts_with(trimmed, "====")) continue;  // "=====NVSMI LOG=====" banner
    const int indent = indent_of(text);
    Node node;
    node.line = line.number;
    const auto sep = separator_of(text);
    if (sep == std::string_view::npos) {
      node.key = std::string(trimmed);
    } else {
      node.key = std::string(trim(text.substr(0, sep)));
      node.value = std::string(trim(text.substr(sep + 1)));
      node.has_value = true;
    }
    while (stack.back().first >= indent) stack.pop_back();
    if (static_cast<int>(stack.size()) > smi_query::kMaxDepth) {
      return core::input_error(
          fmt::format("{}: line {}: sections nested deeper than {} levels; expected nvidia-smi -q output", file_name,
                      line.number, smi_query::kMaxDepth));
    }
    // Only the last child of each open section is on the stack, so growing a vector here never
    // invalidates a pointer still in use.
    Node* parent = stack.back().second;
    parent->children.push_back(std::move(node));
    stack.emplace_back(indent, &parent->children.back());
  }
  last_line = line.number;
  return root;
}


// A full nvidia-smi -q cut inside its last GPU section (no "Processes"): the entries before the
// section's last one are complete (the cut is in the last, or after it), so they are kept when
// they include the Product Name; otherwise the section is left out. The note names the last
// complete GPU, what is kept of the cut one, and says "truncated" (the inventory rule's word for
// an input that does not show every GPU).
struct CutSection {
  bool keep = false;
  std::string note;
};

CutSection keep_complete_part(const smi_query::GpuSection& section, std::size_t index, const std::string& file_name,
                              Node& kept) {
  const Node& node = *section.node;
  const std::string before =
      index == 0 ? std::string("the output is cut inside its first GPU section")
                 : fmt::format("the output is cut after GPU {} (truncated paste)", index - 1);
  kept = node;
  if (!kept.children.empty()) kept.children.pop_back();  // the entry the cut may be in
  if (kept.child("Product Name") == nullptr) {
    return {false, fmt::format("{}: line {}: {}: GPU {} ({}) is cut before its Product Name and is left out "
                               "(truncated; give the complete nvidia-smi -q output)",
                               file_name, last_line_of(node), before, index, section.header_bus_id)};
  }
  return {true, fmt::format("{}: line {}: {}: of GPU {} ({}) only the entries up to '{}' (line {}) are read; "
                            "'{}' and everything after it are cut off (truncated; give the complete nvidia-smi -q output)",
                            file_name, last_line_of(node), before, index, section.header_bus_id,
                            kept.children.back().key, kept.children.back().line, node.children.back().key)};
}

}  // namespace

core::Result<core::Machine> parse_smi_query_text(std::string_view text, const std::string& file_name) {
  if (trim(text).empty()) {
    return core::input_error(fmt::format("{}: line 1: expected nvidia-smi -q output, found an empty file", file_name));
  }
  int last_line = 1;
  auto tree = build_tree(text, file_name, last_line);
  if (!tree) return tree.error();
  const Node& root = tree.value();

  std::vector<smi_query::GpuSection> gpus;
  for (const auto& child : root.children) {
    // Section header "GPU 00000000:18:00.0" at the outermost indentation.
    if (child.has_value || !starts_with(child.key, "GPU ")) continue;
    std::string bus_id(trim(std::string_view(child.key).substr(4)));
    if (bus_id.find(':') == std::string::npos) continue;
    gpus.push_back({&child, std::move(bus_id)});
  }
  if (gpus.empty()) {
    return core::input_error(fmt::format(
        "{}: line {}: expected a 'GPU <bus id>' section (as nvidia-smi -q prints, e.g. 'GPU 00000000:18:00.0'), "
        "found none",
        file_name, last_line));
  }
  // nvidia-smi -q -d SECTION[,SECTION] prints only the sections asked for: no Product Name and
  // no Processes in any GPU section, by design. Read what the sections carry and say which.
  std::vector<std::string> notes;
  // A full -q cut right after a GPU header has an empty section: that is a cut, not a filter.
  const bool filtered = !gpus.front().node->children.empty() &&
                        std::none_of(gpus.begin(), gpus.end(), [](const smi_query::GpuSection& g) {
                          return g.node->child("Product Name") != nullptr || g.node->child("Processes") != nullptr;
                        });
  if (filtered) {
    std::vector<std::string> sections;
    for (const auto& c : gpus.front().node->children) sections.push_back(c.key);
    notes.push_back(fmt::format("{} is a filtered nvidia-smi -q (-d): it shows only {}; GPU names and every other section are "
                                "not in it",
                                file_name, sections.empty() ? std::string("empty GPU sections") : fmt::format("{}", fmt::join(sections, ", "))));
    if (gpus.back().node->children.size() < gpus.front().node->children.size()) {
      notes.push_back(fmt::format("{}: line {}: the last GPU section has fewer entries than the first: the paste looks cut short",
                                  file_name, last_line_of(*gpus.back().node)));
    }
    for (auto& g : gpus) g.filtered = true;
  }
  // nvidia-smi -q ends every GPU section with "Processes"; a section without it was cut short.
  // Only the last one can be: an earlier one without it is not one nvidia-smi -q output.
  for (std::size_t i = 0; i + 1 < gpus.size() && !filtered; ++i) {
    if (gpus[i].node->child("Processes") == nullptr) {
      return core::input_error(fmt::format(
          "{}: line {}: GPU {} ({}) section ends without its 'Processes' entry although GPU sections follow it "
          "(expected one complete nvidia-smi -q output)",
          file_name, last_line_of(*gpus[i].node), i, gpus[i].header_bus_id));
    }
  }
  Node kept_part;  // what is complete of a cut last section, when it is kept
  std::string cut_note;
  if (!filtered && gpus.back().node->child("Processes") == nullptr) {
    auto cut = keep_complete_part(gpus.back(), gpus.size() - 1, file_name, kept_part);
    cut_note = std::move(cut.note);
    if (cut.keep) {
      gpus.back().node = &kept_part;
    } else {
      gpus.pop_back();
    }
    // Nothing of any GPU is left to judge: a machine of no GPUs would read as a pass.
    if (gpus.empty()) return core::input_error(cut_note + ": no GPU of it can be read");
  }
  auto machine = smi_query::build_machine(root, gpus, smi_query::Form::text, file_name);
  if (!machine) return machine.error();
  // Warnings nvidia-smi prints above the log ("infoROM is corrupted at gpu ...", a GPU it cannot reach).
  if (text.find("infoROM is corrupted") != std::string_view::npos ||
      text.find("Unable to determine the device handle") != std::string_view::npos) {
    for (const auto& line : split_lines(text)) {
      if (auto e = read_smi_warning(line.text, line.number, file_name)) machine.value().events.push_back(std::move(*e));
    }
  }
  if (filtered) {
    for (auto& g : machine.value().gpus) {
      if (!g.name.known()) g.name = core::Absent{"not in this filtered nvidia-smi -q -d output"};
    }
    machine.value().source = fmt::format("nvidia-smi -q -d ({})", file_name);
    machine.value().notes.insert(machine.value().notes.end(), notes.begin(), notes.end());
  }
  auto folded = smi_query::fold_repeated_gpus(std::move(machine).value(), root, gpus, smi_query::Form::text, file_name);
  if (folded && !cut_note.empty()) {
    // What the cut took of the last GPU (its memory, PCIe, ECC, ... entries) is not judged: a
    // verdict on the rest is incomplete, never a pass.
    folded.value().not_read.push_back(cut_note);
    folded.value().notes.push_back(std::move(cut_note));
  }
  return folded;
}

}  // namespace gpuvet::parsers
