// The machine profile schema: a minimal profile parses; broken ones are rejected with the field
// named; composing with the catalogue rejects unknown models and NVLink layouts a GPU cannot carry.
#include <gtest/gtest.h>

#include "backends/sim/machine_profile.hpp"
#include "backends/sim/sim_state.hpp"
#include "catalog/gpu_catalog.hpp"

namespace gpuvet::sim {
namespace {

constexpr const char* kMinimal = R"(name: two
description: two bridged cards
hostname: h
seed: 7
driver_version: "550.1"
cuda_version: "12.4"
gpus:
  - {model: rtx-a6000-48gb, count: 2, pci_buses: ["17", "65"]}
nvlink:
  fabric: direct
  pairs:
    - {gpus: [0, 1], links: 4}
numa_nodes:
  - {id: 0, cpus: "0-15"}
pcie:
  - {numa_node: 0, gpus: [0], nics: [0]}
  - {numa_node: 0, gpus: [1]}
nics:
  - {name: eth0, rate_gbit_s: 100, link_layer: Ethernet, pci_bus: "18"}
)";

std::string replace(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

TEST(ProfileSchema, MinimalProfileParsesAndRenders) {
  auto p = parse_machine_profile(kMinimal, "two.yaml");
  ASSERT_TRUE(p.ok()) << p.error().message;
  EXPECT_EQ(p->gpu_count(), 2);
  EXPECT_EQ(p->fabric, NvlinkFabric::direct);
  EXPECT_EQ(p->gpu_groups[0].pci_buses, (std::vector<int>{0x17, 0x65}));
  auto state = build_state(std::move(p).value(), catalog::gpu_catalog());
  ASSERT_TRUE(state.ok()) << state.error().message;
  const core::Machine m = render_machine(*state);
  EXPECT_EQ(core::to_string(m.links->at(0, 1)), "NV4");
  EXPECT_DOUBLE_EQ(m.gpus[0].nvlinks->at(0).speed_gbps.value_or(0), 14.0625);
  EXPECT_EQ(m.gpus[0].nvlinks->at(0).remote_pci_bus_id.value_or(""), "0000:65:00.0");
  EXPECT_EQ(core::to_string((*m.nics)[0].gpu_proximity->at(0)), "PHB");
  EXPECT_EQ(core::to_string((*m.nics)[0].gpu_proximity->at(1)), "NODE");
  EXPECT_EQ(m.source, "simulated: two");
}

TEST(ProfileSchema, RejectsBrokenProfilesNamingTheField) {
  const std::vector<std::tuple<const char*, std::string, const char*>> cases = {
      {"no gpus", replace(kMinimal, "  - {model: rtx-a6000-48gb, count: 2, pci_buses: [\"17\", \"65\"]}\n", ""), "gpus"},
      {"bus count", replace(kMinimal, "[\"17\", \"65\"]", "[\"17\"]"), "pci_buses"},
      {"bad bus", replace(kMinimal, "\"65\"]", "\"6g\"]"), "hex PCI bus"},
      {"gpu not placed", replace(kMinimal, "gpus: [1]}", "gpus: []}"), "GPU 1 must be placed exactly once"},
      {"gpu placed twice", replace(kMinimal, "gpus: [1]}", "gpus: [0, 1]}"), "GPU 0 must be placed exactly once"},
      {"nic not placed", replace(kMinimal, "gpus: [0], nics: [0]}", "gpus: [0]}"), "NIC 0"},
      {"pair out of range", replace(kMinimal, "gpus: [0, 1], links: 4", "gpus: [0, 2], links: 4"), "pair 0-2"},
      {"self pair", replace(kMinimal, "gpus: [0, 1], links: 4", "gpus: [1, 1], links: 4"), "pair 1-1"},
      {"unknown numa", replace(kMinimal, "{numa_node: 0, gpus: [1]}", "{numa_node: 3, gpus: [1]}"), "numa_node 3"},
      {"bad fabric", replace(kMinimal, "fabric: direct", "fabric: infiniband"), "nvlink.fabric"},
      {"direct without pairs", replace(kMinimal, "    - {gpus: [0, 1], links: 4}\n", ""), "meshes or pairs"},
      {"missing hostname", replace(kMinimal, "hostname: h\n", ""), "hostname"},
      {"bad seed", replace(kMinimal, "seed: 7", "seed: seven"), "seed"},
      {"yaml syntax", "name: [\n", "x.yaml"},
      {"unknown field", replace(kMinimal, "seed: 7", "seed: 7\ngpu_count: 2"), "unknown field 'gpu_count'"},
  };
  for (const auto& [what, text, expected] : cases) {
    SCOPED_TRACE(what);
    const auto p = parse_machine_profile(text, "x.yaml");
    ASSERT_FALSE(p.ok());
    EXPECT_EQ(p.error().kind, core::ErrorKind::bad_input);
    EXPECT_NE(p.error().message.find(expected), std::string::npos) << p.error().message;
    EXPECT_EQ(p.error().message.rfind("x.yaml", 0), 0u);
  }
}

TEST(ProfileSchema, CompositionChecksTheCatalogue) {
  auto unknown = parse_machine_profile(replace(kMinimal, "rtx-a6000-48gb", "rtx-a9000"), "x.yaml");
  ASSERT_TRUE(unknown.ok());
  const auto s1 = build_state(std::move(unknown).value(), catalog::gpu_catalog());
  ASSERT_FALSE(s1.ok());
  EXPECT_NE(s1.error().message.find("'rtx-a9000' is not in the catalogue"), std::string::npos);

  auto too_many = parse_machine_profile(replace(kMinimal, "links: 4", "links: 5"), "x.yaml");  // A6000 has 4 ports
  ASSERT_TRUE(too_many.ok());
  const auto s2 = build_state(std::move(too_many).value(), catalog::gpu_catalog());
  ASSERT_FALSE(s2.ok());
  EXPECT_NE(s2.error().message.find("more ports"), std::string::npos);

  auto no_nvlink = parse_machine_profile(replace(replace(kMinimal, "rtx-a6000-48gb", "l40s-48gb"), "fabric: direct", "fabric: nvswitch"), "x.yaml");
  ASSERT_TRUE(no_nvlink.ok());
  EXPECT_FALSE(build_state(std::move(no_nvlink).value(), catalog::gpu_catalog()).ok());
}

}  // namespace
}  // namespace gpuvet::sim
