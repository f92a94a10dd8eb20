// Plausibility bounds of measured values (see bandwidth_plausibility.hpp).
#include "parsers/bandwidth_plausibility.hpp"

#include <cmath>
#include <fmt/format.h>

namespace gpuvet::parsers {

std::optional<std::string> implausible_non_negative(double value) {
  if (std::isnan(value)) return std::string("is not a number (NaN)");
  if (std::isinf(value)) return std::string("is infinite");
  if (value < 0) return std::string("is negative");
  return std::nullopt;
}

std::optional<std::string> implausible_gbps(double gbps, double ceiling) {
  if (auto why = implausible_non_negative(gbps)) return why;
  if (gbps > ceiling) {
    return fmt::format("is above {:.0f} GB/s, more than any GPU link carries (a corrupt or edited log)", ceiling);
  }
  return std::nullopt;
}

}  // namespace gpuvet::parsers
