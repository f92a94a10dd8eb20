// One machine, or files of several? (see analyze_inputs.hpp)
#include "cli/analyze_inputs.hpp"

#include <algorithm>
#include <cctype>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <map>
#include <set>

#include "parsers/machine_merge.hpp"

namespace gpuvet::cli {

namespace {

constexpr std::string_view kNotOneMachine = "the files are not of one machine: ";

std::string folded(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (s.rfind("nvidia ", 0) == 0) s.erase(0, 7);
  return s;
}

// "0000:07:00.0" -> "07:00.0": nccl-tests prints "[0x07]" with no PCI domain (read as 0000).
std::string bus_part(const std::string& id) {
  const auto colon = id.find(':');
  return id.size() == 12 && colon == 4 ? id.substr(5) : id;
}

// The files of the described parts that show what `knows` asks, joined; the merged source when none.
template <class Pred>
std::string files_knowing(const std::vector<core::Machine>& parts, const core::Machine& machine, Pred knows) {
  std::vector<std::string> files;
  for (const auto& p : parts) {
    if (knows(p)) files.push_back(parsers::source_file(p.source));
  }
  return files.empty() ? machine.source : fmt::format("{}", fmt::join(files, " and "));
}

// The file that names GPU `index` (`name`): a described part, else a log whose device has that name.
std::string namer(int index, const std::string& name, const std::vector<core::Machine>& parts, const std::vector<LogDevices>& logs,
                  const core::Machine& machine) {
  for (const auto& p : parts) {
    for (const auto& g : p.gpus) {
      if (g.index == index && g.name.known()) return parsers::source_file(p.source);
    }
  }
  for (const auto& log : logs) {
    for (const auto& d : log.devices) {
      if (d.name == name) return log.file;
    }
  }
  return machine.source;
}

core::Gpu* gpu_with_bus(core::Machine& m, const std::string& bus) {
  for (auto& g : m.gpus) {
    if (g.pci_bus_id.known() && bus_part(core::normalize_pci_bus_id(*g.pci_bus_id)) == bus_part(bus)) return &g;
  }
  return nullptr;
}

core::Gpu* gpu_with_index(core::Machine& m, int index) {
  for (auto& g : m.gpus) {
    if (g.index == index) return &g;
  }
  return nullptr;
}

std::string quoted_name(const std::string& s) { return "\"" + s + "\""; }

struct Match {
  core::Gpu* gpu = nullptr;
  const LogDevice* device = nullptr;
  bool by_bus = false;
};

// Where a one-host log's device sits on the machine; an Error when its bus id is on no GPU of a
// machine that lists them all.
core::Result<Match> place(core::Machine& m, const LogDevice& d, const LogDevices& log, const std::string& bus_files) {
  Match match{nullptr, &d, false};
  if (!d.bus_id.empty()) {
    match.gpu = gpu_with_bus(m, d.bus_id);
    match.by_bus = match.gpu != nullptr;
  }
  if (match.gpu != nullptr) return match;
  const bool all_bus = !m.gpus.empty() && std::all_of(m.gpus.begin(), m.gpus.end(), [](const core::Gpu& g) { return g.pci_bus_id.known(); });
  if (!d.bus_id.empty() && all_bus) {
    return core::input_error(fmt::format("{}{} of {} is on PCI bus {}, which is not a GPU of {}", kNotOneMachine, d.label, log.file,
                                         d.bus_id, bus_files));
  }
  auto* g = d.index >= 0 ? gpu_with_index(m, d.index) : nullptr;
  if (g != nullptr && !(g->pci_bus_id.known() && !d.bus_id.empty())) match.gpu = g;
  return match;
}

}  // namespace

bool same_model(const std::string& a, const std::string& b, const core::Catalog& catalog) {
  const auto fa = folded(a), fb = folded(b);
  if (fa == fb) return true;
  const auto cut = [](const std::string& x, const std::string& whole) {
    return x.size() > 3 && x.compare(x.size() - 3, 3, "...") == 0 && whole.compare(0, x.size() - 3, x, 0, x.size() - 3) == 0;
  };
  if (cut(fa, fb) || cut(fb, fa)) return true;
  const auto* ma = catalog.match(a);
  const auto* mb = catalog.match(b);
  return ma != nullptr && mb != nullptr && ma->id == mb->id;
}

std::vector<LogDevices> log_devices(const Benchmarks& runs) {
  std::vector<LogDevices> out;
  for (const auto& run : runs.collectives) {
    LogDevices log{parsers::source_file(run.source), {}};
    for (const auto& r : run.rank_devices) {
      log.devices.push_back(LogDevice{fmt::format("rank {}", r.rank), r.host, r.device >= 0 ? r.device : r.rank, r.bus_id, r.name});
    }
    if (!log.devices.empty()) out.push_back(std::move(log));
  }
  for (const auto& run : runs.bandwidth) {
    LogDevices log{parsers::source_file(run.source), {}};
    for (size_t i = 0; i < run.device_names.size(); ++i) {
      const auto bus = i < run.device_bus_ids.size() ? run.device_bus_ids[i] : std::string();
      log.devices.push_back(LogDevice{fmt::format("device {}", i), "", static_cast<int>(i), bus, run.device_names[i]});
    }
    if (!log.devices.empty()) out.push_back(std::move(log));
  }
  return out;
}

core::Result<core::Machine> reconcile_with_logs(core::Machine machine, const std::vector<core::Machine>& parts,
                                                const std::vector<LogDevices>& logs, const core::Catalog& catalog) {
  const auto count_files = files_knowing(parts, machine, [](const core::Machine& p) { return p.attached_gpus.known(); });
  const auto bus_files = files_knowing(parts, machine, [](const core::Machine& p) {
    return std::any_of(p.gpus.begin(), p.gpus.end(), [](const core::Gpu& g) { return g.pci_bus_id.known(); });
  });
  for (const auto& log : logs) {
    std::map<std::string, int> per_host;
    for (const auto& d : log.devices) ++per_host[d.host];
    if (machine.attached_gpus.known()) {
      for (const auto& [host, n] : per_host) {
        if (n <= *machine.attached_gpus) continue;
        return core::input_error(fmt::format("{}{} shows {} GPUs{} but {} has {} GPUs", kNotOneMachine, log.file, n,
                                             host.empty() ? std::string() : " on host " + host, count_files, *machine.attached_gpus));
      }
    }
    if (per_host.size() > 1) {
      // Several hosts: the description is of one node; every model the log shows must be one of its.
      for (const auto& d : log.devices) {
        const core::Gpu* named = nullptr;
        bool agrees = false;
        for (const auto& g : machine.gpus) {
          if (!g.name.known() || d.name.empty()) continue;
          if (named == nullptr) named = &g;
          agrees = agrees || same_model(*g.name, d.name, catalog);
        }
        if (named != nullptr && !agrees) {
          return core::input_error(fmt::format("{}{} of {} (host {}) is {} but GPU {} is {} in {}", kNotOneMachine, d.label, log.file, d.host,
                                               quoted_name(d.name), named->index, quoted_name(*named->name),
                                               namer(named->index, *named->name, parts, logs, machine)));
        }
      }
      continue;
    }
    std::vector<Match> matches;
    for (const auto& d : log.devices) {
      auto match = place(machine, d, log, bus_files);
      if (!match) return match.error();
      const auto* g = match->gpu;
      if (g != nullptr && g->name.known() && !d.name.empty() && !same_model(*g->name, d.name, catalog)) {
        return core::input_error(fmt::format("{}GPU {} is {} in {} but {} of {} is {}", kNotOneMachine, g->index, quoted_name(*g->name),
                                             namer(g->index, *g->name, parts, logs, machine), d.label, log.file, quoted_name(d.name)));
      }
      if (g != nullptr) matches.push_back(*match);
    }
    // Fill: by bus id, or by device number when the log has every GPU and no bus id to check.
    const bool whole = log.devices.size() == machine.gpus.size() &&
                       (!machine.attached_gpus.known() || *machine.attached_gpus == static_cast<int>(machine.gpus.size()));
    int named = 0;
    bool by_count = false;
    for (const auto& m : matches) {
      if (!m.by_bus && !whole) continue;
      if (!m.gpu->name.known() && !m.device->name.empty()) {
        m.gpu->name = m.device->name;
        ++named;
        by_count = by_count || !m.by_bus;
      }
      if (!m.gpu->pci_bus_id.known() && !m.device->bus_id.empty()) m.gpu->pci_bus_id = m.device->bus_id;
    }
    const auto& host = per_host.begin()->first;
    // "localhost" names no machine (nccl-tests under a launcher that sets no host name).
    if (!machine.hostname.known() && !host.empty() && host != "localhost" && !matches.empty()) machine.hostname = host;
    if (named > 0) {
      machine.notes.push_back(fmt::format("the models of {} GPU(s) are from the device lines of {}, which agree with {}", named, log.file,
                                          by_count ? "the GPU count described" : "the bus ids described"));
    }
  }
  return machine;
}

core::Result<core::Machine> check_nvlink_models(core::Machine machine, const std::vector<core::Machine>& parts,
                                                const std::vector<LogDevices>& logs, const core::Catalog& catalog) {
  if (!machine.links.known()) return machine;
  const auto topo = files_knowing(parts, machine, [](const core::Machine& p) { return p.links.known(); });
  const auto& links = *machine.links;
  const int n = std::min(links.size(), static_cast<int>(machine.gpus.size()));
  for (int a = 0; a < n; ++a) {
    for (int b = 0; b < n; ++b) {
      if (a == b || !links.at(a, b).is_nvlink()) continue;
      const auto& g = machine.gpus[static_cast<size_t>(a)];
      const auto* model = g.name.known() ? catalog.match(*g.name) : nullptr;
      if (model == nullptr || model->nvlink_generation != 0) continue;
      return core::input_error(fmt::format("{}{} shows {} between GPU{} and GPU{}, but GPU {} is {} in {}, and the {} has no NVLink",
                                           kNotOneMachine, topo, core::to_string(links.at(a, b)), g.index,
                                           machine.gpus[static_cast<size_t>(b)].index, g.index, quoted_name(*g.name),
                                           namer(g.index, *g.name, parts, logs, machine), model->display_name));
    }
  }
  return machine;
}

void note_foreign_events(core::Machine& machine) {
  if (machine.events.empty() || machine.gpus.empty()) return;
  std::set<std::string> gpus;
  for (const auto& g : machine.gpus) {
    if (!g.pci_bus_id.known()) return;
    gpus.insert(bus_part(core::normalize_pci_bus_id(*g.pci_bus_id)));
  }
  // The kernel log's own advice to give -q is moot: the GPUs are named.
  constexpr std::string_view kAdvice = "; give nvidia-smi -q of the same machine to name the GPUs";
  for (auto& note : machine.notes) {
    const auto at = note.find(kAdvice);
    if (at != std::string::npos) note.erase(at, kAdvice.size());
  }
  std::vector<std::string> all, foreign;
  std::set<std::string> lost;  // bus ids the log itself says were lost: absent from a later -q for that reason
  std::string where;
  for (const auto& e : machine.events) {
    if (!e.pci_bus_id.known()) continue;
    const bool gone = e.kind == core::GpuEventKind::fallen_off_bus || e.kind == core::GpuEventKind::probe_failed ||
                      (e.kind == core::GpuEventKind::xid && e.xid == 79);
    if (gone) lost.insert(*e.pci_bus_id);
    if (std::find(all.begin(), all.end(), *e.pci_bus_id) != all.end()) continue;
    all.push_back(*e.pci_bus_id);
    if (gpus.count(bus_part(core::normalize_pci_bus_id(*e.pci_bus_id))) == 0) {
      foreign.push_back(*e.pci_bus_id);
      if (where.empty()) where = e.where.substr(0, e.where.rfind(": line "));
    }
  }
  if (foreign.empty()) return;
  const bool all_lost = std::all_of(foreign.begin(), foreign.end(), [&](const std::string& b) { return lost.count(b) > 0; });
  const bool most = !all_lost && foreign.size() * 2 > all.size();
  machine.notes.push_back(fmt::format("{} of the {} PCI bus ids in the kernel log {} ({}) are not GPUs of the machine described: {}",
                                      foreign.size(), all.size(), where, fmt::join(foreign, ", "),
                                      most ? "the log may be from another host"
                                           : "a GPU the log says was lost (fallen off the bus) is not listed by nvidia-smi, or the log is of another host"));
}

}  // namespace gpuvet::cli
