// Duration grammar shared by the CLI and the spec.
#include "core/duration.hpp"

#include <array>
#include <charconv>
#include <cmath>
#include <utility>

#include <fmt/format.h>

namespace gpuvet::core {

namespace {

struct Unit {
  std::string_view name;
  double seconds;
  int rank;  // parts must come largest first: "1h30m", never "30m1h"
};
constexpr std::array<Unit, 6> kUnits = {{
    {"d", 86400, 0}, {"h", 3600, 1}, {"min", 60, 2}, {"m", 60, 2}, {"s", 1, 3}, {"ms", 0.001, 4}}};

bool is_digit(char c) { return c >= '0' && c <= '9'; }

void skip_spaces(std::string_view text, std::size_t& i) {
  while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
}

// A decimal number at text[i]: digits, optionally '.' and digits. Advances i.
std::optional<double> read_number(std::string_view text, std::size_t& i) {
  const std::size_t start = i;
  while (i < text.size() && is_digit(text[i])) ++i;
  if (i == start) return std::nullopt;
  if (i < text.size() && text[i] == '.') {
    ++i;
    const std::size_t fraction = i;
    while (i < text.size() && is_digit(text[i])) ++i;
    if (i == fraction) return std::nullopt;
  }
  double value = 0;
  const auto [end, ec] = std::from_chars(text.data() + start, text.data() + i, value);
  if (ec != std::errc() || end != text.data() + i || !std::isfinite(value)) return std::nullopt;
  return value;
}

// The unit at text[i] (longest match: "ms" before "m"); advances i.
const Unit* read_unit(std::string_view text, std::size_t& i) {
  const Unit* best = nullptr;
  for (const auto& unit : kUnits) {
    if (text.substr(i, unit.name.size()) != unit.name) continue;
    if (best == nullptr || unit.name.size() > best->name.size()) best = &unit;
  }
  if (best != nullptr) i += best->name.size();
  return best;
}

}  // namespace

std::optional<double> parse_duration(std::string_view text) {
  std::size_t i = 0;
  skip_spaces(text, i);
  double seconds = 0;
  int parts = 0;
  int last_rank = -1;
  while (i < text.size()) {
    const auto value = read_number(text, i);
    if (!value) return std::nullopt;
    skip_spaces(text, i);
    if (i == text.size() && parts == 0) return *value;  // a plain number: seconds
    const Unit* unit = read_unit(text, i);
    if (unit == nullptr || unit->rank <= last_rank) return std::nullopt;  // "4x", "30m1h", "1h1h"
    last_rank = unit->rank;
    seconds += *value * unit->seconds;
    ++parts;
    skip_spaces(text, i);
  }
  if (parts == 0 || !std::isfinite(seconds)) return std::nullopt;
  return seconds;
}

std::string format_duration(double seconds) {
  const auto s = static_cast<long long>(std::llround(seconds));
  if (std::abs(seconds - static_cast<double>(s)) > 1e-9) return fmt::format("{}s", seconds);
  if (s % 3600 == 0 && s >= 3600) return fmt::format("{}h", s / 3600);
  if (s % 60 == 0 && s >= 60) return fmt::format("{}m", s / 60);
  return fmt::format("{}s", s);
}

}  // namespace gpuvet::core
