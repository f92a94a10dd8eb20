// XML/HTML escaping shared by the HTML, SVG and JUnit renderers.
#include "report/html_escape.hpp"

namespace gpuvet::report {

std::string xml_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char ch : text) {
    switch (ch) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default:
        if (static_cast<unsigned char>(ch) < 0x20 && ch != '\n' && ch != '\t') break;
        out += ch;
    }
  }
  return out;
}

}  // namespace gpuvet::report
