// Unit tests of the NVML value mappings and the symbol table (no library involved).
#include <gtest/gtest.h>

#include <set>

#include "backends/nvml/nvml_convert.hpp"
#include "backends/nvml/nvml_library.hpp"

namespace gpuvet::nvml {
namespace {

TEST(NvmlConvert, CpulistFromMask) {
  struct Case {
    std::vector<unsigned long> words;
    std::string expected;
  };
  const std::vector<Case> cases = {
      {{}, ""},
      {{0}, ""},
      {{0x1}, "0"},
      {{0xFFFFFFFFul}, "0-31"},
      {{0xFFFFFFFFul, 0xFFFFFFFFul}, "0-31,64-95"},
      {{0x5}, "0,2"},
      {{0x8000000000000000ul, 0x1}, "63-64"},
      {{~0ul, ~0ul}, "0-127"},
      {{0x0, 0x0, 0x6}, "129-130"},
  };
  for (const auto& c : cases) EXPECT_EQ(cpulist_from_mask(c.words), c.expected);
}

TEST(NvmlConvert, LowestSetBit) {
  EXPECT_EQ(lowest_set_bit({}), std::nullopt);
  EXPECT_EQ(lowest_set_bit({0, 0}), std::nullopt);
  EXPECT_EQ(lowest_set_bit({0x1}), 0);
  EXPECT_EQ(lowest_set_bit({0x6}), 1);
  EXPECT_EQ(lowest_set_bit({0, 0x2}), 65);
}

TEST(NvmlConvert, NvLinkVersionCodesAreNotMarketingVersions) {
  const std::vector<std::pair<unsigned, std::optional<int>>> cases = {
      {0, std::nullopt}, {1, 1}, {2, 2}, {3, 2}, {4, 3}, {5, 3}, {6, 4}, {7, 5}, {8, 6}, {9, std::nullopt}};
  for (const auto& [code, generation] : cases) EXPECT_EQ(nvlink_generation_from_code(code), generation) << code;
}

TEST(NvmlConvert, ArchitectureNames) {
  EXPECT_EQ(architecture_name(5), "Volta");
  EXPECT_EQ(architecture_name(7), "Ampere");
  EXPECT_EQ(architecture_name(8), "Ada Lovelace");
  EXPECT_EQ(architecture_name(9), "Hopper");
  EXPECT_EQ(architecture_name(10), "Blackwell");
  EXPECT_EQ(architecture_name(kArchUnknown), std::nullopt);
  EXPECT_EQ(architecture_name(11), std::nullopt);
}

TEST(NvmlConvert, ClocksEventReasonsInNvidiaSmiOrderWithoutIdle) {
  EXPECT_TRUE(clocks_event_reason_names(0).empty());
  EXPECT_TRUE(clocks_event_reason_names(kReasonGpuIdle).empty());
  EXPECT_EQ(clocks_event_reason_names(0x1 | 0x4), std::vector<std::string>{"SW Power Cap"});
  EXPECT_EQ(clocks_event_reason_names(0x1FE),
            (std::vector<std::string>{"Applications Clocks Setting", "SW Power Cap", "HW Slowdown",
                                      "HW Thermal Slowdown", "HW Power Brake Slowdown", "Sync Boost",
                                      "SW Thermal Slowdown", "Display Clock Setting"}));
  EXPECT_TRUE(clocks_event_reason_names(0x10000).empty());  // bits this build does not know
}

TEST(NvmlConvert, TopologyLevels) {
  EXPECT_EQ(link_kind_from_topology(0), core::LinkKind::pix);
  EXPECT_EQ(link_kind_from_topology(10), core::LinkKind::pix);
  EXPECT_EQ(link_kind_from_topology(20), core::LinkKind::pxb);
  EXPECT_EQ(link_kind_from_topology(30), core::LinkKind::phb);
  EXPECT_EQ(link_kind_from_topology(40), core::LinkKind::node);
  EXPECT_EQ(link_kind_from_topology(50), core::LinkKind::sys);
  EXPECT_EQ(link_kind_from_topology(15), std::nullopt);
}

TEST(NvmlConvert, CudaVersionAndVirtualization) {
  EXPECT_EQ(cuda_version_string(12070), "12.7");
  EXPECT_EQ(cuda_version_string(11080), "11.8");
  EXPECT_EQ(cuda_version_string(13000), "13.0");
  EXPECT_EQ(virtualization_mode_name(0), "None");
  EXPECT_EQ(virtualization_mode_name(1), "Pass-Through");
  EXPECT_EQ(virtualization_mode_name(7), std::nullopt);
}

TEST(NvmlConvert, BoundedStringStopsAtNulOrSize) {
  const char full[4] = {'a', 'b', 'c', 'd'};
  EXPECT_EQ(bounded_string(full, sizeof full), "abcd");
  const char shorter[6] = "ab\0cd";
  EXPECT_EQ(bounded_string(shorter, sizeof shorter), "ab");
}

TEST(NvmlLibrary, ReturnCodeNames) {
  EXPECT_EQ(return_code_name(0), "NVML_SUCCESS");
  EXPECT_EQ(return_code_name(3), "NVML_ERROR_NOT_SUPPORTED");
  EXPECT_EQ(return_code_name(9), "NVML_ERROR_DRIVER_NOT_LOADED");
  EXPECT_EQ(return_code_name(15), "NVML_ERROR_GPU_IS_LOST");
  EXPECT_EQ(return_code_name(30), "NVML_ERROR_RESET_TYPE_NOT_SUPPORTED");
  EXPECT_EQ(return_code_name(999), "NVML_ERROR_UNKNOWN");
  EXPECT_EQ(return_code_name(31), "NVML return code 31");
  EXPECT_EQ(return_code_name(-1), "NVML return code -1");
}

TEST(NvmlLibrary, SymbolTablePrefersVersionedNamesAndMarksRequired) {
  std::set<std::string_view> required;
  for (const auto& info : symbol_table()) {
    ASSERT_FALSE(info.names.empty());
    if (info.required) required.insert(info.names.front());
  }
  EXPECT_EQ(required, (std::set<std::string_view>{"nvmlInit_v2", "nvmlShutdown", "nvmlDeviceGetCount_v2",
                                                   "nvmlDeviceGetHandleByIndex_v2"}));
  const auto& pci = symbol_table()[static_cast<size_t>(Symbol::device_get_pci_info)];
  EXPECT_EQ(pci.names, (std::vector<std::string_view>{"nvmlDeviceGetPciInfo_v3", "nvmlDeviceGetPciInfo_v2",
                                                      "nvmlDeviceGetPciInfo"}));
}

}  // namespace
}  // namespace gpuvet::nvml
