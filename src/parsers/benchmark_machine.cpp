// Machine from benchmark device lines (see benchmark_machine.hpp).
#include "parsers/benchmark_machine.hpp"

#include <charconv>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <set>

#include "parsers/nccl_rank_hosts.hpp"

namespace gpuvet::parsers {

namespace {

core::Gpu gpu(int index, const std::string& name, const std::string& bus_id, const std::string& why) {
  core::Gpu g;
  g.index = index;
  g.name = name.empty() ? core::Reading<std::string>::absent(why) : core::Reading<std::string>(name);
  g.pci_bus_id = bus_id.empty() ? core::Reading<std::string>::absent(why) : core::Reading<std::string>(bus_id);
  return g;
}

core::Machine from_ranks(const core::CollectiveRun& run) {
  core::Machine m;
  std::set<std::string> hosts;
  for (const auto& r : run.rank_devices) {
    if (!r.host.empty()) hosts.insert(r.host);
  }
  for (const auto& r : run.rank_devices) {
    m.gpus.push_back(gpu(r.rank, r.name, r.bus_id, "not in the Rank line"));
    // read_nccl_rank_line returns a line without a name only when the paste cuts it.
    if (r.name.empty()) m.gpus.back().name = core::Reading<std::string>::absent("its Rank line is cut before the name");
    if (hosts.size() > 1) {
      m.gpus.back().host = r.host.empty() ? core::Reading<std::string>::absent("its Rank line is cut before the host")
                                          : core::Reading<std::string>(r.host);
    }
  }
  m.source = "Rank lines of " + run.source;
  if (hosts.size() == 1) m.hostname = *hosts.begin();
  if (hosts.size() > 1) {
    const auto per_host = rank_hosts(run);
    const auto each = gpus_per_host(per_host);
    m.notes.push_back(fmt::format("GPU list from the Rank lines of a run on {}{} hosts{} ({}): GPU N is rank N",
                                  per_host.complete ? "" : "at least ", hosts.size(),
                                  each ? fmt::format(", {} GPUs each", *each) : std::string(), describe_rank_hosts(per_host)));
  }
  return m;
}

// GPUs named only by NCCL INFO prefixes ("host:pid:tid [dev]"): where, not what.
core::Machine from_debug(const core::CollectiveRun& run) {
  core::Machine m;
  std::set<std::string> hosts;
  for (const auto& d : run.debug_devices) hosts.insert(d.host);
  std::vector<std::string> seen;
  for (const auto& d : run.debug_devices) {
    core::Gpu g;
    // The position, not the CUDA device number: a log shows the devices that printed, and gaps
    // in their numbers are not missing GPUs (the note names each device).
    g.index = static_cast<int>(m.gpus.size());
    g.name = core::Reading<std::string>::absent("NCCL INFO lines do not name the GPU model");
    g.pci_bus_id = d.bus_id.empty() ? core::Reading<std::string>::absent("not in the NCCL INFO lines")
                                    : core::Reading<std::string>(d.bus_id);
    m.gpus.push_back(std::move(g));
    seen.push_back(fmt::format("{} device {}", d.host, d.device));
  }
  m.source = "NCCL INFO lines of " + run.source;
  if (hosts.size() == 1) m.hostname = *hosts.begin();
  m.notes.push_back(fmt::format("{} GPU(s) seen in the NCCL INFO lines ({}); the log has no Rank lines, so their models "
                                "are unknown and GPUs that printed nothing are not listed",
                                m.gpus.size(), fmt::join(seen, ", ")));
  return m;
}

// What NCCL's own lines say about the paths between the GPUs, else that the logs cannot say.
void add_path_evidence(const std::vector<core::CollectiveRun>& collectives, core::Machine& m) {
  if (collectives.empty()) return;
  for (const auto& run : collectives) {
    if (!run.nvswitch_evidence.empty()) {
      m.nvswitch_present = true;
      m.notes.push_back(fmt::format("NVSwitch seen by NCCL in {} ({}): NVLS and NVS paths exist only on NVSwitch systems",
                                    run.source, run.nvswitch_evidence));
      return;
    }
  }
  for (const auto& run : collectives) {
    if (!run.nvlink_evidence.empty()) {
      m.notes.push_back(fmt::format("NCCL used NVLink between the GPUs in {} ({}); whether every pair has it is not shown",
                                    run.source, run.nvlink_evidence));
      return;
    }
  }
  for (const auto& run : collectives) {
    if (!run.pcie_path_evidence.empty()) {
      m.notes.push_back(fmt::format("NCCL's rings ran over PCIe paths in {} ({}): NCCL found no NVLink between these GPUs, "
                                    "or was told not to use it",
                                    run.source, run.pcie_path_evidence));
      return;
    }
  }
  m.notes.push_back("the nccl-tests logs carry no NCCL topology lines (NCCL_DEBUG=INFO prints NVLS and graph "
                    "\"type NVL/PIX\" lines): the interconnect is not read from them");
}

// The largest GPU label of the GPU matrices, + 1; 0 when none.
int matrix_gpus(const core::BandwidthRun& run) {
  int n = 0;
  for (const auto& mx : run.matrices) {
    for (const auto* labels : {&mx.column_labels, &mx.row_labels}) {
      if (mx.title.find("GPU(column)") == std::string::npos && mx.title.find("D\\D") == std::string::npos &&
          run.tool == "nvbandwidth") {
        continue;
      }
      for (const auto& l : *labels) {
        int v = 0;
        const auto [p, ec] = std::from_chars(l.data(), l.data() + l.size(), v);
        if (ec == std::errc() && p == l.data() + l.size() && v >= 0 && v < 4096) n = std::max(n, v + 1);
      }
    }
  }
  return n;
}

core::Machine from_devices(const core::BandwidthRun& run) {
  core::Machine m;
  m.source = "device lines of " + run.source;
  if (!run.device_names.empty()) {
    for (size_t i = 0; i < run.device_names.size(); ++i) {
      const std::string bus = i < run.device_bus_ids.size() ? run.device_bus_ids[i] : std::string();
      m.gpus.push_back(gpu(static_cast<int>(i), run.device_names[i], bus, "not in the device line"));
    }
    return m;
  }
  const int n = matrix_gpus(run);
  for (int i = 0; i < n; ++i) m.gpus.push_back(gpu(i, "", "", "the log does not list its devices"));
  m.source = "matrix labels of " + run.source;
  if (n > 0) m.notes.push_back(fmt::format("{} GPUs counted from the matrix of {}; their names are not in the log", n, run.source));
  return m;
}

}  // namespace

core::Machine machine_from_benchmarks(const std::vector<core::CollectiveRun>& collectives,
                                      const std::vector<core::BandwidthRun>& bandwidth) {
  core::Machine best;
  for (const auto& run : collectives) {
    if (run.rank_devices.size() > best.gpus.size()) best = from_ranks(run);
  }
  for (const auto& run : collectives) {
    if (run.debug_devices.size() > best.gpus.size()) best = from_debug(run);
  }
  for (const auto& run : bandwidth) {
    auto m = from_devices(run);
    if (m.gpus.size() > best.gpus.size()) best = std::move(m);
  }
  for (auto& g : best.gpus) {
    g.memory_total_mib = core::Reading<std::uint64_t>::absent("benchmark logs do not print it");
  }
  add_path_evidence(collectives, best);
  return best;
}

}  // namespace gpuvet::parsers
