// The anomalies the real nvidia-smi -q fixtures carry (row remaps, retired pages, power cap,
// fabric state, MIG) and the absences they must produce, per SOURCES.md / truth.json.
#include <gtest/gtest.h>

#include "core/machine.hpp"
#include "smi_query_test_support.hpp"

namespace gpuvet::parsers::test {
namespace {

core::Machine parse_ok(const std::string& name) {
  auto result = parse_fixture(name);
  EXPECT_TRUE(result.ok()) << (result.ok() ? "" : result.error().message);
  return result.ok() ? std::move(result).value() : core::Machine{};
}

TEST(SmiQueryAnomalies, A100FourGpuRemapPendingOn9e) {
  const auto machine = parse_ok("smi-q/4x-a100-sxm4-80gb-nvidia-smi-q.txt");
  ASSERT_EQ(machine.gpus.size(), 4u);
  for (const auto& gpu : machine.gpus) {
    const auto& health = gpu.memory_health;
    const std::string bus = *gpu.pci_bus_id;
    const bool remapped = bus == "0000:9e:00.0" || bus == "0000:c2:00.0";
    EXPECT_EQ(health.remapped_rows_correctable.value_or(-1), remapped ? 1 : 0) << bus;
    EXPECT_EQ(health.remapped_rows_uncorrectable.value_or(-1), 0) << bus;
    ASSERT_TRUE(health.remap_pending.known()) << bus;
    EXPECT_EQ(*health.remap_pending, bus == "0000:9e:00.0") << bus;
    EXPECT_EQ(health.remap_failure.value_or(true), false) << bus;
    EXPECT_EQ(health.retired_pages_sbe.reason(), "N/A");  // Ampere reports remapped rows instead
  }
  ASSERT_NE(gpu_at(machine, "0000:9e:00.0"), nullptr);
  ASSERT_NE(gpu_at(machine, "0000:c2:00.0"), nullptr);
}

TEST(SmiQueryAnomalies, A40RemappedRowsOn4fD1D6) {
  const auto machine = parse_ok("smi-q/10x-a40-pcie-nvidia-smi-q.txt");
  ASSERT_EQ(machine.gpus.size(), 10u);
  int total = 0;
  for (const auto& gpu : machine.gpus) {
    const std::string bus = *gpu.pci_bus_id;
    const int want = bus == "0000:4f:00.0" ? 2 : (bus == "0000:d1:00.0" || bus == "0000:d6:00.0") ? 1 : 0;
    EXPECT_EQ(gpu.memory_health.remapped_rows_correctable.value_or(-1), want) << bus;
    EXPECT_EQ(gpu.memory_health.remap_pending.value_or(true), false) << bus;
    total += gpu.memory_health.remapped_rows_correctable.value_or(0);
    EXPECT_EQ(gpu.fabric_state.reason(), "N/A");
  }
  EXPECT_EQ(total, 4);
}

TEST(SmiQueryAnomalies, V100RetiredPageOn08AndNoRemappedRows) {
  const auto machine = parse_ok("smi-q/8x-v100-sxm2-16gb-nvidia-smi-q.txt");
  ASSERT_EQ(machine.gpus.size(), 8u);
  for (const auto& gpu : machine.gpus) {
    const std::string bus = *gpu.pci_bus_id;
    EXPECT_EQ(gpu.memory_health.retired_pages_sbe.value_or(-1), bus == "0000:00:08.0" ? 1 : 0) << bus;
    EXPECT_EQ(gpu.memory_health.retired_pages_dbe.value_or(-1), 0) << bus;
    EXPECT_EQ(gpu.memory_health.retired_pages_pending.value_or(true), false) << bus;
    // Volta prints "Remapped Rows : N/A": every remap counter is absent with that reason.
    EXPECT_EQ(gpu.memory_health.remapped_rows_correctable.reason(), "N/A");
    EXPECT_EQ(gpu.memory_health.remap_pending.reason(), "N/A");
  }
  EXPECT_EQ(*machine.gpus[0].vbios, "88.00.4F.00.09");
  EXPECT_EQ(*machine.gpus[1].vbios, "88.00.13.00.02");
}

TEST(SmiQueryAnomalies, PowerCapOnA6000AndA40) {
  const auto a6000 = parse_ok("smi-q/9x-rtx-a6000-nvidia-smi-q.txt");
  for (const char* bus : {"0000:53:00.0", "0000:57:00.0", "0000:d6:00.0"}) {
    const core::Gpu* gpu = gpu_at(a6000, bus);
    ASSERT_NE(gpu, nullptr) << bus;
    EXPECT_EQ(*gpu->clocks_event_reasons, std::vector<std::string>{"SW Power Cap"}) << bus;
  }
  const auto a40 = parse_ok("smi-q/10x-a40-pcie-nvidia-smi-q.txt");
  int idle = 0;
  for (const auto& gpu : a40.gpus) idle += gpu.idle.value_or(false) ? 1 : 0;
  EXPECT_EQ(idle, 8);  // all but the two power-capped GPUs
}

TEST(SmiQueryAnomalies, H100FabricCompletedOnAllEight) {
  const auto machine = parse_ok("smi-q/8x-h100-sxm5-80gb-hgx-nvidia-smi-q.txt");
  ASSERT_EQ(machine.gpus.size(), 8u);
  for (const auto& gpu : machine.gpus) {
    EXPECT_EQ(gpu.fabric_state.value_or(""), "Completed");
    EXPECT_EQ(gpu.memory_total_mib.value_or(0), 81559u);
    EXPECT_EQ(gpu.idle.value_or(false), true);
    EXPECT_EQ(gpu.board_part_number.value_or(""), "692-2G520-0200-000");
    EXPECT_EQ(gpu.inforom_image.value_or(""), "G520.0200.00.05");
  }
  EXPECT_EQ(machine.gpus[0].serial.value_or(""), "1654423001593");
  EXPECT_EQ(machine.gpus[0].uuid.value_or(""), "GPU-b42dd28e-ffdd-8720-1df0-98bd8cdc05b1");
  EXPECT_EQ(machine.gpus[0].pci_bus_id.value_or(""), "0000:18:00.0");
}

TEST(SmiQueryAnomalies, GeForceSerialAndPartNumberAreAbsentNotEmpty) {
  const auto machine = parse_ok("smi-q/8x-rtx4090-nvidia-smi-q.txt");
  for (const auto& gpu : machine.gpus) {
    EXPECT_EQ(gpu.serial.reason(), "N/A");
    EXPECT_EQ(gpu.board_part_number.reason(), "N/A");
    EXPECT_EQ(gpu.mig_enabled.reason(), "MIG not supported");
    EXPECT_EQ(gpu.ecc_enabled.value_or(true), false);
  }
}

TEST(SmiQueryAnomalies, MigXmlKeepsDeclaredCountAndNotes) {
  const auto machine = parse_ok("smi-q/a100-sxm4-80gb-mig-enabled-trimmed-1of4-nvidia-smi-q-x.xml");
  EXPECT_EQ(machine.attached_gpus.value_or(0), 4);
  ASSERT_EQ(machine.gpus.size(), 1u);
  ASSERT_EQ(machine.notes.size(), 1u);
  EXPECT_NE(machine.notes[0].find("4"), std::string::npos);
  const core::Gpu& gpu = machine.gpus[0];
  EXPECT_EQ(gpu.mig_enabled.value_or(false), true);
  EXPECT_EQ(gpu.serial.value_or(""), "1650522003820");
  EXPECT_EQ(gpu.board_part_number.value_or(""), "692-2G506-0212-002");
  EXPECT_EQ(gpu.pci_bus_id.value_or(""), "0000:01:00.0");
  // <remapped_rows>N/A</remapped_rows> and N/A retired-page counts under MIG.
  EXPECT_EQ(gpu.memory_health.remapped_rows_correctable.reason(), "N/A");
  EXPECT_EQ(gpu.memory_health.retired_pages_sbe.reason(), "N/A");
  EXPECT_EQ(gpu.memory_health.retired_pages_pending.reason(), "N/A");
  EXPECT_EQ(gpu.idle.value_or(true), false);
  EXPECT_TRUE(gpu.clocks_event_reasons->empty());
}

TEST(SmiQueryAnomalies, A5000XmlHealthyAndIdle) {
  const auto machine = parse_ok("smi-q/2x-rtx-a5000-anonymised-nvidia-smi-q-x.xml");
  ASSERT_EQ(machine.gpus.size(), 2u);
  EXPECT_EQ(machine.gpus[0].pci_bus_id.value_or(""), "0000:81:00.0");
  EXPECT_EQ(machine.gpus[1].pci_bus_id.value_or(""), "0000:c1:00.0");
  for (const auto& gpu : machine.gpus) {
    EXPECT_EQ(gpu.memory_health.remapped_rows_correctable.value_or(-1), 0);
    EXPECT_EQ(gpu.memory_health.remap_pending.value_or(true), false);
    EXPECT_EQ(gpu.idle.value_or(false), true);
    EXPECT_EQ(gpu.fabric_state.reason(), "N/A");
    EXPECT_EQ(gpu.board_part_number.value_or(""), "900-5G132-1700-000");
  }
}

}  // namespace
}  // namespace gpuvet::parsers::test
