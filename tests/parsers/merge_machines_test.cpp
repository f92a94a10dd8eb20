// Merging views of one machine: topo -m + nvlink -s of the real A6000 and H800 hosts, and
// conflicts (name, UUID, bus id, GPU count) that must come back as errors naming both files.
#include "parsers/machine_merge.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "parsers/nvlink_status_parser.hpp"
#include "parsers/topo_parser.hpp"
#include "topo_test_fixtures.hpp"

namespace gpuvet::parsers {
namespace {

using testing::read_fixture;

core::Machine topo(const std::string& file, const std::string& name = "topo.txt") {
  auto r = parse_topo_matrix(read_fixture("topo/" + file), name);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
  return r.ok() ? r.value() : core::Machine{};
}

core::Machine nvlink(const std::string& file, const std::string& name = "nvlink.txt") {
  auto r = parse_nvlink_status(read_fixture("nvlink/" + file), name);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
  return r.ok() ? r.value() : core::Machine{};
}

const char* kA6000Topo = "3x-rtx-a6000-nv4-bridge-pair-plus-node-ansi.txt";
const char* kA6000Nvlink = "3x-rtx-a6000-nvlink-s-bridged-pair-one-inactive.txt";

TEST(MergeMachines, A6000TopoPlusNvlinkGivesOnePicture) {
  const auto r = merge_machines({topo(kA6000Topo), nvlink(kA6000Nvlink)});
  ASSERT_TRUE(r.ok()) << r.error().message;
  const auto& m = r.value();
  EXPECT_EQ(m.source, "nvidia-smi topo -m (topo.txt) + nvidia-smi nvlink -s (nvlink.txt)");
  ASSERT_EQ(m.gpus.size(), 3u);
  ASSERT_TRUE(m.attached_gpus.known());
  EXPECT_EQ(*m.attached_gpus, 3);
  ASSERT_TRUE(m.links.known());
  EXPECT_EQ(m.links->at(0, 1), (core::Link{core::LinkKind::nvlink, 4}));
  EXPECT_EQ(m.links->at(1, 2).kind, core::LinkKind::node);
  for (const auto& g : m.gpus) {
    EXPECT_EQ(*g.name, "NVIDIA RTX A6000");
    EXPECT_EQ(*g.numa_node, 0);
    EXPECT_EQ(*g.cpu_affinity, "0-31,64-95");
    ASSERT_TRUE(g.nvlinks.known());
  }
  EXPECT_EQ(m.gpus[0].nvlinks->size(), 4u);
  EXPECT_TRUE(m.gpus[2].nvlinks->empty());
  ASSERT_EQ(m.notes.size(), 1u);
  EXPECT_NE(m.notes[0].find("GPU 2: all NVLinks inactive"), std::string::npos);
}

TEST(MergeMachines, OrderOfPartsDoesNotChangeTheGpus) {
  const auto a = merge_machines({topo(kA6000Topo), nvlink(kA6000Nvlink)});
  const auto b = merge_machines({nvlink(kA6000Nvlink), topo(kA6000Topo)});
  ASSERT_TRUE(a.ok() && b.ok());
  ASSERT_EQ(a->gpus.size(), b->gpus.size());
  for (size_t i = 0; i < a->gpus.size(); ++i) {
    EXPECT_EQ(a->gpus[i].name, b->gpus[i].name);
    EXPECT_EQ(a->gpus[i].uuid, b->gpus[i].uuid);
    EXPECT_EQ(a->gpus[i].numa_node, b->gpus[i].numa_node);
    ASSERT_EQ(a->gpus[i].nvlinks.known(), b->gpus[i].nvlinks.known());
    if (a->gpus[i].nvlinks.known()) {
      ASSERT_EQ(a->gpus[i].nvlinks->size(), b->gpus[i].nvlinks->size());
      for (size_t p = 0; p < a->gpus[i].nvlinks->size(); ++p) {
        EXPECT_EQ((*a->gpus[i].nvlinks)[p].speed_gbps, (*b->gpus[i].nvlinks)[p].speed_gbps);
      }
    }
  }
  EXPECT_EQ(a->links, b->links);
  EXPECT_EQ(a->attached_gpus, b->attached_gpus);
}

TEST(MergeMachines, ElidedNvlinkIsNotACountConflict) {
  const auto r = merge_machines({topo("8x-h800-or-a800-nv8-4nic-2numa-no-gpu-numa-id.txt"),
                                 nvlink("8x-h800-nvlink-status-8links-gpus2-6-elided.txt")});
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ(r->gpus.size(), 8u);
  EXPECT_EQ(r->gpus[7].nvlinks->size(), 8u);
  EXPECT_FALSE(r->gpus[3].nvlinks.known());
  EXPECT_FALSE(r->gpus[3].name.known());
  EXPECT_EQ(*r->gpus[7].name, "NVIDIA H800");
  ASSERT_TRUE(r->nics.known());
  EXPECT_EQ((*(*r->nics)[0].gpu_proximity)[1].kind, core::LinkKind::pix);
  EXPECT_EQ(r->notes, std::vector<std::string>{"GPUs 2-6 elided in input (\"...\" on line 19)"});
}

TEST(MergeMachines, ConflictingNamesNameTheGpuAndBothFiles) {
  auto q = nvlink(kA6000Nvlink, "q.txt");
  q.gpus[1].name = std::string("NVIDIA H100 80GB HBM3");
  const auto r = merge_machines({q, nvlink(kA6000Nvlink)});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, core::ErrorKind::bad_input);
  EXPECT_EQ(r.error().message, "GPU 1: name \"NVIDIA H100 80GB HBM3\" in q.txt but \"NVIDIA RTX A6000\" in nvlink.txt");
}

TEST(MergeMachines, ConflictingUuidAndBusIdAreErrorsButBusIdFormsAreNot) {
  auto a = nvlink(kA6000Nvlink, "a.txt");
  auto b = nvlink(kA6000Nvlink, "b.txt");
  a.gpus[0].pci_bus_id = std::string("00000000:18:00.0");
  b.gpus[0].pci_bus_id = std::string("0000:18:00.0");
  EXPECT_TRUE(merge_machines({a, b}).ok());
  b.gpus[0].pci_bus_id = std::string("0000:19:00.0");
  auto r = merge_machines({a, b});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, "GPU 0: PCI bus id \"00000000:18:00.0\" in a.txt but \"0000:19:00.0\" in b.txt");
  b = nvlink(kA6000Nvlink, "b.txt");
  b.gpus[2].uuid = std::string("GPU-other");
  r = merge_machines({a, b});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, "GPU 2: UUID \"GPU-02c05ee3-bdb5-aac7-f9e8-a4c8f3f725b3\" in a.txt but \"GPU-other\" in b.txt");
}

TEST(MergeMachines, GpuCountConflicts) {
  // nvlink shows GPU 7, the 3-GPU topo has no room for it.
  auto r = merge_machines({topo(kA6000Topo), nvlink("8x-h800-nvlink-status-8links-gpus2-6-elided.txt")});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, "GPU 7 in nvlink.txt but topo.txt has 3 GPUs");
  r = merge_machines({topo(kA6000Topo, "a.txt"), topo("4x-a10-pcie-sys-2nic.txt", "b.txt")});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, "GPU count: 3 in a.txt but 4 in b.txt");
}

TEST(MergeMachines, SinglePartComesBackUnchanged) {
  const auto part = topo("8x-a100-sxm4-40gb-nv12-17nic-1numa.txt");
  const auto r = merge_machines({part});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->source, part.source);
  EXPECT_EQ(r->links, part.links);
  ASSERT_TRUE(r->numa_nodes.known());
  ASSERT_EQ(r->numa_nodes->size(), 1u);
  EXPECT_EQ((*r->numa_nodes)[0].cpus, (*part.numa_nodes)[0].cpus);
  ASSERT_EQ(r->gpus.size(), part.gpus.size());
  EXPECT_EQ(r->gpus[5].cpu_affinity, part.gpus[5].cpu_affinity);
  ASSERT_TRUE(r->nics.known());
  EXPECT_EQ(r->nics->size(), 17u);
  EXPECT_EQ((*r->nics)[16].name, (*part.nics)[16].name);
}

TEST(MergeMachines, NothingToMergeIsAnError) {
  const auto r = merge_machines({});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, core::ErrorKind::bad_input);
}

TEST(MergeMachines, NvlinkPortsMergeByPortNumber) {
  auto a = nvlink(kA6000Nvlink, "a.txt");
  auto b = nvlink(kA6000Nvlink, "b.txt");
  a.gpus[0].nvlinks.value().resize(2);        // a knows ports 0-1
  b.gpus[0].nvlinks.value()[3].version = 3;   // b knows the version of port 3
  const auto r = merge_machines({a, b});
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ(r->gpus[0].nvlinks->size(), 4u);
  EXPECT_EQ((*r->gpus[0].nvlinks)[3].version, core::Reading<int>(3));
  EXPECT_EQ((*r->gpus[0].nvlinks)[3].link, 3);
}

TEST(MergeMachines, DriverDisagreementIsANote) {
  auto a = nvlink(kA6000Nvlink, "a.txt");
  auto b = nvlink(kA6000Nvlink, "b.txt");
  a.driver_version = std::string("550.54.14");
  b.driver_version = std::string("535.129.03");
  const auto r = merge_machines({a, b});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(*r->driver_version, "550.54.14");
  EXPECT_EQ(r->notes.back(), "driver version \"550.54.14\" in a.txt but \"535.129.03\" in b.txt; using the first");
}

}  // namespace
}  // namespace gpuvet::parsers
