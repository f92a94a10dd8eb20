// Parser of `nvidia-smi -q -x` XML: pugixml parses, the elements become the shared Node tree
// (with line numbers from byte offsets), and the shared field table fills the Machine.
#include "parsers/smi_query_xml_parser.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <pugixml.hpp>
#include <vector>

#include "parsers/smi_query_duplicates.hpp"
#include "parsers/smi_query_fields.hpp"
#include "parsers/smi_query_tree.hpp"
#include "parsers/text_lines.hpp"

namespace gpuvet::parsers {
namespace {

using smi_query::Node;

struct Converter {
  const smi_query::LineIndex& lines;
  const std::string& file_name;

  // Copies one element and its sub-elements; text content becomes the value.
  std::optional<core::Error> convert(const pugi::xml_node& element, Node& out, int depth) const {
    out.key = element.name();
    out.line = lines.line_of(element.offset_debug());
    if (depth > smi_query::kMaxDepth) {
      return core::input_error(
          fmt::format("{}: line {}: elements nested deeper than {} levels; expected nvidia-smi -q -x output",
                      file_name, out.line, smi_query::kMaxDepth));
    }
    std::string value;
    bool has_elements = false;
    for (const auto& child : element.children()) {
      if (child.type() == pugi::node_pcdata || child.type() == pugi::node_cdata) {
        value += child.value();
      } else if (child.type() == pugi::node_element) {
        has_elements = true;
        out.children.emplace_back();
        if (auto error = convert(child, out.children.back(), depth + 1)) return error;
      }
    }
    out.value = std::string(trim(value));
    out.has_value = !has_elements || !out.value.empty();
    return std::nullopt;
  }
};

}  // namespace

core::Result<core::Machine> parse_smi_query_xml(std::string_view text, const std::string& file_name) {
  if (trim(text).empty()) {
    return core::input_error(fmt::format("{}: line 1: expected nvidia-smi -q -x XML, found an empty file", file_name));
  }
  const smi_query::LineIndex lines(text);
  pugi::xml_document doc;
  const pugi::xml_parse_result parsed = doc.load_buffer(text.data(), text.size(), pugi::parse_default);
  if (!parsed) {
    return core::input_error(fmt::format("{}: line {} (byte {}): malformed XML: {}", file_name,
                                         lines.line_of(parsed.offset), parsed.offset, parsed.description()));
  }
  const pugi::xml_node log = doc.document_element();
  if (std::string_view(log.name()) != "nvidia_smi_log") {
    return core::input_error(
        fmt::format("{}: line {}: expected root element <nvidia_smi_log> (nvidia-smi -q -x), found <{}>", file_name,
                    lines.line_of(log.offset_debug()), log.name()));
  }
  // The output pasted twice is two <nvidia_smi_log> documents in one file (pugixml takes several
  // top-level elements): read the GPUs of each, so fold_repeated_gpus folds or refuses them.
  std::vector<pugi::xml_node> logs;
  for (const auto& element : doc.children()) {
    if (element.type() == pugi::node_element && std::string_view(element.name()) == "nvidia_smi_log") logs.push_back(element);
  }
  std::vector<Node> roots(logs.size());  // sized once: GpuSections point into it
  const Converter converter{lines, file_name};
  std::vector<smi_query::GpuSection> gpus;
  for (std::size_t r = 0; r < logs.size(); ++r) {
    if (auto error = converter.convert(logs[r], roots[r], 0)) return *error;
    std::size_t position = 0;
    for (const auto& element : logs[r].children()) {
      if (element.type() != pugi::node_element) continue;
      if (std::string_view(element.name()) == "gpu") {
        gpus.push_back({&roots[r].children[position], element.attribute("id").value()});
      }
      ++position;
    }
  }
  const Node& root = roots.front();
  if (gpus.empty()) {
    return core::input_error(fmt::format(
        "{}: line {}: expected at least one <gpu> element in <nvidia_smi_log>, found none", file_name, root.line));
  }
  // nvidia-smi -q -x -d SECTION[,SECTION] keeps only the elements asked for: no <product_name> and
  // no <processes> in any <gpu>, by design. Read what they carry and say which (as the text form).
  const bool filtered = !gpus.front().node->children.empty() &&
                        std::none_of(gpus.begin(), gpus.end(), [](const smi_query::GpuSection& g) {
                          // Identity elements come only with the full output: a <gpu> with them lost its name.
                          for (const char* full : {"product_name", "processes", "uuid", "pci", "serial"}) {
                            if (g.node->child(full) != nullptr) return true;
                          }
                          return false;
                        });
  if (filtered) {
    for (auto& g : gpus) g.filtered = true;
  }
  auto machine = smi_query::build_machine(root, gpus, smi_query::Form::xml, file_name);
  if (!machine) return machine.error();
  if (filtered) {
    std::vector<std::string> sections;
    for (const auto& c : gpus.front().node->children) sections.push_back(c.key);
    for (auto& g : machine.value().gpus) {
      if (!g.name.known()) g.name = core::Absent{"not in this filtered nvidia-smi -q -x -d output"};
    }
    machine.value().source = fmt::format("nvidia-smi -q -x -d ({})", file_name);
    machine.value().notes.push_back(fmt::format("{} is a filtered nvidia-smi -q -x (-d): it shows only <{}>; GPU names and "
                                                "every other section are not in it",
                                                file_name, fmt::join(sections, ">, <")));
  }
  return smi_query::fold_repeated_gpus(std::move(machine).value(), root, gpus, smi_query::Form::xml, file_name);
}

}  // namespace gpuvet::parsers
