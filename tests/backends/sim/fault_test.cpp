// Each fault overlay changes exactly what it should (compared field by field with the clean
// machine), faults combine in order, and bad fault texts are usage errors naming the fault.
#include <gtest/gtest.h>

#include <regex>

#include "backends/sim/simulator.hpp"
#include "machine_dump.hpp"

namespace gpuvet::sim {
namespace {

core::Machine clean(std::string_view profile) { return std::move(simulate_machine(profile, {})).value(); }

core::Result<core::Machine> with(std::string_view profile, const std::vector<std::string>& texts) {
  std::vector<FaultSpec> faults;
  for (const auto& t : texts) {
    auto f = parse_fault(t);
    if (!f) return f.error();
    faults.push_back(std::move(f).value());
  }
  return simulate_machine(profile, faults);
}

core::Machine faulted(std::string_view profile, const std::vector<std::string>& texts) {
  auto m = with(profile, texts);
  EXPECT_TRUE(m.ok()) << (m.ok() ? "" : m.error().message);
  return m.ok() ? std::move(m).value() : core::Machine{};
}

// Every changed key matches one of the allowed patterns.
void expect_only(const std::map<std::string, std::pair<std::string, std::string>>& changes, const std::string& allowed) {
  const std::regex re(allowed);
  for (const auto& [key, values] : changes) {
    EXPECT_TRUE(std::regex_match(key, re)) << "unexpected change " << key << ": " << values.first << " -> " << values.second;
  }
}

TEST(ParseFault, SplitsNameAndParamsInOrder) {
  const auto f = parse_fault("nvlink-down:gpu=3,link=2");
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(f->name, "nvlink-down");
  EXPECT_EQ(f->params, (std::vector<std::pair<std::string, std::string>>{{"gpu", "3"}, {"link", "2"}}));
  EXPECT_EQ(f->text, "nvlink-down:gpu=3,link=2");
  const auto bare = parse_fault("gpu-missing");
  ASSERT_TRUE(bare.ok());
  EXPECT_TRUE(bare->params.empty());
  const auto spaced = parse_fault("mixed-batch: gpu=1 , vbios=96.00.99.00.01");
  ASSERT_TRUE(spaced.ok());
  EXPECT_EQ(spaced->params.at(1).second, "96.00.99.00.01");
}

TEST(ParseFault, BadSyntaxIsAUsageErrorNamingTheText) {
  for (const char* text : {"", ":gpu=1", "nvlink-down:", "nvlink-down:gpu", "nvlink-down:gpu=1,gpu=2", "nvlink-down:=3",
                           "nvlink-down:gpu=", "NVLink Down:gpu=1", "nvlink-down:gpu=1,,link=2"}) {
    const auto f = parse_fault(text);
    ASSERT_FALSE(f.ok()) << text;
    EXPECT_EQ(f.error().kind, core::ErrorKind::usage);
    EXPECT_NE(f.error().message.find("fault '" + std::string(text) + "'"), std::string::npos) << f.error().message;
    EXPECT_NE(f.error().message.find("expected"), std::string::npos) << f.error().message;
  }
}

TEST(ListFaults, DocumentsEachFault) {
  std::vector<std::string> names;
  for (const auto& f : list_faults()) {
    names.push_back(f.name);
    EXPECT_EQ(f.usage.rfind(f.name + ":", 0), 0u) << f.usage;
    EXPECT_GT(f.description.size(), 40u);
  }
  EXPECT_EQ(names, (std::vector<std::string>{"nvlink-down", "pcie-degraded", "mixed-batch", "gpu-missing", "numa-misplaced",
                                             "p2p-disabled", "vram-short", "vram-bad", "straggler", "slow-link", "collective-hang", "collective-corrupt",
                                             "nic-down", "nic-downtrained", "thermal-throttle", "xid", "nvlink-crc", "ecc-sbe", "gpu-lost",
                                             "gemm-miscompare", "busbw-heat", "sdc", "util-lag", "temp-drift", "ecc-dbe", "row-remap-failure",
                                             "pcie-replay"}));
}

TEST(NvlinkDown, OnNvswitchEveryPairOfThatGpuLosesOneLink) {
  const auto changes = testing::diff(clean("hgx-h100-8x"), faulted("hgx-h100-8x", {"nvlink-down:gpu=3,link=2"}));
  expect_only(changes, R"(gpu\[3\]\.nvlink\[2\]\..*|links\[3\]\[\d\]|links\[\d\]\[3\])");
  EXPECT_EQ(changes.at("gpu[3].nvlink[2].active").second, "false");
  for (int peer : {0, 1, 2, 4, 5, 6, 7}) {
    EXPECT_EQ(changes.at("links[3][" + std::to_string(peer) + "]").second, "NV17");
    EXPECT_EQ(changes.at("links[" + std::to_string(peer) + "][3]").second, "NV17");
  }
}

TEST(NvlinkDown, OnADirectMeshOnlyThatPairLosesALinkAndBothEndsGoDown) {
  const auto changes = testing::diff(clean("hgx-h100-4x"), faulted("hgx-h100-4x", {"nvlink-down:gpu=0,link=0"}));
  // Port 0 of GPU 0 is the first link of pair 0-1, cabled to port 0 of GPU 1.
  expect_only(changes, R"(gpu\[[01]\]\.nvlink\[0\]\..*|links\[0\]\[1\]|links\[1\]\[0\])");
  EXPECT_EQ(changes.at("links[0][1]").second, "NV5");
  EXPECT_EQ(changes.at("gpu[1].nvlink[0].active").second, "false");
}

TEST(NvlinkDown, ASingleLinkPairFallsBackToPcie) {
  const auto changes = testing::diff(clean("dgx1-v100"), faulted("dgx1-v100", {"nvlink-down:gpu=0,link=0"}));
  expect_only(changes, R"(gpu\[[01]\]\.nvlink\[0\]\..*|links\[0\]\[1\]|links\[1\]\[0\])");
  EXPECT_EQ(changes.at("links[0][1]").first, "NV1");
  EXPECT_EQ(changes.at("links[0][1]").second, "PIX");  // GPUs 0 and 1 share a PLX switch
}

TEST(PcieDegraded, LowersTheCurrentLinkOnly) {
  const auto changes = testing::diff(clean("hgx-h100-8x"), faulted("hgx-h100-8x", {"pcie-degraded:gpu=2,gen=3,width=8"}));
  ASSERT_EQ(changes.size(), 2u);
  EXPECT_EQ(changes.at("gpu[2].pcie.gen_current"), std::make_pair(std::string("5"), std::string("3")));
  EXPECT_EQ(changes.at("gpu[2].pcie.width_current"), std::make_pair(std::string("16"), std::string("8")));
}

TEST(PcieDegraded, DefaultsToOneGenerationDown) {
  const auto changes = testing::diff(clean("l40s-8x"), faulted("l40s-8x", {"pcie-degraded:gpu=7"}));
  ASSERT_EQ(changes.size(), 1u);
  EXPECT_EQ(changes.at("gpu[7].pcie.gen_current").second, "3");
  const auto width_only = testing::diff(clean("l40s-8x"), faulted("l40s-8x", {"pcie-degraded:gpu=0,width=4"}));
  ASSERT_EQ(width_only.size(), 1u);
  EXPECT_EQ(width_only.at("gpu[0].pcie.width_current").second, "4");
}

TEST(MixedBatch, ChangesOnlyTheNamedInventoryFields) {
  const auto changes = testing::diff(
      clean("hgx-h100-8x"), faulted("hgx-h100-8x", {"mixed-batch:gpu=5,vbios=96.00.99.00.01,part=692-2G520-0280-000,memory_gib=94"}));
  ASSERT_EQ(changes.size(), 3u);
  EXPECT_EQ(changes.at("gpu[5].vbios").second, "96.00.99.00.01");
  EXPECT_EQ(changes.at("gpu[5].board_part_number").second, "692-2G520-0280-000");
  EXPECT_EQ(changes.at("gpu[5].memory_total_mib").second, "95832");  // 81559 x 94/80 rounded, what a 94 GB card shows
  const auto vbios_only = testing::diff(clean("dgx1-v100"), faulted("dgx1-v100", {"mixed-batch:gpu=0,vbios=88.00.13.00.02"}));
  ASSERT_EQ(vbios_only.size(), 1u);
  EXPECT_EQ(vbios_only.begin()->first, "gpu[0].vbios");
}

TEST(GpuMissing, RemovesTheGpuRenumbersTheRestAndKeepsAttachedCount) {
  const core::Machine before = clean("hgx-h100-8x");
  const core::Machine after = faulted("hgx-h100-8x", {"gpu-missing:gpu=2"});
  ASSERT_EQ(after.gpus.size(), 7u);
  EXPECT_EQ(after.attached_gpus.value_or(0), 8);
  for (std::size_t i = 0; i < 7; ++i) {
    const std::size_t orig = i < 2 ? i : i + 1;
    EXPECT_EQ(after.gpus[i].index, static_cast<int>(i));
    EXPECT_EQ(after.gpus[i].uuid, before.gpus[orig].uuid);
    EXPECT_EQ(after.gpus[i].pci_bus_id, before.gpus[orig].pci_bus_id);
    EXPECT_EQ((*after.nics)[0].gpu_proximity->at(i), (*before.nics)[0].gpu_proximity->at(orig));
  }
  EXPECT_EQ(*after.links, before.links->without(2));
  for (const auto& nic : *after.nics) EXPECT_EQ(nic.gpu_proximity->size(), 7u);
  ASSERT_EQ(after.notes.size(), 1u);
  EXPECT_NE(after.notes[0].find("0000:3a:00.0"), std::string::npos) << after.notes[0];
}

TEST(NumaMisplaced, ChangesReportedNodeAndCpusButNotPlacement) {
  const auto changes = testing::diff(clean("hgx-h100-8x"), faulted("hgx-h100-8x", {"numa-misplaced:gpu=0,node=1"}));
  ASSERT_EQ(changes.size(), 2u);
  EXPECT_EQ(changes.at("gpu[0].numa_node").second, "1");
  EXPECT_EQ(changes.at("gpu[0].cpu_affinity").second, "56-111,168-223");
}

TEST(Faults, CombineInOrderWithTheProfilesIndices) {
  // gpu=N always names the profile's GPU N: after GPU 0 vanishes, "gpu=1" is still bus 2a,
  // which NVML then shows as GPU 0.
  const core::Machine m = faulted("hgx-h100-8x", {"gpu-missing:gpu=0", "nvlink-down:gpu=1,link=5", "pcie-degraded:gpu=1,gen=4"});
  ASSERT_EQ(m.gpus.size(), 7u);
  EXPECT_EQ(m.gpus[0].pci_bus_id.value_or(""), "0000:2a:00.0");
  EXPECT_FALSE(m.gpus[0].nvlinks->at(5).active.value_or(true));
  EXPECT_EQ(m.gpus[0].pcie.gen_current.value_or(0), 4);
  EXPECT_EQ(core::to_string(m.links->at(0, 1)), "NV17");
  EXPECT_EQ(core::to_string(m.links->at(1, 2)), "NV18");
  // A GPU removed once cannot be removed (or faulted) again.
  std::vector<sim::FaultSpec> twice;
  for (const char* text : {"gpu-missing:gpu=1", "gpu-missing:gpu=1"}) twice.push_back(*sim::parse_fault(text));
  const auto again = sim::simulate_machine("hgx-h100-8x", twice);
  ASSERT_FALSE(again.ok());
  EXPECT_NE(again.error().message.find("already removed"), std::string::npos) << again.error().message;
  // Two links down on two GPUs: their pair is min(17, 17) = NV17, others of GPU 1 too.
  const core::Machine two = faulted("hgx-h100-8x", {"nvlink-down:gpu=1,link=0", "nvlink-down:gpu=1,link=1"});
  EXPECT_EQ(core::to_string(two.links->at(1, 4)), "NV16");
}

TEST(Faults, BadParamsAreUsageErrorsNamingTheFault) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"hgx-h100-8x", "nvlink-broken:gpu=1"},               // unknown fault
      {"hgx-h100-8x", "nvlink-down:gpu=1"},                 // missing key
      {"hgx-h100-8x", "nvlink-down:gpu=1,link=2,speed=3"},  // unknown key
      {"hgx-h100-8x", "nvlink-down:gpu=8,link=0"},          // gpu out of range
      {"hgx-h100-8x", "nvlink-down:gpu=-1,link=0"},
      {"hgx-h100-8x", "nvlink-down:gpu=1,link=18"},         // link out of range
      {"hgx-h100-8x", "nvlink-down:gpu=one,link=0"},
      {"rtx4090-8x", "nvlink-down:gpu=0,link=0"},           // no NVLink at all
      {"nvlink-4plus4-8x", "nvlink-down:gpu=5,link=0"},     // port with nothing attached
      {"hgx-h100-8x", "pcie-degraded:gpu=1,gen=6"},          // above max
      {"hgx-h100-8x", "pcie-degraded:gpu=1,width=3"},
      {"hgx-h100-8x", "pcie-degraded:gpu=1,gen=5,width=16"}, // nothing degraded
      {"hgx-h100-8x", "mixed-batch:gpu=1"},                  // no key
      {"hgx-h100-8x", "mixed-batch:gpu=1,memory_gib=lots"},
      {"hgx-h100-8x", "gpu-missing"},
      {"hgx-h100-8x", "numa-misplaced:gpu=1,node=2"},        // no such node
      {"hgx-h100-8x", "numa-misplaced:gpu=1"},
      {"hgx-h100-8x", "gpu-missing:gpu=7,extra=1"},
  };
  for (const auto& [profile, text] : cases) {
    const auto m = with(profile, {text});
    ASSERT_FALSE(m.ok()) << text;
    EXPECT_EQ(m.error().kind, core::ErrorKind::usage) << text;
    EXPECT_NE(m.error().message.find("fault '" + text + "'"), std::string::npos) << m.error().message;
  }
  // Out of range after an earlier fault removed a GPU.
  EXPECT_FALSE(with("hgx-h100-4x", {"gpu-missing:gpu=3", "pcie-degraded:gpu=3"}).ok());
  const auto unknown = with("hgx-h100-8x", {"nvlink-broken:gpu=1"});
  EXPECT_NE(unknown.error().message.find("nvlink-down"), std::string::npos) << "lists the known faults";
}

}  // namespace
}  // namespace gpuvet::sim
