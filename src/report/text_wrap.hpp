// Fitting terminal text to a width: display width of UTF-8 text with ANSI colour escapes, word
// wrapping with a hanging indent. Used by every text renderer so output fits 120 columns.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace gpuvet::report {

// The width every text output fits (columns; a terminal of 120 or more shows no wrapped line).
inline constexpr std::size_t kTextWidth = 120;

// Columns `text` takes on a terminal: UTF-8 code points, ANSI escape sequences (ESC [ ... letter)
// take none.
std::size_t display_width(std::string_view text);

// Splits `text` into lines of at most `width` columns at spaces; a word longer than `width` is
// cut. Never returns an empty vector (an empty text is one empty line).
std::vector<std::string> wrap_words(std::string_view text, std::size_t width);

// One logical line as several: the first as is up to `width`, the rest indented by `hanging`
// spaces. Each output line ends in '\n'.
std::string wrap_line(std::string_view line, std::size_t hanging, std::size_t width = kTextWidth);

// Every line of `text` longer than `width` wrapped: continuation lines line up under the start
// of the line's second column ("  name    description" -> under "description") when there is one
// in the first half of the line, else under the line's own indentation.
std::string fit_lines(std::string_view text, std::size_t width = kTextWidth);

}  // namespace gpuvet::report
