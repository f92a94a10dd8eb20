// Node lookups, absence words and value decoders shared by the nvidia-smi -q text and XML parsers.
#include "parsers/smi_query_tree.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>

#include "parsers/text_lines.hpp"

namespace gpuvet::parsers::smi_query {

const Node* Node::child(std::string_view name) const {
  for (const auto& c : children) {
    if (c.key == name) return &c;
  }
  return nullptr;
}

const Node* Node::find(std::string_view path) const {
  const Node* node = this;
  while (node != nullptr && !path.empty()) {
    const auto slash = path.find('/');
    node = node->child(path.substr(0, slash));
    path = slash == std::string_view::npos ? std::string_view{} : path.substr(slash + 1);
  }
  return node;
}

const Node* Node::deepest_on(std::string_view path) const {
  const Node* node = this;
  while (!path.empty()) {
    const auto slash = path.find('/');
    const Node* next = node->child(path.substr(0, slash));
    if (next == nullptr) break;
    node = next;
    path = slash == std::string_view::npos ? std::string_view{} : path.substr(slash + 1);
  }
  return node;
}

namespace {
bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}
}  // namespace

bool is_absence_text(std::string_view value) {
  value = trim(value);
  if (value.empty()) return true;
  // nvidia-smi brackets values it cannot read on some boards: "[N/A]", "[Not Supported]".
  if (value.front() == '[' && value.back() == ']') return true;
  static constexpr std::array<std::string_view, 12> kWords = {
      "N/A",           "Not Supported", "Unknown Error", "Unknown",     "Insufficient Permissions",
      "Not Available", "Not Found",     "No data",       "GPU is lost", "GPU requires reset",
      "Requested functionality has been deprecated",     "Not Applicable"};
  return std::any_of(kWords.begin(), kWords.end(), [&](std::string_view w) { return iequals(value, w); });
}

std::optional<long long> parse_integer(std::string_view text) {
  text = trim(text);
  long long out = 0;
  const auto* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, out);
  if (text.empty() || ec != std::errc() || ptr != end) return std::nullopt;
  return out;
}

std::optional<double> parse_decimal(std::string_view text) {
  text = trim(text);
  double out = 0;
  const auto* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, out, std::chars_format::fixed);
  if (text.empty() || ec != std::errc() || ptr != end) return std::nullopt;
  return out;
}

namespace {
// Splits "<number> <unit>" and checks the unit; returns the number part.
std::optional<std::string_view> number_before_unit(std::string_view text, std::string_view unit) {
  text = trim(text);
  const auto space = text.rfind(' ');
  if (space == std::string_view::npos || trim(text.substr(space + 1)) != unit) return std::nullopt;
  return trim(text.substr(0, space));
}
}  // namespace

std::optional<long long> parse_integer_with_unit(std::string_view text, std::string_view unit) {
  const auto number = number_before_unit(text, unit);
  return number ? parse_integer(*number) : std::nullopt;
}

std::optional<double> parse_decimal_with_unit(std::string_view text, std::string_view unit) {
  const auto number = number_before_unit(text, unit);
  return number ? parse_decimal(*number) : std::nullopt;
}

LineIndex::LineIndex(std::string_view text) {
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n') newlines_.push_back(i);
  }
}

int LineIndex::line_of(std::ptrdiff_t offset) const {
  if (offset < 0) return 0;
  const auto it = std::lower_bound(newlines_.begin(), newlines_.end(), static_cast<std::size_t>(offset));
  return static_cast<int>(it - newlines_.begin()) + 1;
}

}  // namespace gpuvet::parsers::smi_query
