#include "core/topology.hpp"

#include <gtest/gtest.h>

using namespace gpuvet::core;

TEST(Link, ParsesEveryTopoCell) {
  EXPECT_EQ(parse_link("X")->kind, LinkKind::self);
  EXPECT_EQ(parse_link("NV18")->nvlink_count, 18);
  EXPECT_EQ(parse_link("NV4")->kind, LinkKind::nvlink);
  EXPECT_EQ(parse_link("PIX")->kind, LinkKind::pix);
  EXPECT_EQ(parse_link("PXB")->kind, LinkKind::pxb);
  EXPECT_EQ(parse_link("PHB")->kind, LinkKind::phb);
  EXPECT_EQ(parse_link("NODE")->kind, LinkKind::node);
  EXPECT_EQ(parse_link("SYS")->kind, LinkKind::sys);
  EXPECT_EQ(parse_link("SOC")->kind, LinkKind::sys);
}

TEST(Link, RejectsGarbage) {
  EXPECT_FALSE(parse_link("NV"));
  EXPECT_FALSE(parse_link("NV0"));
  EXPECT_FALSE(parse_link("NVx"));
  EXPECT_FALSE(parse_link("N/A"));
  EXPECT_FALSE(parse_link(""));
}

TEST(Link, RoundTrips) {
  for (const char* cell : {"X", "NV12", "PIX", "PXB", "PHB", "NODE", "SYS"}) {
    EXPECT_EQ(to_string(*parse_link(cell)), cell);
  }
}

TEST(LinkMatrix, DiagonalIsSelfAndRemovalKeepsOrder) {
  LinkMatrix m(3);
  m.set_symmetric(0, 1, Link{LinkKind::nvlink, 4});
  m.set_symmetric(0, 2, Link{LinkKind::node, 0});
  m.set_symmetric(1, 2, Link{LinkKind::sys, 0});
  EXPECT_EQ(m.at(2, 2).kind, LinkKind::self);
  const auto smaller = m.without(0);
  ASSERT_EQ(smaller.size(), 2);
  EXPECT_EQ(smaller.at(0, 1).kind, LinkKind::sys);
  EXPECT_THROW((void)m.at(3, 0), std::out_of_range);
}
