// Serves the embedded spec templates. Each is checked by a test to parse, so a template that
// fails to parse here is a gpuvet bug; list_templates() then shows it without a description.
#include "spec/spec_templates.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "catalog/gpu_catalog.hpp"
#include "spec/spec.hpp"

namespace gpuvet::spec {
namespace data {
const std::vector<std::pair<std::string_view, std::string_view>>& embedded_files();
}  // namespace data

namespace {

// "specs/hgx-h100-8x.yaml" -> "hgx-h100-8x".
std::string template_name(std::string_view path) {
  auto slash = path.rfind('/');
  auto base = slash == std::string_view::npos ? path : path.substr(slash + 1);
  if (base.size() > 5 && base.substr(base.size() - 5) == ".yaml") base.remove_suffix(5);
  return std::string(base);
}

}  // namespace

std::vector<TemplateInfo> list_templates() {
  std::vector<TemplateInfo> out;
  for (const auto& [path, text] : data::embedded_files()) {
    TemplateInfo info{template_name(path), {}};
    auto parsed = parse_spec(text, std::string(path), catalog::gpu_catalog());
    if (parsed) info.description = parsed->description;
    out.push_back(std::move(info));
  }
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  return out;
}

core::Result<std::string> template_text(std::string_view name) {
  std::vector<std::string> names;
  for (const auto& [path, text] : data::embedded_files()) {
    if (template_name(path) == name) return std::string(text);
    names.push_back(template_name(path));
  }
  std::sort(names.begin(), names.end());
  return core::usage_error(fmt::format("no spec template '{}' (one of: {})", name, fmt::join(names, ", ")));
}

}  // namespace gpuvet::spec
