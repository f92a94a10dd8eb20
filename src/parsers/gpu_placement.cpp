// Placement of positional GPU sections by identity (see gpu_placement.hpp).
#include "parsers/gpu_placement.hpp"

#include "parsers/machine_merge.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <map>
#include <optional>
#include <set>

namespace gpuvet::parsers {

namespace {

// What names a GPU whatever its number: the keys another part may know it by.
std::vector<std::pair<std::string, std::string>> identities(const core::Gpu& g) {
  std::vector<std::pair<std::string, std::string>> out;
  if (g.pci_bus_id.known()) out.emplace_back("bus id", core::normalize_pci_bus_id(*g.pci_bus_id));
  if (g.uuid.known()) out.emplace_back("UUID", *g.uuid);
  if (g.serial.known()) out.emplace_back("serial", *g.serial);
  return out;
}

bool is_partial(const core::Machine& part, size_t most_gpus_elsewhere) {
  if (!gpu_indices_are_positions(part)) return false;
  const bool fewer_than_attached = part.attached_gpus.known() && static_cast<int>(part.gpus.size()) < *part.attached_gpus;
  return fewer_than_attached || part.gpus.size() < most_gpus_elsewhere;
}

struct Anchor {
  std::set<int> indices;
  std::string file;
};

}  // namespace

bool gpu_indices_are_positions(const core::Machine& part) { return part.source.rfind("nvidia-smi -q", 0) == 0; }

std::vector<core::Machine> place_positional_gpus(std::vector<core::Machine> parts, std::vector<std::string>& notes) {
  std::vector<bool> partial(parts.size(), false);
  for (size_t p = 0; p < parts.size(); ++p) {
    size_t most = 0;
    for (size_t q = 0; q < parts.size(); ++q) {
      if (q != p) most = std::max(most, parts[q].gpus.size());
    }
    partial[p] = is_partial(parts[p], most);
  }
  // The GPUs the other parts number, by what identifies them.
  std::map<std::pair<std::string, std::string>, Anchor> anchors;
  size_t numbered = 0;
  for (size_t p = 0; p < parts.size(); ++p) {
    if (partial[p]) continue;
    numbered += parts[p].gpus.size();
    for (const auto& g : parts[p].gpus) {
      for (const auto& id : identities(g)) {
        auto& a = anchors[id];
        a.indices.insert(g.index);
        if (a.file.empty()) a.file = source_file(parts[p].source);
      }
    }
  }
  if (numbered == 0) return parts;  // nothing else is numbered: no position to collide with

  for (size_t p = 0; p < parts.size(); ++p) {
    if (!partial[p]) continue;
    auto& part = parts[p];
    const std::string file = source_file(part.source);
    const std::string shows = part.attached_gpus.known()
                                  ? fmt::format("{} of {} GPU sections", part.gpus.size(), *part.attached_gpus)
                                  : fmt::format("{} GPU section(s) where other inputs list more GPUs", part.gpus.size());
    std::vector<core::Gpu> placed;
    std::set<int> taken;
    for (size_t pos = 0; pos < part.gpus.size(); ++pos) {
      const auto& g = part.gpus[pos];
      const std::string label = g.pci_bus_id.known() ? core::normalize_pci_bus_id(*g.pci_bus_id)
                                                     : fmt::format("at position {}", pos);
      std::optional<int> index;
      std::string how;
      for (const auto& id : identities(g)) {
        const auto it = anchors.find(id);
        if (it == anchors.end() || it->second.indices.size() != 1) continue;
        index = *it->second.indices.begin();
        how = fmt::format("{} as in {}", id.first, it->second.file);
        break;
      }
      if (!index || taken.count(*index) != 0) {
        notes.push_back(fmt::format(
            "{}: GPU {} not merged: the file shows {} (nvidia-smi -q -i N, or a trimmed paste) and does not print GPU "
            "numbers, and no other input names this GPU by bus id, UUID or serial; its readings are left out rather "
            "than given to GPU {} by position",
            file, label, shows, pos));
        continue;
      }
      taken.insert(*index);
      core::Gpu moved = g;
      moved.index = *index;
      if (*index != static_cast<int>(pos)) {
        notes.push_back(fmt::format("{}: GPU {} is GPU {} (matched by {}; the file shows {})", file, label, *index, how, shows));
      }
      placed.push_back(std::move(moved));
    }
    std::sort(placed.begin(), placed.end(), [](const core::Gpu& a, const core::Gpu& b) { return a.index < b.index; });
    part.gpus = std::move(placed);
  }
  return parts;
}

}  // namespace gpuvet::parsers
