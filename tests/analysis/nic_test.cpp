#include <gtest/gtest.h>

#include "test_machines.hpp"

using namespace gpuvet;
using namespace gpuvet::analysis::testing;

TEST(NicDown, PortNotActiveIsAWarningNamingTheNic) {
  auto m = machine(8, kH100);
  m.nics = std::vector<core::Nic>{nic("NIC0", "ACTIVE", 400), nic("NIC1", "DOWN", 400), nic("NIC2", "ACTIVE", 400)};
  const auto f = with_code(judge(m), "nic_down");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, core::Severity::warn);
  EXPECT_NE(f[0].message.find("mlx5_1"), std::string::npos) << f[0].message;
  EXPECT_NE(f[0].message.find("DOWN"), std::string::npos) << f[0].message;
}

TEST(NicDown, SlowerPortThanItsSiblingsIsFlagged) {
  auto m = machine(8, kH100);
  m.nics = std::vector<core::Nic>{nic("NIC0", "ACTIVE", 400), nic("NIC1", "ACTIVE", 200)};
  const auto f = with_code(judge(m), "nic_down");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_NE(f[0].message.find("200 Gb/s"), std::string::npos) << f[0].message;
}

TEST(NicDown, UnknownStateFromTopoIsNotJudged) {
  auto m = machine(8, kH100);
  core::Nic from_topo;
  from_topo.label = "NIC0";
  from_topo.name = std::string("mlx5_0");
  m.nics = std::vector<core::Nic>{from_topo};
  EXPECT_TRUE(with_code(judge(m), "nic_down").empty());
}
