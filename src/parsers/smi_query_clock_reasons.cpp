// Clocks event reasons (named "Clocks Throttle Reasons" before driver 530) of one GPU, in
// nvidia-smi's own names ("SW Power Cap"), from either the text or the XML form.
#include "parsers/smi_query_clock_reasons.hpp"

#include "core/telemetry.hpp"

#include <array>
#include <fmt/format.h>
#include <optional>
#include <utility>

namespace gpuvet::parsers::smi_query {
namespace {

// nvidia-smi's names for the XML clocks-event-reason suffixes.
std::string reason_name(std::string_view xml_suffix) {
  for (const auto& e : core::clocks_event::kTable) {
    if (e.smi_xml_suffix == xml_suffix) return std::string(e.smi_text);
  }
  if (xml_suffix == "unknown") return "Unknown";
  return std::string(xml_suffix);
}

struct ReasonScan {
  std::vector<std::string> active;  // except idle
  std::optional<bool> idle;
  std::string idle_reason = "no Idle entry in the clocks event reasons";
  int readable = 0;
};

// Walks the reasons; text nests "HW Thermal Slowdown" under "HW Slowdown", so recurse.
void scan_reasons(const Node& section, Form form, std::string_view xml_prefix, ReasonScan& scan) {
  for (const auto& c : section.children) {
    std::string name = c.key;
    if (form == Form::xml) {
      name = c.key.rfind(xml_prefix, 0) == 0 ? reason_name(std::string_view(c.key).substr(xml_prefix.size()))
                                             : std::string();
    }
    if (!name.empty() && c.has_value) {
      const bool is_idle = name == "Idle";
      if (c.value == "Active" || c.value == "Not Active") {
        ++scan.readable;
        const bool active = c.value == "Active";
        if (is_idle) scan.idle = active;
        else if (active) scan.active.push_back(name);
      } else if (is_idle) {
        scan.idle_reason = c.value.empty() ? "empty value" : c.value;
      }
    }
    scan_reasons(c, form, xml_prefix, scan);
  }
}

}  // namespace

void read_clocks_event_reasons(const Node& gpu_node, Form form, core::Gpu& gpu) {
  // "Clocks Throttle Reasons" became "Clocks Event Reasons" in driver 530.
  struct Section { std::string_view path; std::string_view xml_prefix; };
  static constexpr std::array<Section, 2> kText = {{{"Clocks Event Reasons", ""}, {"Clocks Throttle Reasons", ""}}};
  static constexpr std::array<Section, 2> kXml = {{{"clocks_event_reasons", "clocks_event_reason_"},
                                                   {"clocks_throttle_reasons", "clocks_throttle_reason_"}}};
  for (const auto& s : form == Form::text ? kText : kXml) {
    const Node* section = gpu_node.find(s.path);
    if (section == nullptr) continue;
    ReasonScan scan;
    scan_reasons(*section, form, s.xml_prefix, scan);
    if (scan.readable == 0) {
      const std::string reason = section->has_value && !section->value.empty()
                                     ? section->value
                                     : fmt::format("no readable entry under {}", s.path);
      gpu.idle = core::Absent{reason};
      gpu.clocks_event_reasons = core::Absent{reason};
      return;
    }
    gpu.idle = scan.idle ? core::Reading<bool>(*scan.idle) : core::Reading<bool>(core::Absent{scan.idle_reason});
    gpu.clocks_event_reasons = std::move(scan.active);
    return;
  }
  gpu.idle = core::Absent{std::string(kNotInOutput)};
  gpu.clocks_event_reasons = core::Absent{std::string(kNotInOutput)};
}

}  // namespace gpuvet::parsers::smi_query
