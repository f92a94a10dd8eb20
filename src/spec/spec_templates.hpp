// Spec templates for common offers (profiles/specs/*.yaml, embedded in the binary). A template
// for the same offer as a simulator profile carries that profile's name (hgx-h100-8x, ...).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/error.hpp"

namespace gpuvet::spec {

struct TemplateInfo {
  std::string name;         // "hgx-h100-8x"
  std::string description;  // the offer, in one line
};

// The built-in templates, sorted by name.
std::vector<TemplateInfo> list_templates();

// The template's YAML text as shipped (comments included). Unknown name -> usage error listing them.
core::Result<std::string> template_text(std::string_view name);

}  // namespace gpuvet::spec
