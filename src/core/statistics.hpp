// The one median of gpuvet: medians of samples (copy cells, collective iterations), of GPUs
// (burn-in peers, compare), of GPU sets (attribution) and of trend buckets all come from here.
#pragma once

#include <algorithm>
#include <cstddef>
#include <optional>
#include <vector>

namespace gpuvet::core {

// The middle value, or the mean of the two middle values for an even count (the same number as
// sorting and taking the middle, in O(n)); nullopt for no values.
inline std::optional<double> median(std::vector<double> values) {
  if (values.empty()) return std::nullopt;
  const auto mid = values.size() / 2;
  std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(mid), values.end());
  const double upper = values[mid];
  if (values.size() % 2 == 1) return upper;
  const double lower = *std::max_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(mid));
  return (lower + upper) / 2;
}

}  // namespace gpuvet::core
