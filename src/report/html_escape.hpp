// Escaping for HTML/SVG/XML text and attributes (internal to report/).
#pragma once

#include <string>
#include <string_view>

namespace gpuvet::report {

// & < > " ' escaped; control characters other than tab and newline dropped (invalid in XML).
std::string xml_escape(std::string_view text);

}  // namespace gpuvet::report
