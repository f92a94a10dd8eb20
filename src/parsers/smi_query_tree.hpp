// The tree both nvidia-smi -q forms reduce to: text indentation sections and XML elements become
// the same Node shape (key, value, line, children), so one field table reads either form.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpuvet::parsers::smi_query {

// Deepest nesting either parser accepts; nvidia-smi nests at most 5 levels (text) / 7 (XML).
inline constexpr int kMaxDepth = 32;

struct Node {
  std::string key;         // "FB Memory Usage" (text) or "fb_memory_usage" (XML)
  std::string value;       // trimmed value; empty for a pure section header
  bool has_value = false;  // "Key : value" line, or an XML element with text
  int line = 0;            // 1-based line in the input
  std::vector<Node> children;

  // First child with exactly this key, or nullptr.
  [[nodiscard]] const Node* child(std::string_view name) const;
  // Walks a '/'-separated path of child keys ("FB Memory Usage/Total"); nullptr if any step is missing.
  [[nodiscard]] const Node* find(std::string_view path) const;
  // The deepest node on `path` that exists (this node when the first step is missing).
  [[nodiscard]] const Node* deepest_on(std::string_view path) const;
};

// True for the words nvidia-smi prints instead of a value: "N/A", "[N/A]", "Not Supported",
// "Unknown Error", "Requested functionality has been deprecated", "Insufficient Permissions", ...
// These become absent Readings with the text as reason, never zeros.
bool is_absence_text(std::string_view value);

// Value decoders. nullopt means the text does not have the expected shape.
std::optional<long long> parse_integer(std::string_view text);
std::optional<double> parse_decimal(std::string_view text);
// "<number> <unit>" with exactly that unit ("81559 MiB", "700.00 W", "1980 MHz").
std::optional<long long> parse_integer_with_unit(std::string_view text, std::string_view unit);
std::optional<double> parse_decimal_with_unit(std::string_view text, std::string_view unit);

// Byte offset -> 1-based line number, for inputs whose parser reports offsets (pugixml).
class LineIndex {
 public:
  explicit LineIndex(std::string_view text);
  [[nodiscard]] int line_of(std::ptrdiff_t offset) const;

 private:
  std::vector<std::size_t> newlines_;
};

}  // namespace gpuvet::parsers::smi_query
