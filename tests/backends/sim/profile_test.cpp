// Every built-in profile builds a complete, consistent machine with the topology it advertises;
// simulation is deterministic.
#include <gtest/gtest.h>

#include <functional>
#include <set>

#include "backends/sim/simulator.hpp"
#include "machine_dump.hpp"

namespace gpuvet::sim {
namespace {

core::Machine simulate(std::string_view profile) {
  auto m = simulate_machine(profile, {});
  EXPECT_TRUE(m.ok()) << (m.ok() ? "" : m.error().message);
  return m.ok() ? std::move(m).value() : core::Machine{};
}

std::string cell(const core::Machine& m, int a, int b) { return core::to_string(m.links->at(a, b)); }

TEST(Profiles, ListHasExactlyTheShippedProfiles) {
  std::vector<std::string> names;
  for (const auto& p : list_profiles()) {
    names.push_back(p.name);
    EXPECT_FALSE(p.description.empty()) << p.name;
    EXPECT_FALSE(p.gpu_model.empty()) << p.name;
  }
  EXPECT_EQ(names, (std::vector<std::string>{"a100-pcie-4x-bridged", "a800-8x", "dgx1-v100", "gb200-nvl-tray", "h100-nvl-4x",
                                             "h20-8x", "h200-nvl-4x", "h800-8x", "hgx-a100-8x", "hgx-b200-8x",
                                             "hgx-h100-4x", "hgx-h100-8x", "hgx-h200-8x", "l20-8x", "l40-8x", "l40s-8x",
                                             "nvlink-4plus4-8x", "rtx4090-8x"}));
  EXPECT_NE(std::find(names.begin(), names.end(), std::string(kDefaultProfile)), names.end());
}

TEST(Profiles, ListReportsCountsAndModels) {
  for (const auto& p : list_profiles()) {
    if (p.name == "hgx-h100-8x") {
      EXPECT_EQ(p.gpu_count, 8);
      EXPECT_EQ(p.gpu_model, "H100 SXM5 80GB");
    }
    if (p.name == "nvlink-4plus4-8x") {
      EXPECT_EQ(p.gpu_count, 8);
      EXPECT_EQ(p.gpu_model, "A100 SXM4 80GB + A100 PCIe 80GB");
    }
    if (p.name == "hgx-h100-4x") {
      EXPECT_EQ(p.gpu_count, 4);
    }
  }
}

// A machine every judge can read: all fields known, ids unique, matrix symmetric.
TEST(Profiles, EveryProfileIsCompleteAndConsistent) {
  for (const auto& info : list_profiles()) {
    SCOPED_TRACE(info.name);
    const core::Machine m = simulate(info.name);
    EXPECT_TRUE(m.simulated);
    EXPECT_EQ(m.source, "simulated: " + info.name);
    ASSERT_EQ(static_cast<int>(m.gpus.size()), info.gpu_count);
    EXPECT_EQ(m.attached_gpus.value_or(-1), info.gpu_count);
    EXPECT_TRUE(m.hostname.known() && m.driver_version.known() && m.cuda_version.known());
    ASSERT_TRUE(m.links.known());
    ASSERT_EQ(m.links->size(), info.gpu_count);
    ASSERT_TRUE(m.nics.known() && m.numa_nodes.known() && m.nvswitch_present.known());
    std::set<std::string> uuids;
    std::set<std::string> buses;
    for (int i = 0; i < info.gpu_count; ++i) {
      const core::Gpu& g = m.gpus[static_cast<std::size_t>(i)];
      EXPECT_EQ(g.index, i);
      EXPECT_TRUE(uuids.insert(g.uuid.value_or("")).second);
      EXPECT_TRUE(buses.insert(g.pci_bus_id.value_or("")).second);
      for (const auto* r : {&g.name, &g.uuid, &g.architecture, &g.compute_capability, &g.pci_bus_id, &g.cpu_affinity,
                            &g.virtualization_mode}) {
        EXPECT_TRUE(r->known()) << "gpu " << i << ": " << r->reason();
      }
      EXPECT_EQ(g.pcie.gen_current, g.pcie.gen_max);
      EXPECT_EQ(g.pcie.width_current, g.pcie.width_max);
      EXPECT_TRUE(g.pcie.gen_max.known() && g.pcie.width_max.known());
      EXPECT_TRUE(g.memory_total_mib.known() && g.numa_node.known() && g.power_limit_w.known());
      EXPECT_TRUE(g.ecc_enabled.known() && g.idle.known() && g.clocks_event_reasons.known() && g.nvlinks.known());
      EXPECT_FALSE(g.idle.value_or(true));
      EXPECT_TRUE(g.clocks_event_reasons->empty());
      EXPECT_EQ(g.mig_enabled.value_or(false), false);
      EXPECT_TRUE(g.uuid->rfind("GPU-", 0) == 0 && g.uuid->size() == 40u) << *g.uuid;
      // A clean machine has no memory trouble wherever the counters exist.
      EXPECT_EQ(g.memory_health.remapped_rows_uncorrectable.value_or(0), 0);
      EXPECT_EQ(g.memory_health.retired_pages_dbe.value_or(0), 0);
      EXPECT_TRUE(g.memory_health.remapped_rows_correctable.known() || g.memory_health.retired_pages_sbe.known());
      // The GPU's CPU list is its NUMA node's.
      for (const auto& n : *m.numa_nodes) {
        if (n.id == *g.numa_node) {
          EXPECT_EQ(n.cpus.value_or(""), *g.cpu_affinity);
        }
      }
      for (int j = 0; j < info.gpu_count; ++j) {
        EXPECT_EQ(m.links->at(i, j), m.links->at(j, i)) << i << "," << j;
        if (i == j) {
          EXPECT_EQ(m.links->at(i, j).kind, core::LinkKind::self);
        }
      }
    }
    for (const auto& nic : *m.nics) {
      ASSERT_TRUE(nic.gpu_proximity.known());
      EXPECT_EQ(static_cast<int>(nic.gpu_proximity->size()), info.gpu_count);
      for (const auto& l : *nic.gpu_proximity) EXPECT_FALSE(l.is_nvlink());
    }
  }
}

TEST(Profiles, NvlinkPortsAgreeWithTheMatrix) {
  for (const auto& info : list_profiles()) {
    SCOPED_TRACE(info.name);
    const core::Machine m = simulate(info.name);
    for (std::size_t i = 0; i < m.gpus.size(); ++i) {
      int active = 0;
      for (const auto& port : *m.gpus[i].nvlinks) {
        if (!port.active.value_or(false)) continue;
        ++active;
        EXPECT_TRUE(port.speed_gbps.known() && port.version.known() && port.remote.known());
        if (*port.remote == core::NvLinkRemote::gpu) {
          // The remote bus id is a GPU of this machine, and the matrix shows NVLink to it.
          bool found = false;
          for (std::size_t j = 0; j < m.gpus.size(); ++j) {
            if (m.gpus[j].pci_bus_id == port.remote_pci_bus_id) {
              found = true;
              EXPECT_TRUE(m.links->at(static_cast<int>(i), static_cast<int>(j)).is_nvlink());
            }
          }
          EXPECT_TRUE(found);
        }
      }
      int nv_max = 0;
      for (std::size_t j = 0; j < m.gpus.size(); ++j) {
        if (i != j) nv_max = std::max(nv_max, m.links->at(static_cast<int>(i), static_cast<int>(j)).nvlink_count);
      }
      EXPECT_LE(nv_max, active);
    }
  }
}

using Pattern = std::function<std::string(int, int)>;

void expect_pattern(const std::string& profile, const Pattern& expected) {
  SCOPED_TRACE(profile);
  const core::Machine m = simulate(profile);
  for (int a = 0; a < m.links->size(); ++a) {
    for (int b = 0; b < m.links->size(); ++b) {
      if (a != b) {
        EXPECT_EQ(cell(m, a, b), expected(a, b)) << "GPU" << a << "-GPU" << b;
      }
    }
  }
}

TEST(Profiles, HgxH100IsNv18OnAll28PairsThroughNvswitch) {
  expect_pattern("hgx-h100-8x", [](int, int) { return "NV18"; });
  const core::Machine m = simulate("hgx-h100-8x");
  EXPECT_TRUE(m.nvswitch_present.value_or(false));
  for (const auto& g : m.gpus) {
    EXPECT_EQ(g.fabric_state.value_or(""), "Completed");
    EXPECT_EQ(g.name.value_or(""), "NVIDIA H100 80GB HBM3");
    EXPECT_EQ(g.memory_total_mib.value_or(0), 81559u);
    EXPECT_EQ(g.pcie.gen_max.value_or(0), 5);
    EXPECT_EQ(g.nvlinks->size(), 18u);
    EXPECT_DOUBLE_EQ(g.nvlinks->at(0).speed_gbps.value_or(0), 26.5625);
    EXPECT_EQ(g.nvlinks->at(0).remote.value_or(core::NvLinkRemote::unknown), core::NvLinkRemote::nvswitch);
    EXPECT_DOUBLE_EQ(g.power_limit_w.value_or(0), 700);
  }
  ASSERT_EQ(m.nics->size(), 8u);
  for (std::size_t n = 0; n < 8; ++n) {
    const core::Nic& nic = (*m.nics)[n];
    EXPECT_DOUBLE_EQ(nic.rate_gbit_s.value_or(0), 400);
    for (std::size_t g = 0; g < 8; ++g) {
      const core::LinkKind want = g == n ? core::LinkKind::pix : (g / 4 == n / 4 ? core::LinkKind::node : core::LinkKind::sys);
      EXPECT_EQ(nic.gpu_proximity->at(g).kind, want) << "NIC" << n << " GPU" << g;
    }
  }
  EXPECT_EQ(m.gpus[0].numa_node.value_or(-1), 0);
  EXPECT_EQ(m.gpus[7].numa_node.value_or(-1), 1);
}

TEST(Profiles, H800IsNv8) { expect_pattern("h800-8x", [](int, int) { return "NV8"; }); }
TEST(Profiles, HgxA100IsNv12) { expect_pattern("hgx-a100-8x", [](int, int) { return "NV12"; }); }

TEST(Profiles, HgxH100FourGpuIsADirectNv6Mesh) {
  expect_pattern("hgx-h100-4x", [](int, int) { return "NV6"; });
  const core::Machine m = simulate("hgx-h100-4x");
  EXPECT_FALSE(m.nvswitch_present.value_or(true));
  EXPECT_FALSE(m.gpus[0].fabric_state.known());
}

TEST(Profiles, Dgx1IsTheHybridCubeMesh) {
  // nvidia-smi topo -m on DGX-1V / p3.16xlarge.
  const char* rows[8][8] = {
      {"X", "NV1", "NV1", "NV2", "NV2", "SYS", "SYS", "SYS"}, {"NV1", "X", "NV2", "NV1", "SYS", "NV2", "SYS", "SYS"},
      {"NV1", "NV2", "X", "NV2", "SYS", "SYS", "NV1", "SYS"}, {"NV2", "NV1", "NV2", "X", "SYS", "SYS", "SYS", "NV1"},
      {"NV2", "SYS", "SYS", "SYS", "X", "NV1", "NV1", "NV2"}, {"SYS", "NV2", "SYS", "SYS", "NV1", "X", "NV2", "NV1"},
      {"SYS", "SYS", "NV1", "SYS", "NV1", "NV2", "X", "NV2"}, {"SYS", "SYS", "SYS", "NV1", "NV2", "NV1", "NV2", "X"}};
  expect_pattern("dgx1-v100", [&](int a, int b) { return std::string(rows[a][b]); });
  const core::Machine m = simulate("dgx1-v100");
  for (const auto& g : m.gpus) {
    EXPECT_EQ(g.nvlinks->size(), 6u);
    for (const auto& port : *g.nvlinks) EXPECT_TRUE(port.active.value_or(false));
    EXPECT_DOUBLE_EQ(g.nvlinks->at(0).speed_gbps.value_or(0), 25.78125);
    // Volta: page retirement, no row remapping.
    EXPECT_TRUE(g.memory_health.retired_pages_sbe.known());
    EXPECT_FALSE(g.memory_health.remapped_rows_correctable.known());
    EXPECT_FALSE(g.mig_enabled.known());
  }
}

TEST(Profiles, BridgedA100PcieIsNv12OnlyOnTheBridgedPairs) {
  expect_pattern("a100-pcie-4x-bridged", [](int a, int b) {
    if (a / 2 == b / 2) return std::string("NV12");
    return std::string("SYS");
  });
}

TEST(Profiles, PcieOnlyBoxesFollowTheirPcieTree) {
  expect_pattern("l40s-8x", [](int a, int b) {
    if (a / 2 == b / 2) return std::string("PIX");
    return std::string(a / 4 == b / 4 ? "NODE" : "SYS");
  });
  expect_pattern("rtx4090-8x", [](int a, int b) { return std::string(a / 4 == b / 4 ? "NODE" : "SYS"); });
  const core::Machine m = simulate("rtx4090-8x");
  for (const auto& g : m.gpus) {
    EXPECT_TRUE(g.nvlinks->empty());
    EXPECT_FALSE(g.ecc_enabled.value_or(true));
    EXPECT_FALSE(g.serial.known());  // GeForce prints N/A
    EXPECT_EQ(g.memory_total_mib.value_or(0), 24564u);
  }
  EXPECT_FALSE(m.nvswitch_present.value_or(true));
}

TEST(Profiles, FourPlusFourTrapIsNv4AmongTheSxmBoardAndPcieElsewhere) {
  expect_pattern("nvlink-4plus4-8x", [](int a, int b) {
    if (a < 4 && b < 4) return std::string("NV4");
    // Switches: {0,1}, {4,5} on socket 0; {2,3}, {6,7} on socket 1.
    auto sw = [](int g) { return g < 4 ? g / 2 * 2 : (g - 4) / 2 * 2 + 1; };
    auto socket = [](int g) { return (g < 4 ? g / 2 : (g - 4) / 2); };
    if (sw(a) == sw(b)) return std::string("PIX");
    return std::string(socket(a) == socket(b) ? "NODE" : "SYS");
  });
  const core::Machine m = simulate("nvlink-4plus4-8x");
  EXPECT_EQ(m.gpus[0].name.value_or(""), "NVIDIA A100-SXM4-80GB");
  EXPECT_EQ(m.gpus[4].name.value_or(""), "NVIDIA A100 80GB PCIe");
  // The PCIe cards have NVLink ports, all inactive: no bridge fitted.
  EXPECT_EQ(m.gpus[4].nvlinks->size(), 12u);
  for (const auto& port : *m.gpus[4].nvlinks) EXPECT_FALSE(port.active.value_or(true));
}

TEST(Profiles, SimulationIsDeterministic) {
  for (const auto& info : list_profiles()) {
    const auto a = simulate_machine(info.name, {});
    const auto b = simulate_machine(info.name, {});
    ASSERT_TRUE(a.ok() && b.ok());
    EXPECT_TRUE(testing::diff(*a, *b).empty()) << info.name;
  }
  // Known value: catches a change to the id derivation (scripts and golden files depend on it).
  const core::Machine m = simulate("hgx-h100-8x");
  const core::Machine again = simulate("hgx-h100-8x");
  EXPECT_EQ(m.gpus[0].uuid, again.gpus[0].uuid);
  EXPECT_NE(m.gpus[0].uuid, m.gpus[1].uuid);
  EXPECT_NE(simulate("h800-8x").gpus[0].uuid, m.gpus[0].uuid);  // seeds differ per profile
}

TEST(Profiles, UnknownProfileIsAUsageErrorListingWhatExists) {
  const auto m = simulate_machine("hgx-h100-16x", {});
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.error().kind, core::ErrorKind::usage);
  EXPECT_NE(m.error().message.find("hgx-h100-16x"), std::string::npos);
  EXPECT_NE(m.error().message.find("hgx-h100-8x"), std::string::npos);
  EXPECT_NE(m.error().message.find("dgx1-v100"), std::string::npos);
}

}  // namespace
}  // namespace gpuvet::sim
