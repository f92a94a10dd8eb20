// "Did you mean": the known name closest to a mistyped one, by edit distance.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpuvet::cli {

// Levenshtein distance with adjacent transpositions counted as one edit ("acpet" -> "accept" is 2).
std::size_t edit_distance(std::string_view a, std::string_view b);

// The candidate nearest to `word` when it is near enough to be a typo: at most 2 edits and fewer
// than half of the word's letters, or `word` is a prefix of exactly one candidate. nullopt else.
std::optional<std::string> closest_name(std::string_view word, const std::vector<std::string>& candidates);

}  // namespace gpuvet::cli
