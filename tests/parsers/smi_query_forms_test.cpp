// Layout variants of nvidia-smi -q: older drivers' key names (synthetic inputs written in their
// layout, not captures), absence words, CRLF/ANSI/indented pastes, and the shared field table.
#include <set>

#include <gtest/gtest.h>

#include "parsers/smi_query_fields.hpp"
#include "smi_query_test_support.hpp"

namespace gpuvet::parsers::test {
namespace {

// Synthetic: keys as drivers before 530 print them ("Clocks Throttle Reasons", "Power Readings/
// Power Limit", "Pending Page Retirement"), plus the words nvidia-smi prints instead of values.
constexpr std::string_view kOldDriverText = R"(
==============NVSMI LOG==============

Timestamp                           : Mon Jan  7 10:00:00 2019
Driver Version                      : 418.67
CUDA Version                        : 10.1

Attached GPUs                       : 1
GPU 00000000:3B:00.0
    Product Name                    : Tesla T4
    Serial Number                   : [N/A]
    GPU UUID                        : GPU-00000000-1111-2222-3333-444444444444
    VBIOS Version                   : 90.04.38.00.03
    Board Part Number               : Requested functionality has been deprecated
    PCI
        Bus Id                      : 00000000:3B:00.0
        GPU Link Info
            PCIe Generation
                Max                 : 3
                Current             : 1
            Link Width
                Max                 : 16x
                Current             : 8x
    Clocks Throttle Reasons
        Idle                        : Not Active
        Applications Clocks Setting : Not Active
        SW Power Cap                : Active
        HW Slowdown                 : Active
            HW Thermal Slowdown     : Active
            HW Power Brake Slowdown : Not Active
    FB Memory Usage
        Total                       : 15079 MiB
    Retired Pages
        Single Bit ECC              : 2
        Double Bit ECC              : 0
        Pending Page Retirement     : Yes
    Power Readings
        Power Limit                 : 70.00 W
    Max Clocks
        SM                          : Unknown Error
        Memory                      : Not Supported
    Processes                       : None
)";

TEST(SmiQueryForms, OldDriverTextKeysAndAbsenceWords) {
  const auto result = parse_smi_query_text(kOldDriverText, "t4.txt");
  ASSERT_TRUE(result.ok()) << result.error().message;
  ASSERT_EQ(result->gpus.size(), 1u);
  const core::Gpu& gpu = result->gpus[0];
  EXPECT_EQ(gpu.name.value_or(""), "Tesla T4");
  EXPECT_EQ(gpu.serial.reason(), "[N/A]");
  EXPECT_EQ(gpu.board_part_number.reason(), "Requested functionality has been deprecated");
  EXPECT_EQ(gpu.pci_bus_id.value_or(""), "0000:3b:00.0");
  EXPECT_EQ(gpu.pcie.gen_current.value_or(-1), 1);
  EXPECT_EQ(gpu.pcie.gen_max.value_or(-1), 3);
  EXPECT_EQ(gpu.pcie.width_current.value_or(-1), 8);
  EXPECT_EQ(gpu.idle.value_or(true), false);
  const std::vector<std::string> reasons = {"SW Power Cap", "HW Slowdown", "HW Thermal Slowdown"};
  EXPECT_EQ(gpu.clocks_event_reasons.value_or({}), reasons);
  EXPECT_EQ(gpu.memory_total_mib.value_or(0), 15079u);
  EXPECT_EQ(gpu.memory_health.retired_pages_sbe.value_or(-1), 2);
  EXPECT_EQ(gpu.memory_health.retired_pages_pending.value_or(false), true);
  EXPECT_EQ(gpu.memory_health.remapped_rows_correctable.reason(), "not in this nvidia-smi -q output");
  EXPECT_DOUBLE_EQ(gpu.power_limit_w.value_or(0), 70.0);
  EXPECT_EQ(gpu.max_sm_clock_mhz.reason(), "Unknown Error");
  EXPECT_EQ(gpu.max_mem_clock_mhz.reason(), "Not Supported");
  EXPECT_EQ(gpu.mig_enabled.reason(), "not in this nvidia-smi -q output");
  EXPECT_EQ(gpu.fabric_state.reason(), "not in this nvidia-smi -q output");
  EXPECT_EQ(result->driver_version.value_or(""), "418.67");
}

// Synthetic: the XML names of the same older layout.
constexpr std::string_view kOldDriverXml = R"(<?xml version="1.0" ?>
<!DOCTYPE nvidia_smi_log SYSTEM "nvsmi_device_v10.dtd">
<nvidia_smi_log>
  <driver_version>418.67</driver_version>
  <attached_gpus>1</attached_gpus>
  <gpu id="00000000:3B:00.0">
    <product_name>Tesla T4</product_name>
    <fb_memory_usage><total>15079 MiB</total></fb_memory_usage>
    <clocks_throttle_reasons>
      <clocks_throttle_reason_gpu_idle>Active</clocks_throttle_reason_gpu_idle>
      <clocks_throttle_reason_sw_power_cap>Not Active</clocks_throttle_reason_sw_power_cap>
      <clocks_throttle_reason_hw_slowdown>Active</clocks_throttle_reason_hw_slowdown>
    </clocks_throttle_reasons>
    <power_readings><power_limit>70.00 W</power_limit></power_readings>
    <retired_pages>
      <multiple_single_bit_retirement><retired_count>0</retired_count></multiple_single_bit_retirement>
      <pending_retirement>No</pending_retirement>
    </retired_pages>
  </gpu>
</nvidia_smi_log>
)";

TEST(SmiQueryForms, OldDriverXmlNames) {
  const auto result = parse_smi_query_xml(kOldDriverXml, "t4.xml");
  ASSERT_TRUE(result.ok()) << result.error().message;
  ASSERT_EQ(result->gpus.size(), 1u);
  const core::Gpu& gpu = result->gpus[0];
  EXPECT_EQ(gpu.pci_bus_id.value_or(""), "0000:3b:00.0");  // from the id attribute
  EXPECT_EQ(gpu.idle.value_or(false), true);
  EXPECT_EQ(gpu.clocks_event_reasons.value_or({}), std::vector<std::string>{"HW Slowdown"});
  EXPECT_DOUBLE_EQ(gpu.power_limit_w.value_or(0), 70.0);
  EXPECT_EQ(gpu.memory_health.retired_pages_sbe.value_or(-1), 0);
  EXPECT_EQ(gpu.memory_health.retired_pages_pending.value_or(true), false);
  EXPECT_EQ(result->cuda_version.reason(), "not in this nvidia-smi -q output");
  EXPECT_TRUE(result->notes.empty());
}

// The same capture pasted with CRLF line ends, ANSI colour codes or a uniform extra indent parses
// to the same machine.
TEST(SmiQueryForms, CrlfAnsiAndIndentedPastesParseTheSame) {
  const std::string name = "smi-q/8x-h100-sxm5-80gb-hgx-nvidia-smi-q.txt";
  const std::string plain = read_fixture(name);
  std::string crlf_ansi, indented;
  for (char c : plain) {
    if (c == '\n') crlf_ansi += "\x1b[0m\r\n";
    else crlf_ansi += c;
  }
  std::size_t start = 0;
  while (start < plain.size()) {
    const auto end = plain.find('\n', start);
    indented += "  " + plain.substr(start, end == std::string::npos ? std::string::npos : end - start + 1);
    if (end == std::string::npos) break;
    start = end + 1;
  }
  const auto want = parse_smi_query_text(plain, name);
  ASSERT_TRUE(want.ok()) << want.error().message;
  for (const auto& variant : {crlf_ansi, indented}) {
    const auto got = parse_smi_query_text(variant, name);
    ASSERT_TRUE(got.ok()) << got.error().message;
    ASSERT_EQ(got->gpus.size(), want->gpus.size());
    EXPECT_EQ(got->driver_version, want->driver_version);
    for (std::size_t i = 0; i < got->gpus.size(); ++i) {
      EXPECT_EQ(got->gpus[i].pci_bus_id, want->gpus[i].pci_bus_id);
      EXPECT_EQ(got->gpus[i].memory_total_mib, want->gpus[i].memory_total_mib);
      EXPECT_EQ(got->gpus[i].fabric_state, want->gpus[i].fabric_state);
      EXPECT_EQ(got->gpus[i].clocks_event_reasons, want->gpus[i].clocks_event_reasons);
    }
  }
}

TEST(SmiQueryForms, FieldTableHasBothPathsForEveryField) {
  const auto table = smi_query::field_table();
  EXPECT_GE(table.size(), 28u);
  std::set<std::string> names;
  for (const auto& row : table) {
    EXPECT_TRUE(names.insert(row.field).second) << row.field;
    EXPECT_FALSE(row.text_path.empty()) << row.field;
    EXPECT_FALSE(row.xml_path.empty()) << row.field;
  }
}

TEST(SmiQueryForms, AbsenceWordsAreRecognised) {
  for (const char* word : {"N/A", "[N/A]", "Unknown Error", "Not Supported", "[Not Supported]",
                           "Requested functionality has been deprecated", "Insufficient Permissions", ""}) {
    EXPECT_TRUE(smi_query::is_absence_text(word)) << word;
  }
  for (const char* value : {"0", "81559 MiB", "Enabled", "No", "Completed"}) {
    EXPECT_FALSE(smi_query::is_absence_text(value)) << value;
  }
}

}  // namespace
}  // namespace gpuvet::parsers::test
