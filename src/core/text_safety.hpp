// Checks on untrusted text before a parser sees it: nesting depth of JSON/YAML flow collections
// and UTF-8 validity. Pure functions; callers turn a failed check into an Error naming the file.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace gpuvet::core {

// Deepest nesting any document we read may have. Ours are at most ~8 deep; recursive parsers
// and walkers must never see thousands of levels (stack overflow).
inline constexpr std::size_t kMaxNestingDepth = 64;

// Deepest nesting of `[`/`{` outside double-quoted strings (JSON, YAML flow style). Backslash
// escapes inside strings are honoured.
std::size_t bracket_depth(std::string_view text);

// 1-based line of the first byte sequence that is not valid UTF-8, or nullopt when all is valid.
std::optional<std::size_t> first_invalid_utf8_line(std::string_view text);

// `text` with every invalid UTF-8 sequence replaced by U+FFFD, so JSON can carry it.
std::string to_valid_utf8(std::string_view text);

}  // namespace gpuvet::core
