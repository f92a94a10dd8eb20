// Matching a monitor history's GPUs with the GPUs present now (see history_gpus.hpp).
#include "telemetry/history_gpus.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <system_error>

#include <unistd.h>

#include "telemetry/writer_lock.hpp"

namespace gpuvet::telemetry {

namespace {

bool all_have_uuids(const std::vector<core::BurninGpu>& gpus) {
  return std::all_of(gpus.begin(), gpus.end(), [](const core::BurninGpu& g) { return g.uuid.known(); });
}

core::Error other_gpus(const std::string& path, const std::string& why) {
  return core::input_error(fmt::format("{}: holds the history of other GPUs ({}); give another --db", path, why));
}

core::Result<HistoryGpuMatch> match_by_position(const std::string& path, const std::vector<core::BurninGpu>& history,
                                                const std::vector<core::BurninGpu>& present) {
  if (history.size() != present.size()) {
    return other_gpus(path, fmt::format("{} GPUs there, {} here, and without every UUID they cannot be told apart",
                                        history.size(), present.size()));
  }
  for (std::size_t i = 0; i < present.size(); ++i) {
    if (history[i].index != present[i].index) {
      return other_gpus(path, fmt::format("GPU index {} there, {} here", history[i].index, present[i].index));
    }
    if (history[i].uuid.known() && present[i].uuid.known() && *history[i].uuid != *present[i].uuid) {
      return other_gpus(path, fmt::format("GPU {} is {} there, {} here", history[i].index, *history[i].uuid, *present[i].uuid));
    }
  }
  return same_numbering(present);
}

}  // namespace

HistoryGpuMatch same_numbering(const std::vector<core::BurninGpu>& present) {
  HistoryGpuMatch m;
  m.present = present;
  for (const auto& g : present) m.source_index.push_back(g.index);
  return m;
}

core::Result<HistoryGpuMatch> match_history_gpus(const std::string& path, const std::vector<core::BurninGpu>& history,
                                                 const std::vector<core::BurninGpu>& present) {
  if (!all_have_uuids(history) || !all_have_uuids(present)) return match_by_position(path, history, present);
  HistoryGpuMatch m;
  std::set<int> matched;
  std::size_t unknown = 0;
  std::string first_unknown;
  for (const auto& now : present) {
    const auto it = std::find_if(history.begin(), history.end(),
                                 [&](const core::BurninGpu& h) { return *h.uuid == *now.uuid; });
    if (it == history.end() || matched.count(it->index)) {
      if (unknown++ == 0) first_unknown = fmt::format("GPU {} here, {}, is not in it", now.index, *now.uuid);
      continue;
    }
    matched.insert(it->index);
    core::BurninGpu renumbered = now;  // this run's readings of it (limits may have changed)
    renumbered.index = it->index;
    m.present.push_back(std::move(renumbered));
    m.source_index.push_back(now.index);
  }
  if (m.present.empty()) {
    return other_gpus(path, fmt::format("no GPU UUID in common: {} GPUs there, {} here; another machine", history.size(),
                                        present.size()));
  }
  if (unknown > 0) {
    return other_gpus(path, fmt::format("{}{}: a card swapped in or added starts another history",
                                        first_unknown, unknown > 1 ? fmt::format(" (nor {} more)", unknown - 1) : ""));
  }
  for (const auto& h : history) {
    if (!matched.count(h.index)) m.missing.push_back(h);
  }
  // In history order, so GPU labels and alerts list them as before.
  std::vector<std::size_t> order(m.present.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return m.present[a].index < m.present[b].index; });
  HistoryGpuMatch sorted;
  sorted.missing = std::move(m.missing);
  for (std::size_t i : order) {
    sorted.present.push_back(m.present[i]);
    sorted.source_index.push_back(m.source_index[i]);
  }
  return sorted;
}

std::optional<ReplacedCards> replaced_cards(const std::vector<core::BurninGpu>& history, const std::vector<core::BurninGpu>& present) {
  if (!all_have_uuids(history) || !all_have_uuids(present)) return std::nullopt;
  const auto in = [](const std::vector<core::BurninGpu>& list, const core::BurninGpu& g) {
    return std::any_of(list.begin(), list.end(), [&](const core::BurninGpu& x) { return *x.uuid == *g.uuid; });
  };
  ReplacedCards r;
  bool common = false;
  for (const auto& g : present) {
    if (in(history, g)) {
      common = true;
    } else {
      r.new_cards.push_back(g);
    }
  }
  if (!common || r.new_cards.empty()) return std::nullopt;
  for (const auto& h : history) {
    if (!in(present, h)) r.gone.push_back(h);
  }
  return r;
}

core::Result<std::string> move_history_aside(const std::string& path, const std::string& stamp) {
  // Never from under a writer: a daemon still writing it would go on in the moved file.
  if (auto e = WriterLock::check_free(path)) return *e;
  const std::string target = path + ".replaced-" + stamp;
  std::vector<std::pair<std::string, std::string>> moves{{path, target}};
  for (const char* side : {"-wal", "-shm"}) {
    if (::access((path + side).c_str(), F_OK) == 0) moves.emplace_back(path + side, target + side);
  }
  std::vector<std::string> linked;
  for (const auto& [from, to] : moves) {
    if (::link(from.c_str(), to.c_str()) != 0) {
      const std::string why = std::generic_category().message(errno);
      for (const auto& l : linked) ::unlink(l.c_str());  // only the new names: the history is as it was
      return core::input_error(fmt::format("{}: cannot move the history aside to {} ({}); move it yourself or give another --db",
                                           from, to, why));
    }
    linked.push_back(to);
  }
  for (const auto& [from, to] : moves) ::unlink(from.c_str());  // each is reachable under its new name
  return target;
}

}  // namespace gpuvet::telemetry
