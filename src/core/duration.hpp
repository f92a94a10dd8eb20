// The one duration grammar of gpuvet, for the command line and the spec alike: "90s", "15m",
// "4h", "1h30m", "1.5h", "100ms", "2d", or a plain number of seconds. Pure.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace gpuvet::core {

// The longest duration any option or spec key accepts: a burn-in of 30 days.
inline constexpr double kMaxDurationS = 30.0 * 24 * 3600;

// Seconds, or nullopt when `text` is not a duration: parts "<number><unit>" with units d, h, m
// (or min), s, ms, each at most once and largest first, optionally separated by spaces; or a
// plain number (seconds). Numbers are decimal (no signs, no exponents); a value too large to
// represent is not a duration. No recursion, no regex: linear in the length of `text`.
std::optional<double> parse_duration(std::string_view text);

// "4h", "30m", "90s" when whole, else seconds with decimals: the inverse of parse_duration for
// the values people write.
std::string format_duration(double seconds);

}  // namespace gpuvet::core
