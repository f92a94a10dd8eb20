// nvidia-smi nvlink -s cut short: a cut header, a cut Link line, a last GPU with fewer links or
// none. Each is said in a note, missing ports have an unknown state, and no name is invented.
#include <gtest/gtest.h>

#include <string>

#include "parsers/nvlink_status_parser.hpp"
#include "topo_test_fixtures.hpp"

namespace gpuvet::parsers {
namespace {

using testing::read_fixture;

// The first `n` lines of the 8x H800 fixture (GPUs 0, 1, "...", then GPU 7 on line 20).
std::string first_lines(int n) {
  const auto all = read_fixture("nvlink/8x-h800-nvlink-status-8links-gpus2-6-elided.txt");
  size_t at = 0;
  for (int i = 0; i < n; ++i) at = all.find('\n', at) + 1;
  return all.substr(0, at);
}

core::Machine parse_ok(const std::string& text) {
  auto r = parse_nvlink_status(text, "n.txt");
  EXPECT_TRUE(r.ok()) << r.error().message;
  return r.ok() ? std::move(r).value() : core::Machine{};
}

const core::NvLinkPort* port(const core::Gpu& g, int link) {
  for (const auto& p : *g.nvlinks) {
    if (p.link == link) return &p;
  }
  return nullptr;
}

TEST(NvlinkStatusTruncation, CutHeaderLeavesTheNameUnknown) {
  const auto m = parse_ok(first_lines(19) + "GPU 7: NVIDIA H8");
  ASSERT_EQ(m.gpus.size(), 3u);
  const auto& g7 = m.gpus.back();
  EXPECT_FALSE(g7.name.known());  // not "NVIDIA H8": that would read as a mixed inventory
  EXPECT_FALSE(g7.uuid.known());
  EXPECT_FALSE(g7.nvlinks.known());
  EXPECT_EQ(m.notes.back(), "n.txt: line 20: the input ends inside the header of GPU 7 (\"GPU 7: NVIDIA H8\"); its name and UUID are unknown");
}

TEST(NvlinkStatusTruncation, CutUuidKeepsTheWholeName) {
  const auto m = parse_ok(first_lines(19) + "GPU 7: NVIDIA H800 (UUID: GPU-474d8");
  EXPECT_EQ(*m.gpus.back().name, "NVIDIA H800");
  EXPECT_FALSE(m.gpus.back().uuid.known());
}

TEST(NvlinkStatusTruncation, LastGpuWithFewerLinksHasTheRestUnknown) {
  const auto m = parse_ok(first_lines(24));
  const auto& g7 = m.gpus.back();
  ASSERT_TRUE(g7.nvlinks.known());
  ASSERT_EQ(g7.nvlinks->size(), 8u);
  EXPECT_EQ(*port(g7, 3)->active, true);
  EXPECT_FALSE(port(g7, 4)->active.known());
  EXPECT_FALSE(port(g7, 7)->speed_gbps.known());
  EXPECT_EQ(m.notes.back(),
            "n.txt: GPU 7 lists 4 of the 8 NVLink ports GPU 0 lists: the input looks cut after line 24; links 4, 5, 6, 7 of "
            "GPU 7 are unknown, and GPUs after it may be missing");
}

TEST(NvlinkStatusTruncation, HeaderWithoutLinksAtTheEnd) {
  const auto m = parse_ok(first_lines(20));
  const auto& g7 = m.gpus.back();
  ASSERT_EQ(g7.nvlinks->size(), 8u);
  EXPECT_FALSE(port(g7, 0)->active.known());
  EXPECT_NE(m.notes.back().find("GPU 7 lists 0 of the 8 NVLink ports"), std::string::npos) << m.notes.back();
}

TEST(NvlinkStatusTruncation, CutLinkLinesAtTheEnd) {
  for (const std::string cut : {"         Link 3: 26.5", "         Link 3: 26.562 GB/", "         Link 3: <inact",
                                "         Link 3:", "         Lin", "         Link 3", "GPU 8"}) {
    SCOPED_TRACE(cut);
    const auto m = parse_ok(first_lines(23) + cut);
    ASSERT_GE(m.notes.size(), 2u);
    EXPECT_NE(m.notes[1].find("n.txt: line 24: the input ends in a cut line"), std::string::npos) << m.notes[1];
    const auto& g7 = m.gpus.back();
    EXPECT_FALSE(port(g7, 3)->active.known());
  }
}

TEST(NvlinkStatusTruncation, CompleteFilesGetNoCutNote) {
  for (const char* f : {"nvlink/8x-h800-nvlink-status-8links-gpus2-6-elided.txt", "nvlink/3x-rtx-a6000-nvlink-s-bridged-pair-one-inactive.txt",
                        "nvlink/h800-gpu0-nvlink-gt-d-idle.txt"}) {
    const auto m = parse_ok(read_fixture(f));
    for (const auto& n : m.notes) EXPECT_EQ(n.find("cut"), std::string::npos) << f << ": " << n;
  }
  // A bad value on the last line that is no prefix of a valid one is still an error.
  EXPECT_FALSE(parse_nvlink_status(first_lines(23) + "         Link 3: fast\n", "n.txt").ok());
}

// GPUs of different models list different port counts; only the same model is compared.
TEST(NvlinkStatusTruncation, ADifferentModelWithFewerPortsIsNotCut) {
  const auto m = parse_ok("GPU 0: Tesla V100-SXM2-32GB (UUID: GPU-1)\n Link 0: 25.781 GB/s\n Link 1: 25.781 GB/s\n"
                          "GPU 1: NVIDIA GeForce RTX 3090 (UUID: GPU-2)\n Link 0: 14.062 GB/s\n");
  EXPECT_TRUE(m.notes.empty());
  EXPECT_EQ(m.gpus.back().nvlinks->size(), 1u);
}

}  // namespace
}  // namespace gpuvet::parsers
