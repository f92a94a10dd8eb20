// Cut nvlink -s lines (see nvlink_status_cut.hpp).
#include "parsers/nvlink_status_cut.hpp"

#include "parsers/text_lines.hpp"

namespace gpuvet::parsers {

bool looks_cut(std::string_view line) {
  for (std::string_view full : {"Link ", "GPU "}) {
    if (starts_with(line, full) || starts_with(full, line)) return true;
  }
  return false;
}

bool value_looks_cut(std::string_view value) {
  if (starts_with("<inactive>", value)) return true;
  const auto digits = value.find_first_not_of("0123456789.");
  if (digits == 0) return false;
  if (digits == std::string_view::npos) return true;
  const auto unit = value.substr(digits);
  return unit.size() < 5 && starts_with(" GB/s", unit);
}

}  // namespace gpuvet::parsers
