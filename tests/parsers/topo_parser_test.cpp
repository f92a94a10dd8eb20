// nvidia-smi topo -m parser over every real capture in tests/fixtures/topo (ground truth from
// truth.json and SOURCES.md), plus invariants that hold for any parsed matrix.
#include "parsers/topo_parser.hpp"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/topology.hpp"
#include "topo_test_fixtures.hpp"

namespace gpuvet::parsers {
namespace {

using testing::fixture_files;
using testing::read_fixture;
using testing::truth;

struct CellCheck {
  int a;
  int b;
  const char* link;  // as topo -m prints it
};

struct NicCheck {
  int nic;
  int gpu;
  const char* link;
};

struct TopoCase {
  const char* file;
  const char* gpu0_cpus;                          // CPU Affinity of GPU0
  std::vector<CellCheck> cells;                   // GPU x GPU
  std::vector<std::optional<std::string>> nics;   // names in NIC order; nullopt = absent
  std::vector<NicCheck> nic_cells;
  std::vector<std::pair<int, std::string>> numa_nodes;  // id, cpulist
};

const std::vector<TopoCase>& cases() {
  static const std::vector<TopoCase> kCases = {
      {"2x-gtx1080ti-pcie-phb-desktop-numa-na.txt", "0-11", {{0, 1, "PHB"}}, {}, {}, {}},
      {"2x-l40s-pcie-node-2nic-vllm-collect-env.txt", "0,2,4,6,8,10", {{0, 1, "NODE"}}, {"mlx5_0", "mlx5_1"},
       {{0, 0, "SYS"}, {1, 1, "SYS"}}, {{0, "0,2,4,6,8,10"}}},
      {"2x-rtx2080ti-pcie-pix-autodl.txt", "24-47,72-95", {{0, 1, "PIX"}}, {}, {}, {{1, "24-47,72-95"}}},
      {"2x-rtx6000ada-pcie-phb-2nic-threadripper.txt", "0-23", {{0, 1, "PHB"}}, {"mlx5_0", "mlx5_1"},
       {{0, 0, "NODE"}, {1, 1, "NODE"}}, {{0, "0-23"}}},
      {"3gpu-mixed-rtx3090-plus-2x-v100-sxm2-nv6-homelab.txt", "0-63", {{1, 2, "NV6"}, {0, 1, "NODE"}, {0, 2, "NODE"}}, {}, {},
       {{0, "0-63"}}},
      {"3x-rtx-a6000-nv4-bridge-pair-plus-node-ansi.txt", "0-31,64-95", {{0, 1, "NV4"}, {0, 2, "NODE"}, {1, 2, "NODE"}}, {}, {},
       {{0, "0-31,64-95"}}},
      {"4x-a10-pcie-sys-2nic.txt", "0-127", {{0, 1, "SYS"}, {2, 3, "SYS"}, {0, 3, "SYS"}}, {"mlx5_0", std::nullopt},
       {{0, 0, "SYS"}, {1, 3, "SYS"}}, {{0, "0-127"}}},
      {"4x-rtx6000ada-pcie-2socket-4nic-asus-esc8000a.txt", "0-31", {{0, 1, "NODE"}, {2, 3, "NODE"}, {0, 2, "SYS"}, {1, 3, "SYS"}},
       {"mlx5_0", "mlx5_1", "mlx5_2", "mlx5_3"}, {{0, 0, "NODE"}, {1, 1, "NODE"}, {2, 0, "SYS"}, {2, 2, "NODE"}, {3, 3, "NODE"}},
       {{0, "0-31"}, {1, "32-63"}}},
      {"8x-a100-sxm4-40gb-nv12-17nic-1numa.txt", "0-103", {{0, 7, "NV12"}, {3, 4, "NV12"}},
       {"mlx5_2", "mlx5_3", "mlx5_4", "mlx5_5", "mlx5_6", "mlx5_7", "mlx5_8", "mlx5_9", "mlx5_10", "mlx5_11", "mlx5_12", "mlx5_13",
        "mlx5_14", "mlx5_15", "mlx5_16", "mlx5_17", "mlx5_bond_0"},
       {{0, 0, "PXB"}, {3, 1, "PXB"}, {4, 2, "PXB"}, {8, 5, "PXB"}, {15, 7, "PXB"}, {0, 2, "SYS"}, {16, 0, "SYS"}, {16, 7, "SYS"}},
       {{0, "0-103"}}},
      {"8x-h800-or-a800-nv8-4nic-2numa-no-gpu-numa-id.txt", "0-31,64-95", {{0, 1, "NV8"}, {3, 4, "NV8"}, {6, 7, "NV8"}},
       {"mlx5_0", "mlx5_1", "mlx5_2", "mlx5_3"},
       {{0, 1, "PIX"}, {1, 3, "PIX"}, {2, 7, "PIX"}, {3, 7, "PIX"}, {0, 0, "NODE"}, {0, 4, "SYS"}, {2, 4, "NODE"}},
       {{0, "0-31,64-95"}, {1, "32-63,96-127"}}},
      {"8x-quadro-rtx6000-pcie-switch-pix-pxb-1numa.txt", "0-19", {{0, 1, "PIX"}, {0, 2, "PXB"}}, {}, {}, {{0, "0-19"}}},
  };
  return kCases;
}

core::Machine parse_fixture(const std::string& file) {
  auto r = parse_topo_matrix(read_fixture("topo/" + file), file);
  EXPECT_TRUE(r.ok()) << file << ": " << (r.ok() ? "" : r.error().message);
  return r.ok() ? r.value() : core::Machine{};
}

TEST(TopoParser, EveryFixtureHasACase) {
  const auto files = fixture_files("topo");
  ASSERT_EQ(files.size(), cases().size());
  for (const auto& c : cases()) {
    EXPECT_NE(std::find(files.begin(), files.end(), std::string("topo/") + c.file), files.end()) << c.file;
  }
}

TEST(TopoParser, GpuCountAndNumaMatchTruth) {
  for (const auto& c : cases()) {
    SCOPED_TRACE(c.file);
    const auto m = parse_fixture(c.file);
    const auto& t = truth().at(std::string("topo/") + c.file);
    ASSERT_EQ(m.gpus.size(), t.at("gpus").get<size_t>());
    ASSERT_TRUE(m.attached_gpus.known());
    EXPECT_EQ(*m.attached_gpus, t.at("gpus").get<int>());
    const auto& numa = t.at("gpu_numa");
    ASSERT_EQ(numa.size(), m.gpus.size());
    for (size_t i = 0; i < numa.size(); ++i) {
      EXPECT_EQ(m.gpus[i].index, static_cast<int>(i));
      if (numa[i].is_null()) {
        EXPECT_FALSE(m.gpus[i].numa_node.known()) << "GPU" << i;
      } else {
        ASSERT_TRUE(m.gpus[i].numa_node.known()) << "GPU" << i << ": " << m.gpus[i].numa_node.reason();
        EXPECT_EQ(*m.gpus[i].numa_node, numa[i].get<int>()) << "GPU" << i;
      }
    }
  }
}

TEST(TopoParser, CpuAffinityLinksNicsAndNumaNodes) {
  for (const auto& c : cases()) {
    SCOPED_TRACE(c.file);
    const auto m = parse_fixture(c.file);
    ASSERT_FALSE(m.gpus.empty());
    ASSERT_TRUE(m.gpus[0].cpu_affinity.known());
    EXPECT_EQ(*m.gpus[0].cpu_affinity, c.gpu0_cpus);
    ASSERT_TRUE(m.links.known());
    for (const auto& cell : c.cells) {
      EXPECT_EQ(core::to_string(m.links->at(cell.a, cell.b)), cell.link) << "GPU" << cell.a << "-GPU" << cell.b;
      EXPECT_EQ(core::to_string(m.links->at(cell.b, cell.a)), cell.link) << "GPU" << cell.b << "-GPU" << cell.a;
    }
    if (c.nics.empty()) {
      EXPECT_FALSE(m.nics.known());
    } else {
      ASSERT_TRUE(m.nics.known());
      ASSERT_EQ(m.nics->size(), c.nics.size());
      for (size_t n = 0; n < c.nics.size(); ++n) {
        const auto& nic = (*m.nics)[n];
        EXPECT_EQ(nic.label, "NIC" + std::to_string(n));
        EXPECT_EQ(nic.name.known(), c.nics[n].has_value()) << nic.label;
        if (c.nics[n] && nic.name.known()) {
          EXPECT_EQ(*nic.name, *c.nics[n]);
        }
        ASSERT_TRUE(nic.gpu_proximity.known());
        EXPECT_EQ(nic.gpu_proximity->size(), m.gpus.size());
      }
      for (const auto& nc : c.nic_cells) {
        EXPECT_EQ(core::to_string((*(*m.nics)[static_cast<size_t>(nc.nic)].gpu_proximity)[static_cast<size_t>(nc.gpu)]), nc.link)
            << "NIC" << nc.nic << "-GPU" << nc.gpu;
      }
    }
    if (c.numa_nodes.empty()) {
      EXPECT_FALSE(m.numa_nodes.known());
    } else {
      ASSERT_TRUE(m.numa_nodes.known()) << m.numa_nodes.reason();
      ASSERT_EQ(m.numa_nodes->size(), c.numa_nodes.size());
      for (size_t n = 0; n < c.numa_nodes.size(); ++n) {
        EXPECT_EQ((*m.numa_nodes)[n].id, c.numa_nodes[n].first);
        ASSERT_TRUE((*m.numa_nodes)[n].cpus.known());
        EXPECT_EQ(*(*m.numa_nodes)[n].cpus, c.numa_nodes[n].second);
      }
    }
  }
}

TEST(TopoParser, InvariantsOfEveryParsedMatrix) {
  for (const auto& c : cases()) {
    SCOPED_TRACE(c.file);
    const auto m = parse_fixture(c.file);
    EXPECT_EQ(m.source, std::string("nvidia-smi topo -m (") + c.file + ")");
    EXPECT_EQ(m.nvswitch_present.reason(), "topo -m does not show NVSwitches");
    ASSERT_TRUE(m.links.known());
    ASSERT_EQ(m.links->size(), static_cast<int>(m.gpus.size()));
    for (int a = 0; a < m.links->size(); ++a) {
      EXPECT_EQ(m.links->at(a, a).kind, core::LinkKind::self);
      for (int b = 0; b < m.links->size(); ++b) EXPECT_EQ(m.links->at(a, b), m.links->at(b, a));
    }
    for (const auto& g : m.gpus) {
      EXPECT_EQ(g.name.reason(), "not in nvidia-smi topo -m");
      EXPECT_EQ(g.pci_bus_id.reason(), "not in nvidia-smi topo -m");
      EXPECT_EQ(g.nvlinks.reason(), "not in nvidia-smi topo -m");
    }
  }
}

TEST(TopoParser, NumaAffinityNaIsAbsentWithReason) {
  const auto m = parse_fixture("2x-gtx1080ti-pcie-phb-desktop-numa-na.txt");
  ASSERT_EQ(m.gpus.size(), 2u);
  EXPECT_EQ(m.gpus[1].numa_node.reason(), "nvidia-smi printed N/A");
  EXPECT_EQ(m.numa_nodes.reason(), "nvidia-smi printed N/A");
}

TEST(TopoParser, A100IsNv12BetweenEveryPair) {
  const auto m = parse_fixture("8x-a100-sxm4-40gb-nv12-17nic-1numa.txt");
  ASSERT_TRUE(m.links.known());
  for (int a = 0; a < 8; ++a) {
    for (int b = 0; b < 8; ++b) {
      if (a != b) {
        EXPECT_EQ(m.links->at(a, b), (core::Link{core::LinkKind::nvlink, 12})) << a << "-" << b;
      }
    }
  }
}

TEST(TopoParser, QuadroHasTwoPixGroupsAndPxbAcross) {
  const auto m = parse_fixture("8x-quadro-rtx6000-pcie-switch-pix-pxb-1numa.txt");
  ASSERT_TRUE(m.links.known());
  const auto group = [](int g) { return (g == 0 || g == 1 || g == 6 || g == 7) ? 0 : 1; };
  for (int a = 0; a < 8; ++a) {
    for (int b = 0; b < 8; ++b) {
      if (a == b) continue;
      EXPECT_EQ(m.links->at(a, b).kind, group(a) == group(b) ? core::LinkKind::pix : core::LinkKind::pxb) << a << "-" << b;
    }
  }
}

TEST(TopoParser, LegendWithFewerNicsLeavesNameAbsent) {
  const auto m = parse_fixture("4x-a10-pcie-sys-2nic.txt");
  ASSERT_TRUE(m.nics.known());
  EXPECT_EQ((*m.nics)[1].name.reason(), "NIC1 is not in the NIC Legend");
}

TEST(TopoParser, SingleGpuSpaceSeparatedWithLegacySoc) {
  const auto r = parse_topo_matrix("$ nvidia-smi topo -m\n        GPU0    mlx5_0  CPU Affinity\nGPU0     X      SOC     0-7\n"
                                   "mlx5_0  SOC      X\n",
                                   "one.txt");
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ(r->gpus.size(), 1u);
  EXPECT_EQ(*r->gpus[0].cpu_affinity, "0-7");
  EXPECT_FALSE(r->gpus[0].numa_node.known());
  ASSERT_TRUE(r->nics.known());
  EXPECT_EQ(*(*r->nics)[0].name, "mlx5_0");
  EXPECT_EQ((*(*r->nics)[0].gpu_proximity)[0].kind, core::LinkKind::sys);
}

TEST(TopoParser, OddGpuCountWithCrlfAndTextAround) {
  const std::string text =
      "user@host:~$ nvidia-smi topo -m\r\n\tGPU0\tGPU1\tGPU2\tCPU Affinity\tNUMA Affinity\r\nGPU0\t X \tNV2\tSYS\t0-15\t0\r\n"
      "GPU1\tNV2\t X \tSYS\t0-15\t0\r\nGPU2\tSYS\tSYS\t X \t16-31\t1\r\n\r\nLegend:\r\n  X    = Self\r\nuser@host:~$\r\n";
  const auto r = parse_topo_matrix(text, "odd.txt");
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ(r->gpus.size(), 3u);
  EXPECT_EQ(*r->gpus[2].numa_node, 1);
  EXPECT_EQ(*r->gpus[2].cpu_affinity, "16-31");
  EXPECT_EQ(r->links->at(0, 1), (core::Link{core::LinkKind::nvlink, 2}));
  ASSERT_TRUE(r->numa_nodes.known());
  EXPECT_EQ(r->numa_nodes->size(), 2u);
}

}  // namespace
}  // namespace gpuvet::parsers
