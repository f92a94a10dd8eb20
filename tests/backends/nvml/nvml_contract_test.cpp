// Contract suite: the real NVML backend reading the fake libnvidia-ml.so.1 must see the same
// machine the simulator describes (every reading the simulator knows, the whole link matrix).
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "backends/sim/simulator.hpp"
#include "nvml_fake_env.hpp"

namespace gpuvet::nvml {
namespace {

using testing::FakeSetup;
using testing::kFullLibrary;
using testing::read_fake;

// Known in the simulator -> same value live; absent in the simulator -> absent live.
template <class T>
void expect_reading(const core::Reading<T>& live, const core::Reading<T>& sim, const std::string& what) {
  if (sim.known()) {
    ASSERT_TRUE(live.known()) << what << ": absent live (" << live.reason() << ")";
    EXPECT_EQ(live.value(), sim.value()) << what;
  } else {
    EXPECT_FALSE(live.known()) << what << ": known live but absent in the simulator (" << sim.reason() << ")";
  }
}

void expect_near(const core::Reading<double>& live, const core::Reading<double>& sim, const std::string& what) {
  if (!sim.known()) return;
  ASSERT_TRUE(live.known()) << what << ": " << live.reason();
  EXPECT_NEAR(live.value(), sim.value(), 1e-3) << what;
}

void expect_ports(const core::Gpu& live, const core::Gpu& sim, const std::string& at) {
  if (!sim.nvlinks.known()) return;
  ASSERT_TRUE(live.nvlinks.known()) << at << "nvlinks: " << live.nvlinks.reason();
  const auto& lp = live.nvlinks.value();
  const auto& sp = sim.nvlinks.value();
  ASSERT_EQ(lp.size(), sp.size()) << at << "port count";
  for (size_t i = 0; i < sp.size(); ++i) {
    const std::string where = at + "link " + std::to_string(sp[i].link) + " ";
    EXPECT_EQ(lp[i].link, sp[i].link) << where;
    expect_reading(lp[i].active, sp[i].active, where + "active");
    expect_reading(lp[i].version, sp[i].version, where + "version");
    if (sp[i].remote.known()) expect_reading(lp[i].remote, sp[i].remote, where + "remote");
    if (sp[i].remote_pci_bus_id.known()) {
      ASSERT_TRUE(lp[i].remote_pci_bus_id.known()) << where << lp[i].remote_pci_bus_id.reason();
      EXPECT_EQ(*lp[i].remote_pci_bus_id, core::normalize_pci_bus_id(*sp[i].remote_pci_bus_id)) << where;
    }
    expect_near(lp[i].speed_gbps, sp[i].speed_gbps, where + "speed");
  }
}

std::vector<std::string> sorted(std::vector<std::string> v) {
  std::sort(v.begin(), v.end());
  return v;
}

void expect_same_gpu(const core::Gpu& live, const core::Gpu& sim) {
  const std::string at = "GPU " + std::to_string(sim.index) + " ";
  EXPECT_EQ(live.index, sim.index) << at;
  expect_reading(live.name, sim.name, at + "name");
  expect_reading(live.uuid, sim.uuid, at + "uuid");
  expect_reading(live.serial, sim.serial, at + "serial");
  expect_reading(live.board_part_number, sim.board_part_number, at + "part number");
  expect_reading(live.vbios, sim.vbios, at + "vbios");
  expect_reading(live.inforom_image, sim.inforom_image, at + "inforom");
  expect_reading(live.architecture, sim.architecture, at + "architecture");
  expect_reading(live.compute_capability, sim.compute_capability, at + "compute capability");
  expect_reading(live.memory_total_mib, sim.memory_total_mib, at + "memory");
  if (sim.pci_bus_id.known()) {
    ASSERT_TRUE(live.pci_bus_id.known()) << at << live.pci_bus_id.reason();
    EXPECT_EQ(*live.pci_bus_id, core::normalize_pci_bus_id(*sim.pci_bus_id)) << at;
  }
  expect_reading(live.pcie.gen_current, sim.pcie.gen_current, at + "pcie gen");
  expect_reading(live.pcie.gen_max, sim.pcie.gen_max, at + "pcie gen max");
  expect_reading(live.pcie.width_current, sim.pcie.width_current, at + "pcie width");
  expect_reading(live.pcie.width_max, sim.pcie.width_max, at + "pcie width max");
  expect_reading(live.numa_node, sim.numa_node, at + "numa node");
  expect_reading(live.cpu_affinity, sim.cpu_affinity, at + "cpu affinity");
  expect_near(live.power_limit_w, sim.power_limit_w, at + "power limit");
  expect_reading(live.max_sm_clock_mhz, sim.max_sm_clock_mhz, at + "max sm clock");
  expect_reading(live.max_mem_clock_mhz, sim.max_mem_clock_mhz, at + "max mem clock");
  expect_reading(live.ecc_enabled, sim.ecc_enabled, at + "ecc");
  expect_reading(live.mig_enabled, sim.mig_enabled, at + "mig");
  expect_reading(live.virtualization_mode, sim.virtualization_mode, at + "virtualization");
  expect_reading(live.performance_state, sim.performance_state, at + "performance state");
  if (sim.idle.known() && sim.clocks_event_reasons.known()) {
    expect_reading(live.idle, sim.idle, at + "idle");
    ASSERT_TRUE(live.clocks_event_reasons.known()) << at << live.clocks_event_reasons.reason();
    EXPECT_EQ(sorted(*live.clocks_event_reasons), sorted(*sim.clocks_event_reasons)) << at;
  }
  const auto& lh = live.memory_health;
  const auto& sh = sim.memory_health;
  if (sh.remapped_rows_correctable.known() && sh.remapped_rows_uncorrectable.known() && sh.remap_pending.known() &&
      sh.remap_failure.known()) {
    expect_reading(lh.remapped_rows_correctable, sh.remapped_rows_correctable, at + "remapped corr");
    expect_reading(lh.remapped_rows_uncorrectable, sh.remapped_rows_uncorrectable, at + "remapped unc");
    expect_reading(lh.remap_pending, sh.remap_pending, at + "remap pending");
    expect_reading(lh.remap_failure, sh.remap_failure, at + "remap failure");
  }
  expect_reading(lh.retired_pages_sbe, sh.retired_pages_sbe, at + "retired sbe");
  expect_reading(lh.retired_pages_dbe, sh.retired_pages_dbe, at + "retired dbe");
  expect_reading(lh.retired_pages_pending, sh.retired_pages_pending, at + "retired pending");
  expect_ports(live, sim, at);
}

// Reads the fake with the real backend and checks it against the simulator; returns the live machine.
core::Machine expect_contract(const std::string& profile, const std::vector<std::string>& faults = {}) {
  std::vector<sim::FaultSpec> specs;
  std::string joined;
  for (const auto& f : faults) {
    specs.push_back(sim::parse_fault(f).value());
    joined += (joined.empty() ? "" : ";") + f;
  }
  const auto sim = sim::simulate_machine(profile, specs);
  EXPECT_TRUE(sim.ok()) << profile << ": " << (sim.ok() ? "" : sim.error().message);
  const auto live = read_fake(kFullLibrary, FakeSetup{profile, joined, "", ""});
  EXPECT_TRUE(live.ok()) << profile << ": " << (live.ok() ? "" : live.error().message);
  if (!sim.ok() || !live.ok()) return {};
  SCOPED_TRACE(profile + " " + joined);
  EXPECT_FALSE(live->simulated);
  EXPECT_EQ(live->attached_gpus, core::Reading<int>(static_cast<int>(sim->gpus.size())));
  expect_reading(live->driver_version, sim->driver_version, "driver version");
  expect_reading(live->cuda_version, sim->cuda_version, "cuda version");
  EXPECT_TRUE(live->hostname.known());
  EXPECT_FALSE(live->nics.known());
  EXPECT_TRUE(live->notes.empty());
  EXPECT_EQ(live->gpus.size(), sim->gpus.size());
  for (size_t i = 0; i < std::min(live->gpus.size(), sim->gpus.size()); ++i) expect_same_gpu(live->gpus[i], sim->gpus[i]);
  expect_reading(live->links, sim->links, "links matrix");
  expect_reading(live->nvswitch_present, sim->nvswitch_present, "nvswitch present");
  return live.value();
}

void expect_all_pairs(const core::Machine& m, const std::string& cell) {
  ASSERT_TRUE(m.links.known()) << m.links.reason();
  for (int a = 0; a < m.links->size(); ++a) {
    for (int b = 0; b < m.links->size(); ++b) {
      if (a != b) {
        EXPECT_EQ(core::to_string(m.links->at(a, b)), cell) << a << "-" << b;
      }
    }
  }
}

TEST(NvmlContract, HoldsForEveryBuiltInProfile) {
  const auto profiles = sim::list_profiles();
  ASSERT_FALSE(profiles.empty());
  for (const auto& p : profiles) {
    const auto live = expect_contract(p.name);
    EXPECT_EQ(static_cast<int>(live.gpus.size()), p.gpu_count) << p.name;
  }
}

TEST(NvmlContract, HgxH100EightWayIsNv18EverywhereBehindNvSwitches) {
  const auto m = expect_contract("hgx-h100-8x");
  ASSERT_EQ(m.gpus.size(), 8u);
  expect_all_pairs(m, "NV18");
  EXPECT_EQ(m.nvswitch_present, core::Reading<bool>(true));
  EXPECT_EQ(m.gpus[0].architecture, core::Reading<std::string>("Hopper"));
  ASSERT_TRUE(m.gpus[0].nvlinks.known());
  EXPECT_EQ(m.gpus[0].nvlinks->size(), 18u);
}

TEST(NvmlContract, HgxH100FourWayIsNv6) {
  const auto m = expect_contract("hgx-h100-4x");
  ASSERT_EQ(m.gpus.size(), 4u);
  expect_all_pairs(m, "NV6");
}

TEST(NvmlContract, BridgedA100PairsAreNv12AndOtherPairsUsePcie) {
  const auto m = expect_contract("a100-pcie-4x-bridged");
  ASSERT_EQ(m.gpus.size(), 4u);
  ASSERT_TRUE(m.links.known()) << m.links.reason();
  EXPECT_EQ(core::to_string(m.links->at(0, 1)), "NV12");
  EXPECT_EQ(core::to_string(m.links->at(3, 2)), "NV12");
  for (const auto& [a, b] : std::vector<std::pair<int, int>>{{0, 2}, {0, 3}, {1, 2}, {1, 3}}) {
    EXPECT_FALSE(m.links->at(a, b).is_nvlink()) << a << "-" << b;
  }
  EXPECT_EQ(m.nvswitch_present, core::Reading<bool>(false));
}

TEST(NvmlContract, OneNvLinkDownIsNv17ForThatGpusPairs) {
  const auto m = expect_contract("hgx-h100-8x", {"nvlink-down:gpu=3,link=2"});
  ASSERT_TRUE(m.links.known()) << m.links.reason();
  for (int a = 0; a < 8; ++a) {
    for (int b = 0; b < 8; ++b) {
      if (a == b) continue;
      EXPECT_EQ(core::to_string(m.links->at(a, b)), (a == 3 || b == 3) ? "NV17" : "NV18") << a << "-" << b;
    }
  }
  EXPECT_EQ(m.gpus[3].nvlinks->at(2).active, core::Reading<bool>(false));
}

TEST(NvmlContract, HoldsUnderEverySimulatorFault) {
  const std::vector<std::string> faults = {"nvlink-down:gpu=3,link=2", "pcie-degraded:gpu=2,gen=4,width=8",
                                           "mixed-batch:gpu=5,vbios=96.00.99.00.01,memory_gib=40",
                                           "gpu-missing:gpu=6", "numa-misplaced:gpu=1,node=1",
                                           // Measurement faults: NVML must still show a healthy machine.
                                           "p2p-disabled:gpu=3", "vram-short:gpu=4,gib=60", "vram-bad:gpu=6,offset_gib=17.5",
                                           "straggler:gpu=2,factor=0.8", "slow-link:a=1,b=6,factor=0.5",
                                           // Network faults: NICs are sysfs's, NVML sees no change.
                                           "nic-down:nic=3", "nic-downtrained:nic=0,rate=200", "collective-hang:gpu=1,from_mib=64", "collective-corrupt:gpu=2",
                                           // Burn-in faults show only under load, in the burn-in model.
                                           "thermal-throttle:gpu=1,at=1h", "xid:gpu=2,code=48,at=10m",
                                           "nvlink-crc:gpu=3,link=0,per_min=5", "ecc-sbe:gpu=4,per_hour=3",
                                           "gpu-lost:gpu=5,at=2h", "gemm-miscompare:gpu=6,at=1h",
                                           // Soak faults show only with link traffic beside the load.
                                           "busbw-heat:gpu=3,per_c=1", "sdc:gpu=4,at=1h",
                                           // Monitor faults develop over hours in the production model.
                                           "util-lag:gpu=3,factor=0.6", "temp-drift:gpu=2,per_day=2",
                                           // Memory and PCIe health faults strike at a run time, in the same model.
                                           "ecc-dbe:gpu=4,at=10m", "row-remap-failure:gpu=5,at=1h",
                                           "pcie-replay:gpu=6,per_min=10"};
  std::set<std::string> covered;
  for (const auto& f : faults) {
    expect_contract("hgx-h100-8x", {f});
    covered.insert(f.substr(0, f.find(':')));
  }
  for (const auto& info : sim::list_faults()) EXPECT_TRUE(covered.count(info.name)) << "no contract case for " << info.name;
}

TEST(NvmlContract, ShutdownLetsTheNextReadSeeANewMachine) {
  const auto first = read_fake(kFullLibrary, FakeSetup{"hgx-h100-8x", "", "", ""});
  const auto second = read_fake(kFullLibrary, FakeSetup{"hgx-h100-4x", "", "", ""});
  ASSERT_TRUE(first.ok() && second.ok());
  EXPECT_EQ(first->gpus.size(), 8u);
  EXPECT_EQ(second->gpus.size(), 4u);  // the fake rebuilds only once nvmlShutdown drops its last reference
}

}  // namespace
}  // namespace gpuvet::nvml
