// JSON rendering of a machine report. Unknown values are null, and the reason for each
// absence is kept next to it under "absent" so a script can tell "not reported" from zero.
#include <nlohmann/json.hpp>

#include "report/finding_json.hpp"
#include "report/machine_report.hpp"
#include "report/measurements_json.hpp"

namespace gpuvet::report {

using nlohmann::ordered_json;

namespace {

// Writes `key: value` (or null) and records the absence reason under absent[key].
class Fields {
 public:
  explicit Fields(ordered_json& object) : object_(object) {}
  ~Fields() {
    if (!absent_.empty()) object_["absent"] = absent_;
  }
  Fields(const Fields&) = delete;
  Fields& operator=(const Fields&) = delete;

  template <class T>
  void put(const char* key, const core::Reading<T>& reading) {
    if (reading) {
      object_[key] = *reading;
    } else {
      absent(key, reading.reason());
    }
  }
  // An array or object field rendered by the caller: null plus the reason when unknown.
  template <class T, class Render>
  void put_with(const char* key, const core::Reading<T>& reading, Render render) {
    if (reading) {
      object_[key] = render(*reading);
    } else {
      absent(key, reading.reason());
    }
  }
  void absent(const char* key, const std::string& reason) {
    object_[key] = nullptr;
    absent_[key] = reason;
  }

 private:
  ordered_json& object_;
  ordered_json absent_ = ordered_json::object();
};

ordered_json nvlink_json(const core::NvLinkPort& port) {
  ordered_json j;
  j["link"] = port.link;
  {
    Fields f(j);
    f.put("active", port.active);
    f.put("version", port.version);
    f.put("speed_gbps", port.speed_gbps);
    f.put_with("remote", port.remote, [](core::NvLinkRemote r) { return std::string(core::to_string(r)); });
    f.put("remote_pci_bus_id", port.remote_pci_bus_id);
  }
  return j;
}

ordered_json gpu_json(const core::Gpu& gpu) {
  ordered_json j;
  j["index"] = gpu.index;
  {
    Fields f(j);
    f.put("name", gpu.name);
    f.put("uuid", gpu.uuid);
    f.put("serial", gpu.serial);
    f.put("board_part_number", gpu.board_part_number);
    f.put("vbios", gpu.vbios);
    f.put("inforom_image", gpu.inforom_image);
    f.put("architecture", gpu.architecture);
    f.put("compute_capability", gpu.compute_capability);
    f.put("memory_total_mib", gpu.memory_total_mib);
    f.put("pci_bus_id", gpu.pci_bus_id);
    f.put("numa_node", gpu.numa_node);
    f.put("cpu_affinity", gpu.cpu_affinity);
    f.put("pcie_gen_current", gpu.pcie.gen_current);
    f.put("pcie_gen_max", gpu.pcie.gen_max);
    f.put("pcie_width_current", gpu.pcie.width_current);
    f.put("pcie_width_max", gpu.pcie.width_max);
    f.put("power_limit_w", gpu.power_limit_w);
    f.put("max_sm_clock_mhz", gpu.max_sm_clock_mhz);
    f.put("max_mem_clock_mhz", gpu.max_mem_clock_mhz);
    f.put("ecc_enabled", gpu.ecc_enabled);
    f.put("mig_enabled", gpu.mig_enabled);
    f.put("virtualization_mode", gpu.virtualization_mode);
    f.put("fabric_state", gpu.fabric_state);
    f.put("performance_state", gpu.performance_state);
    f.put("idle", gpu.idle);
    f.put("clocks_event_reasons", gpu.clocks_event_reasons);
    f.put("remapped_rows_correctable", gpu.memory_health.remapped_rows_correctable);
    f.put("remapped_rows_uncorrectable", gpu.memory_health.remapped_rows_uncorrectable);
    f.put("remap_pending", gpu.memory_health.remap_pending);
    f.put("remap_failure", gpu.memory_health.remap_failure);
    f.put("retired_pages_sbe", gpu.memory_health.retired_pages_sbe);
    f.put("retired_pages_dbe", gpu.memory_health.retired_pages_dbe);
    f.put("retired_pages_pending", gpu.memory_health.retired_pages_pending);
    f.put_with("nvlinks", gpu.nvlinks, [](const std::vector<core::NvLinkPort>& ports) {
      ordered_json out = ordered_json::array();
      for (const auto& port : ports) out.push_back(nvlink_json(port));
      return out;
    });
  }
  return j;
}

ordered_json links_json(const core::Machine& machine) {
  const auto& m = *machine.links;
  ordered_json j;
  ordered_json labels = ordered_json::array();
  for (int i = 0; i < m.size(); ++i) labels.push_back("GPU" + std::to_string(machine.gpus[static_cast<size_t>(i)].index));
  j["labels"] = labels;
  ordered_json rows = ordered_json::array();
  for (int a = 0; a < m.size(); ++a) {
    ordered_json row = ordered_json::array();
    for (int b = 0; b < m.size(); ++b) row.push_back(core::to_string(m.at(a, b)));
    rows.push_back(row);
  }
  j["matrix"] = rows;
  return j;
}

ordered_json nic_json(const core::Nic& nic) {
  ordered_json j;
  j["label"] = nic.label;
  {
    Fields f(j);
    f.put("name", nic.name);
    f.put("rate_gbit_s", nic.rate_gbit_s);
    f.put("state", nic.state);
    f.put("link_layer", nic.link_layer);
    f.put("pci_bus_id", nic.pci_bus_id);
    f.put("numa_node", nic.numa_node);
    f.put_with("gpu_proximity", nic.gpu_proximity, [](const std::vector<core::Link>& links) {
      ordered_json out = ordered_json::array();
      for (const auto& link : links) out.push_back(core::to_string(link));
      return out;
    });
  }
  return j;
}

ordered_json collective_json(const core::CollectiveSummary& c) {
  ordered_json j;
  j["op"] = c.op;
  j["source"] = c.source;
  {
    Fields f(j);
    f.put("ranks", c.ranks);
    f.put("nodes", c.nodes);
    f.put("avg_busbw_gbps", c.avg_busbw_gbps);
    f.put("printed_avg_busbw_gbps", c.printed_avg_busbw_gbps);
    f.put("peak_busbw_gbps", c.peak_busbw_gbps);
    f.put("peak_size_bytes", c.peak_size_bytes);
    f.put("max_size_bytes", c.max_size_bytes);
    f.put("wrong", c.wrong);
    f.put("expected_busbw_gbps", c.expected_busbw_gbps);
  }
  j["expected_basis"] = c.expected_basis;
  return j;
}

ordered_json bandwidth_json(const core::BandwidthSummary& b) {
  ordered_json j;
  j["tool"] = b.tool;
  j["testcase"] = b.testcase;
  j["source"] = b.source;
  j["unit"] = b.unit;
  j["cells"] = b.cells;
  {
    Fields f(j);
    f.put("min", b.min);
    f.put("median", b.median);
    f.put("max", b.max);
    f.put("expected_gbps", b.expected_gbps);
    f.put("status", b.status);
  }
  j["expected_basis"] = b.expected_basis;
  return j;
}

}  // namespace

std::string render_json(const MachineReport& report) {
  const auto& machine = report.machine;
  ordered_json j;
  j["schema"] = std::string(kMachineReportSchema);
  j["command"] = report.command;
  j["source"] = machine.source;
  j["simulated"] = machine.simulated;
  j["verdict"] = std::string(core::to_string(report.verdict));
  {
    Fields f(j);
    f.put("hostname", machine.hostname);
    f.put("driver_version", machine.driver_version);
    f.put("cuda_version", machine.cuda_version);
    f.put("attached_gpus", machine.attached_gpus);
    f.put("nvswitch_present", machine.nvswitch_present);
    ordered_json gpus = ordered_json::array();
    for (const auto& gpu : machine.gpus) gpus.push_back(gpu_json(gpu));
    j["gpus"] = gpus;
    const auto& ic = report.assessment.interconnect;
    ordered_json interconnect;
    interconnect["class"] = std::string(core::to_string(ic.cls));
    interconnect["reasoning"] = ic.reasoning;
    interconnect["headline"] = ic.headline;
    interconnect["gpu_bandwidth_gbps"] = ic.gpu_bandwidth_gbps ? ordered_json(*ic.gpu_bandwidth_gbps) : ordered_json(nullptr);
    j["interconnect"] = interconnect;
    f.put_with("links", machine.links, [&](const core::LinkMatrix&) { return links_json(machine); });
    f.put_with("nics", machine.nics, [](const std::vector<core::Nic>& nics) {
      ordered_json out = ordered_json::array();
      for (const auto& nic : nics) out.push_back(nic_json(nic));
      return out;
    });
    f.put_with("numa_nodes", machine.numa_nodes, [](const std::vector<core::NumaNode>& nodes) {
      ordered_json out = ordered_json::array();
      for (const auto& node : nodes) {
        ordered_json n;
        n["id"] = node.id;
        {
          Fields nf(n);
          nf.put("cpus", node.cpus);
        }
        out.push_back(n);
      }
      return out;
    });
  }
  ordered_json findings = ordered_json::array();
  for (const auto& finding : report.assessment.findings) findings.push_back(finding_json(finding));
  j["findings"] = findings;
  ordered_json collectives = ordered_json::array();
  for (const auto& c : report.assessment.collectives) collectives.push_back(collective_json(c));
  j["collectives"] = collectives;
  ordered_json bandwidth = ordered_json::array();
  for (const auto& b : report.assessment.bandwidth) bandwidth.push_back(bandwidth_json(b));
  j["bandwidth"] = bandwidth;
  j["unverified"] = report.assessment.unverified;
  if (report.measurements != nullptr) j["measurements"] = measurements_json(*report.measurements);
  j["notes"] = machine.notes;
  return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";  // never throw on non-UTF-8 text
}

}  // namespace gpuvet::report
