// The field mapping shared by the nvidia-smi -q text and XML parsers: one table row per Gpu field
// with its text path and XML path, and the builder that turns a parsed tree into a core::Machine.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/error.hpp"
#include "core/machine.hpp"
#include "parsers/smi_query_tree.hpp"

namespace gpuvet::parsers::smi_query {

enum class Form { text, xml };

// Absence reasons: a field this output could have had but does not, and one -q never has.
inline constexpr std::string_view kNotInOutput = "not in this nvidia-smi -q output";
inline constexpr std::string_view kNotInSmiQ = "not in nvidia-smi -q";

// One "GPU 00000000:18:00.0" section (text) or <gpu id="..."> element (XML).
struct GpuSection {
  const Node* node = nullptr;
  std::string header_bus_id;  // as printed in the header / id attribute
  bool filtered = false;      // nvidia-smi -q -d SECTION: no Product Name by design
};

// Fills machine-level fields from `root` (the top of the tree) and one Gpu per section, in order.
// Errors name file_name, the line and what was expected (missing Product Name, malformed number).
core::Result<core::Machine> build_machine(const Node& root, const std::vector<GpuSection>& gpus, Form form,
                                          const std::string& file_name);

// One row of the mapping table, for documentation and tests: the paths in each form.
struct FieldPaths {
  std::string field;      // "memory_total_mib"
  std::string text_path;  // "FB Memory Usage/Total" (first alternative)
  std::string xml_path;   // "fb_memory_usage/total"
};
std::vector<FieldPaths> field_table();

}  // namespace gpuvet::parsers::smi_query
