// Edit distance (optimal string alignment) and the nearest-name rule for typo suggestions.
#include "cli/suggest.hpp"

#include <algorithm>

namespace gpuvet::cli {

std::size_t edit_distance(std::string_view a, std::string_view b) {
  const std::size_t n = a.size();
  const std::size_t m = b.size();
  std::vector<std::vector<std::size_t>> d(n + 1, std::vector<std::size_t>(m + 1, 0));
  for (std::size_t i = 0; i <= n; ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= m; ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= n; ++i) {
    for (std::size_t j = 1; j <= m; ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[n][m];
}

std::optional<std::string> closest_name(std::string_view word, const std::vector<std::string>& candidates) {
  if (word.empty()) return std::nullopt;
  std::optional<std::string> best;
  std::size_t best_distance = 0;
  bool tie = false;
  for (const auto& c : candidates) {
    const std::size_t d = edit_distance(word, c);
    if (!best || d < best_distance) {
      best = c;
      best_distance = d;
      tie = false;
    } else if (d == best_distance) {
      tie = true;
    }
  }
  if (best && !tie && best_distance <= 2 && best_distance * 2 < word.size()) return best;
  std::optional<std::string> prefix_of;
  for (const auto& c : candidates) {
    if (c.size() > word.size() && c.compare(0, word.size(), word) == 0) {
      if (prefix_of) return std::nullopt;  // "c": compare or completion, no guess
      prefix_of = c;
    }
  }
  return prefix_of;
}

}  // namespace gpuvet::cli
