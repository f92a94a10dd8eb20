// Identity tables (software, GPUs) in Markdown and HTML.
#include "report/identity_section.hpp"

#include <fmt/format.h>

#include "report/html_escape.hpp"

namespace gpuvet::report {

namespace {

using core::identity_text;

std::string md_cell(std::string_view text) {
  std::string out;
  for (char ch : text) out += ch == '|' ? std::string("\\|") : ch == '\n' ? std::string(" ") : std::string(1, ch);
  return out.empty() ? "-" : out;
}

const char* kMissing = "Not recorded: this report was written by a gpuvet that did not record the machine's identity.";

std::string simulated_note(const core::MachineIdentity& id) {
  return id.simulated ? "Simulated machine: these serials, UUIDs and versions come from the simulator profile, not from "
                        "hardware."
                      : "";
}

// The html cell of a value: unknown values in grey with their reason.
std::string html_value(const core::Reading<std::string>& v, bool breakable = false) {
  const char* style = breakable ? " style=\"word-break:break-all\"" : "";
  if (v.known() && !v.value().empty()) return fmt::format("<td{}>{}</td>", style, xml_escape(v.value()));
  return fmt::format("<td class=\"na\" style=\"color:#777\">{}</td>", xml_escape(identity_text(v)));
}

}  // namespace

std::string render_identity_markdown(const accept::AcceptReport& r) {
  std::string out = "\n## What was accepted\n\n";
  if (!r.identity) return out + kMissing + "\n";
  const auto& id = *r.identity;
  if (id.simulated) out += "> " + simulated_note(id) + "\n\n";
  out += fmt::format("Host: {}\n\n| Software | Version | Read from |\n|---|---|---|\n", md_cell(identity_text(id.hostname)));
  for (const auto& s : id.software) {
    out += fmt::format("| {} | {} | {} |\n", md_cell(s.title), md_cell(identity_text(s.value)), md_cell(s.source));
  }
  out += "\n| GPU | Name | Serial | UUID | Bus id | VBIOS | Board part number |\n|---|---|---|---|---|---|---|\n";
  for (const auto& g : id.gpus) {
    out += fmt::format("| {} | {} | {} | {} | {} | {} | {} |\n", g.index, md_cell(identity_text(g.name)),
                       md_cell(identity_text(g.serial)), md_cell(identity_text(g.uuid)), md_cell(identity_text(g.pci_bus_id)),
                       md_cell(identity_text(g.vbios)), md_cell(identity_text(g.board_part_number)));
  }
  if (id.gpus.empty()) out += "| - | no GPU was enumerated | | | | | |\n";
  return out;
}

std::string render_identity_html(const accept::AcceptReport& r) {
  std::string out = "<h2 id=\"identity\">What was accepted</h2>\n";
  if (!r.identity) return out + "<p class=\"note\">" + kMissing + "</p>\n";
  const auto& id = *r.identity;
  if (id.simulated) out += "<p class=\"sim\">" + simulated_note(id) + "</p>\n";
  out += "<table id=\"software\"><tr><th>Software</th><th>Version</th><th>Read from</th></tr>\n";
  out += "<tr><td>Host name</td>" + html_value(id.hostname) + "<td>" + xml_escape(id.source) + "</td></tr>\n";
  for (const auto& s : id.software) {
    out += fmt::format("<tr><td>{}</td>{}<td>{}</td></tr>\n", xml_escape(s.title), html_value(s.value), xml_escape(s.source));
  }
  out += "</table>\n<table id=\"gpu-identity\" style=\"margin-top:8px\"><tr><th>GPU</th><th>Name</th><th>Serial</th>"
         "<th>UUID</th><th>Bus id</th><th>VBIOS</th><th>Board part number</th></tr>\n";
  for (const auto& g : id.gpus) {
    out += fmt::format("<tr><td>{}</td>{}{}{}{}{}{}</tr>\n", g.index, html_value(g.name), html_value(g.serial),
                       html_value(g.uuid, true), html_value(g.pci_bus_id), html_value(g.vbios), html_value(g.board_part_number));
  }
  if (id.gpus.empty()) out += "<tr><td colspan=\"7\">no GPU was enumerated</td></tr>\n";
  return out + "</table>\n";
}

}  // namespace gpuvet::report
