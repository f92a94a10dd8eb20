// Fault overlays on a node's network ports: an RDMA port down, or linked at a lower rate. Both
// show in sysfs (state, rate: the nic_down finding) and slow collectives that span nodes, where
// the judge compares the cross-node busbw with the NICs most nodes have.
#include <fmt/format.h>

#include "backends/sim/fault_params.hpp"
#include "backends/sim/fault_registry.hpp"

namespace gpuvet::sim {
namespace {

// Reads nic=N (the profile's NIC index), or -1 with params.error() set.
int nic_param(const SimState& state, Params& params) {
  if (state.profile.nics.empty()) {
    params.reject(fmt::format("profile {} has no NICs", state.profile.name));
    return -1;
  }
  const int n = params.integer("nic", 0, static_cast<int>(state.profile.nics.size()) - 1, "this profile has NICs");
  return params.error() ? -1 : n;
}

std::optional<core::Error> nic_down(SimState& state, const FaultSpec& fault) {
  Params params(fault, {"nic"}, {});
  if (params.error()) return params.error();
  const int n = nic_param(state, params);
  if (params.error()) return params.error();
  state.profile.nics[static_cast<std::size_t>(n)].state = "DOWN";
  return std::nullopt;
}

std::optional<core::Error> nic_downtrained(SimState& state, const FaultSpec& fault) {
  Params params(fault, {"nic", "rate"}, {});
  if (params.error()) return params.error();
  const int n = nic_param(state, params);
  if (params.error()) return params.error();
  auto& nic = state.profile.nics[static_cast<std::size_t>(n)];
  const double rate = number_param(params, "rate", 1, nic.rate_gbit_s, "Gb/s, up to the port's own rate");
  if (params.error()) return params.error();
  nic.rate_gbit_s = rate;
  return std::nullopt;
}

}  // namespace

std::vector<FaultDef> network_fault_defs() {
  return {
      {"nic-down", "nic-down:nic=N",
       "RDMA port N (the profile's NIC index) is DOWN: sysfs shows it, and collectives across nodes lose its share "
       "(NCCL deals two rings onto a neighbour NIC).",
       nic_down},
      {"nic-downtrained", "nic-downtrained:nic=N,rate=R",
       "RDMA port N links at R Gb/s instead of its rated speed (a bad cable or transceiver): sysfs shows the rate, and "
       "collectives across nodes slow to the pace of that port.",
       nic_downtrained},
  };
}

}  // namespace gpuvet::sim
