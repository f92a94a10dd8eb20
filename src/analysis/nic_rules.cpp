// NIC health from sysfs: an RDMA port that is not ACTIVE cannot carry inter-node traffic,
// and a port slower than its siblings caps every collective that crosses it.
#include <fmt/format.h>

#include <algorithm>

#include "analysis/finding_codes.hpp"
#include "analysis/rules.hpp"

namespace gpuvet::analysis {

namespace {

std::string nic_name(const core::Nic& nic) { return nic.name ? *nic.name : nic.label; }

}  // namespace

std::vector<core::Finding> check_nics(const RuleContext& ctx) {
  std::vector<core::Finding> out;
  if (!ctx.machine.nics) return out;
  const auto& nics = *ctx.machine.nics;
  double fastest = 0;
  for (const auto& nic : nics) {
    if (nic.rate_gbit_s && nic.state && *nic.state == "ACTIVE") fastest = std::max(fastest, *nic.rate_gbit_s);
  }
  for (const auto& nic : nics) {
    if (!nic.state) continue;  // topo -m does not say: nothing to judge
    if (*nic.state != "ACTIVE") {
      auto f = make_finding(code::nic_down, core::Severity::warn, {},
                            fmt::format("NIC {} ({}) port state is {}, not ACTIVE", nic.label, nic_name(nic), *nic.state));
      f.evidence = {{"nic", nic_name(nic)}, {"state", *nic.state}};
      if (nic.pci_bus_id) f.evidence.emplace_back("pci_bus_id", *nic.pci_bus_id);
      out.push_back(std::move(f));
    } else if (nic.rate_gbit_s && *nic.rate_gbit_s < fastest) {
      auto f = make_finding(code::nic_down, core::Severity::warn, {},
                            fmt::format("NIC {} ({}) links at {:g} Gb/s, below the {:g} Gb/s of the other NICs",
                                        nic.label, nic_name(nic), *nic.rate_gbit_s, fastest));
      f.evidence = {{"nic", nic_name(nic)}, {"rate", fmt::format("{:g} Gb/s", *nic.rate_gbit_s)},
                    {"expected", fmt::format("{:g} Gb/s", fastest)}};
      out.push_back(std::move(f));
    }
  }
  return out;
}

}  // namespace gpuvet::analysis
