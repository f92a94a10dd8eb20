// Names of the soak's traffic kinds, as --traffic and the spec spell them.
#include "core/traffic.hpp"

#include <algorithm>

namespace gpuvet::core {

std::string_view to_string(TrafficKind kind) {
  switch (kind) {
    case TrafficKind::all_reduce: return "all_reduce";
    case TrafficKind::all_to_all: return "all_to_all";
    case TrafficKind::copies: return "copies";
  }
  return "all_reduce";
}

bool TrafficSettings::has(TrafficKind k) const { return std::find(kinds.begin(), kinds.end(), k) != kinds.end(); }

std::optional<std::vector<TrafficKind>> parse_traffic_kinds(std::string_view text) {
  if (text == "none") return std::vector<TrafficKind>{};
  if (text == "all") return std::vector<TrafficKind>(std::begin(kTrafficKinds), std::end(kTrafficKinds));
  std::vector<bool> chosen(std::size(kTrafficKinds), false);
  while (true) {
    const auto comma = text.find(',');
    const std::string_view word = text.substr(0, comma);
    bool found = false;
    for (std::size_t i = 0; i < std::size(kTrafficKinds); ++i) {
      if (to_string(kTrafficKinds[i]) == word) chosen[i] = found = true;
    }
    if (!found) return std::nullopt;
    if (comma == std::string_view::npos) break;
    text.remove_prefix(comma + 1);
  }
  std::vector<TrafficKind> out;
  for (std::size_t i = 0; i < std::size(kTrafficKinds); ++i) {
    if (chosen[i]) out.push_back(kTrafficKinds[i]);
  }
  return out;
}

std::string traffic_kinds_text(const std::vector<TrafficKind>& kinds) {
  std::string out;
  for (auto k : kinds) out += (out.empty() ? "" : ",") + std::string(to_string(k));
  return out.empty() ? "none" : out;
}

}  // namespace gpuvet::core
