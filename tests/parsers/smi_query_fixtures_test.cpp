// Table-driven tests of the nvidia-smi -q text and XML parsers over every real fixture in
// tests/fixtures/smi-q, checked against tests/fixtures/truth.json and per-file expectations.
#include <filesystem>
#include <optional>
#include <set>

#include <gtest/gtest.h>

#include "core/machine.hpp"
#include "smi_query_test_support.hpp"

namespace gpuvet::parsers::test {
namespace {

class SmiQueryFixture : public ::testing::TestWithParam<std::string> {};

TEST(SmiQueryFixtures, ListCoversTheFolderAndTruth) {
  std::set<std::string> listed(smi_query_fixtures().begin(), smi_query_fixtures().end());
  std::set<std::string> on_disk;
  for (const auto& entry : std::filesystem::directory_iterator(std::string(GPUVET_FIXTURES) + "/smi-q")) {
    on_disk.insert("smi-q/" + entry.path().filename().string());
  }
  EXPECT_EQ(listed, on_disk);
  ASSERT_FALSE(truth().is_discarded());
  std::set<std::string> in_truth;
  for (const auto& [key, value] : truth().items()) {
    if (key.rfind("smi-q/", 0) == 0) in_truth.insert(key);
  }
  EXPECT_EQ(listed, in_truth);
}

TEST_P(SmiQueryFixture, MatchesTruth) {
  const std::string name = GetParam();
  ASSERT_FALSE(truth().is_discarded());
  const auto& want = truth().at(name);
  const auto result = parse_fixture(name);
  ASSERT_TRUE(result.ok()) << result.error().message;
  const core::Machine& machine = result.value();

  ASSERT_EQ(machine.gpus.size(), want.at("gpus").get<std::size_t>());
  std::vector<std::string> vbios;
  std::set<std::string> distinct_vbios;
  for (std::size_t i = 0; i < machine.gpus.size(); ++i) {
    const core::Gpu& gpu = machine.gpus[i];
    EXPECT_EQ(gpu.index, static_cast<int>(i));
    ASSERT_TRUE(gpu.name.known()) << gpu.name.reason();
    EXPECT_EQ(*gpu.name, want.at("model").get<std::string>());
    ASSERT_TRUE(gpu.vbios.known());
    vbios.push_back(*gpu.vbios);
    distinct_vbios.insert(*gpu.vbios);
  }
  EXPECT_EQ(vbios, want.at("vbios").get<std::vector<std::string>>());
  EXPECT_EQ(distinct_vbios.size() > 1, want.at("mixed_vbios").get<bool>());

  const auto& throttled = want.at("throttle_active");
  for (const auto& gpu : machine.gpus) {
    ASSERT_TRUE(gpu.clocks_event_reasons.known()) << gpu.clocks_event_reasons.reason();
    ASSERT_TRUE(gpu.idle.known()) << gpu.idle.reason();
    bool listed = false;
    for (const auto& [bus_id, reasons] : throttled.items()) {
      if (core::normalize_pci_bus_id(bus_id) != *gpu.pci_bus_id) continue;
      listed = true;
      EXPECT_EQ(*gpu.clocks_event_reasons, reasons.get<std::vector<std::string>>()) << bus_id;
      EXPECT_FALSE(*gpu.idle) << bus_id;
    }
    if (!listed) {
      EXPECT_TRUE(gpu.clocks_event_reasons->empty()) << *gpu.pci_bus_id;
    }
  }
  if (want.contains("attached_gpus_declared")) {
    ASSERT_TRUE(machine.attached_gpus.known());
    EXPECT_EQ(*machine.attached_gpus, want.at("attached_gpus_declared").get<int>());
    EXPECT_FALSE(machine.notes.empty());
  } else {
    EXPECT_EQ(machine.attached_gpus.value_or(-1), static_cast<int>(machine.gpus.size()));
    EXPECT_TRUE(machine.notes.empty());
  }
}

TEST_P(SmiQueryFixture, SourceAndAbsencesNotInSmiQuery) {
  const std::string name = GetParam();
  const auto result = parse_fixture(name);
  ASSERT_TRUE(result.ok()) << result.error().message;
  const core::Machine& machine = result.value();
  EXPECT_EQ(machine.source, (is_xml(name) ? "nvidia-smi -q -x (" : "nvidia-smi -q (") + name + ")");
  EXPECT_EQ(machine.links.reason(), "not in nvidia-smi -q");
  EXPECT_EQ(machine.numa_nodes.reason(), "not in nvidia-smi -q");
  EXPECT_EQ(machine.nics.reason(), "not in nvidia-smi -q");
  for (const auto& gpu : machine.gpus) {
    EXPECT_FALSE(gpu.compute_capability.known());
    EXPECT_FALSE(gpu.numa_node.known());
    EXPECT_TRUE(gpu.uuid.known());
    EXPECT_TRUE(gpu.inforom_image.known());
    EXPECT_TRUE(gpu.architecture.known());
    ASSERT_TRUE(gpu.pci_bus_id.known());
    EXPECT_EQ(gpu.pci_bus_id->size(), 12u) << *gpu.pci_bus_id;  // "0000:18:00.0"
    EXPECT_EQ(*gpu.pci_bus_id, core::normalize_pci_bus_id(*gpu.pci_bus_id));
  }
}

INSTANTIATE_TEST_SUITE_P(AllFixtures, SmiQueryFixture, ::testing::ValuesIn(smi_query_fixtures()),
                         [](const ::testing::TestParamInfo<std::string>& param) {
                           std::string id = param.param.substr(6);
                           for (char& c : id) {
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           }
                           return id;
                         });

// What GPU 0 of each fixture says, read off the files by hand.
struct Expected {
  std::string file;
  std::string driver;
  std::string cuda;
  std::uint64_t memory_total_mib;
  int gen_current, gen_max, width_current, width_max;
  bool ecc;
  double power_limit_w;
  int max_sm_mhz, max_mem_mhz;
  std::string architecture;
  std::optional<bool> mig;  // nullopt: "N/A" on this board
};

const std::vector<Expected> kExpected = {
    {"smi-q/10x-a40-pcie-nvidia-smi-q.txt", "550.127.05", "12.4", 46068, 1, 4, 16, 16, true, 300, 1740, 7251, "Ampere", std::nullopt},
    {"smi-q/2x-h100-nvl-nvidia-smi-q.txt", "550.54.14", "12.4", 95830, 5, 5, 16, 16, true, 310, 1785, 2619, "Hopper", false},
    {"smi-q/2x-rtx-a5000-anonymised-nvidia-smi-q-x.xml", "590.44.01", "13.1", 24564, 1, 4, 16, 16, false, 230, 2100, 8001, "Ampere", std::nullopt},
    {"smi-q/4x-a100-sxm4-80gb-nvidia-smi-q.txt", "555.42.02", "12.5", 81920, 4, 4, 16, 16, true, 500, 1410, 1593, "Ampere", false},
    {"smi-q/8x-a100-sxm4-40gb-nvidia-smi-a.txt", "535.129.03", "12.2", 40960, 4, 4, 16, 16, true, 400, 1410, 1215, "Ampere", false},
    {"smi-q/8x-h100-sxm5-80gb-hgx-nvidia-smi-q.txt", "565.57.01", "12.7", 81559, 5, 5, 16, 16, true, 700, 1980, 2619, "Hopper", false},
    {"smi-q/8x-rtx4090-nvidia-smi-q.txt", "550.127.05", "12.4", 24564, 1, 4, 16, 16, false, 450, 3105, 10501, "Ada Lovelace", std::nullopt},
    {"smi-q/8x-v100-sxm2-16gb-nvidia-smi-q.txt", "550.127.05", "12.4", 16384, 3, 3, 16, 16, true, 300, 1530, 877, "Volta", std::nullopt},
    {"smi-q/9x-rtx-a6000-nvidia-smi-q.txt", "550.127.05", "12.4", 46068, 1, 4, 16, 16, true, 300, 2100, 8001, "Ampere", std::nullopt},
    {"smi-q/a100-sxm4-80gb-mig-enabled-trimmed-1of4-nvidia-smi-q-x.xml", "535.54.03", "12.2", 81920, 4, 4, 16, 16, true, 500, 1410, 1593, "Ampere", true},
};

class SmiQueryExpected : public ::testing::TestWithParam<Expected> {};

TEST_P(SmiQueryExpected, FirstGpuFields) {
  const Expected& want = GetParam();
  const auto result = parse_fixture(want.file);
  ASSERT_TRUE(result.ok()) << result.error().message;
  const core::Machine& machine = result.value();
  EXPECT_EQ(machine.driver_version.value_or(""), want.driver);
  EXPECT_EQ(machine.cuda_version.value_or(""), want.cuda);
  ASSERT_FALSE(machine.gpus.empty());
  const core::Gpu& gpu = machine.gpus[0];
  EXPECT_EQ(gpu.memory_total_mib.value_or(0), want.memory_total_mib);
  EXPECT_EQ(gpu.pcie.gen_current.value_or(-1), want.gen_current);
  EXPECT_EQ(gpu.pcie.gen_max.value_or(-1), want.gen_max);
  EXPECT_EQ(gpu.pcie.width_current.value_or(-1), want.width_current);
  EXPECT_EQ(gpu.pcie.width_max.value_or(-1), want.width_max);
  ASSERT_TRUE(gpu.ecc_enabled.known()) << gpu.ecc_enabled.reason();
  EXPECT_EQ(*gpu.ecc_enabled, want.ecc);
  EXPECT_DOUBLE_EQ(gpu.power_limit_w.value_or(-1), want.power_limit_w);
  EXPECT_EQ(gpu.max_sm_clock_mhz.value_or(-1), want.max_sm_mhz);
  EXPECT_EQ(gpu.max_mem_clock_mhz.value_or(-1), want.max_mem_mhz);
  EXPECT_EQ(gpu.architecture.value_or(""), want.architecture);
  EXPECT_EQ(gpu.virtualization_mode.value_or(""), "None");
  if (want.mig) {
    ASSERT_TRUE(gpu.mig_enabled.known()) << gpu.mig_enabled.reason();
    EXPECT_EQ(*gpu.mig_enabled, *want.mig);
  } else {
    EXPECT_EQ(gpu.mig_enabled.reason(), "MIG not supported");
  }
  // Every GPU of these machines has the same ECC mode and memory size as GPU 0.
  for (const auto& other : machine.gpus) {
    EXPECT_EQ(other.ecc_enabled, gpu.ecc_enabled);
    EXPECT_EQ(other.memory_total_mib, gpu.memory_total_mib);
  }
}

INSTANTIATE_TEST_SUITE_P(AllFixtures, SmiQueryExpected, ::testing::ValuesIn(kExpected), [](const ::testing::TestParamInfo<Expected>& param) {
  return "fixture_" + std::to_string(param.index);
});

TEST(SmiQueryExpectedTable, CoversEveryFixture) {
  std::set<std::string> files;
  for (const auto& e : kExpected) files.insert(e.file);
  EXPECT_EQ(files, std::set<std::string>(smi_query_fixtures().begin(), smi_query_fixtures().end()));
}

}  // namespace
}  // namespace gpuvet::parsers::test
