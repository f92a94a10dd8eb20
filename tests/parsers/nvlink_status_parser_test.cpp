// nvidia-smi nvlink -s (and -gt d) parser over the real captures in tests/fixtures/nvlink,
// plus inline variants and malformed inputs.
#include "parsers/nvlink_status_parser.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "topo_test_fixtures.hpp"

namespace gpuvet::parsers {
namespace {

using testing::fixture_files;
using testing::read_fixture;
using testing::truth;

core::Machine parse_fixture(const std::string& file) {
  auto r = parse_nvlink_status(read_fixture("nvlink/" + file), file);
  EXPECT_TRUE(r.ok()) << file << ": " << (r.ok() ? "" : r.error().message);
  return r.ok() ? r.value() : core::Machine{};
}

bool any_note_contains(const core::Machine& m, const std::string& text) {
  for (const auto& n : m.notes) {
    if (n.find(text) != std::string::npos) return true;
  }
  return false;
}

TEST(NvlinkStatusParser, EveryFixtureMatchesTruthGpuAndLinkCounts) {
  const auto files = fixture_files("nvlink");
  ASSERT_EQ(files.size(), 4u);
  for (const auto& path : files) {
    SCOPED_TRACE(path);
    const auto file = path.substr(std::string("nvlink/").size());
    const auto m = parse_fixture(file);
    const auto& t = truth().at(path);
    ASSERT_EQ(m.gpus.size(), t.at("gpus").get<size_t>());
    EXPECT_FALSE(m.attached_gpus.known());
    EXPECT_FALSE(m.links.known());
    for (const auto& g : m.gpus) {
      ASSERT_TRUE(g.name.known());
      EXPECT_NE(g.name->find(t.at("model").get<std::string>()), std::string::npos) << *g.name;
      ASSERT_TRUE(g.uuid.known());
      EXPECT_EQ(g.uuid->rfind("GPU-", 0), 0u) << *g.uuid;
      ASSERT_TRUE(g.nvlinks.known()) << g.nvlinks.reason();
      if (g.nvlinks->empty()) continue;  // the A6000 file's unbridged GPU2
      EXPECT_EQ(g.nvlinks->size(), t.at("links_per_gpu").get<size_t>()) << "GPU " << g.index;
      for (size_t l = 0; l < g.nvlinks->size(); ++l) EXPECT_EQ((*g.nvlinks)[l].link, static_cast<int>(l));
    }
  }
}

TEST(NvlinkStatusParser, A6000BridgedPairAndInactiveGpu2) {
  const auto m = parse_fixture("3x-rtx-a6000-nvlink-s-bridged-pair-one-inactive.txt");
  ASSERT_EQ(m.gpus.size(), 3u);
  EXPECT_EQ(m.source, "nvidia-smi nvlink -s (3x-rtx-a6000-nvlink-s-bridged-pair-one-inactive.txt)");
  EXPECT_EQ(*m.gpus[0].name, "NVIDIA RTX A6000");
  EXPECT_EQ(*m.gpus[1].uuid, "GPU-39fc2446-cb50-2067-2867-d95efd470a2c");
  for (int g = 0; g < 2; ++g) {
    ASSERT_EQ(m.gpus[static_cast<size_t>(g)].nvlinks->size(), 4u);
    for (const auto& p : *m.gpus[static_cast<size_t>(g)].nvlinks) {
      EXPECT_EQ(p.active, core::Reading<bool>(true));
      EXPECT_DOUBLE_EQ(*p.speed_gbps, 14.062);
      EXPECT_EQ(p.version.reason(), "not in nvidia-smi nvlink -s");
    }
  }
  EXPECT_EQ(m.gpus[2].index, 2);
  ASSERT_TRUE(m.gpus[2].nvlinks.known());
  EXPECT_TRUE(m.gpus[2].nvlinks->empty());
  EXPECT_TRUE(any_note_contains(m, "GPU 2: all NVLinks inactive"));
}

TEST(NvlinkStatusParser, H800ElisionNoteAndSpeeds) {
  const auto m = parse_fixture("8x-h800-nvlink-status-8links-gpus2-6-elided.txt");
  ASSERT_EQ(m.gpus.size(), 3u);
  EXPECT_EQ(m.gpus[0].index, 0);
  EXPECT_EQ(m.gpus[1].index, 1);
  EXPECT_EQ(m.gpus[2].index, 7);
  ASSERT_EQ(m.notes.size(), 1u);
  EXPECT_EQ(m.notes[0], "GPUs 2-6 elided in input (\"...\" on line 19)");
  EXPECT_FALSE(m.attached_gpus.known());
  for (const auto& g : m.gpus) {
    for (const auto& p : *g.nvlinks) {
      EXPECT_EQ(p.active, core::Reading<bool>(true));
      EXPECT_DOUBLE_EQ(*p.speed_gbps, 26.562);
    }
  }
}

TEST(NvlinkStatusParser, ThroughputCountersListActivePortsWithoutSpeed) {
  for (const char* file : {"h800-gpu0-nvlink-gt-d-idle.txt", "h800-gpu0-nvlink-gt-d-during-training.txt"}) {
    SCOPED_TRACE(file);
    const auto m = parse_fixture(file);
    ASSERT_EQ(m.gpus.size(), 1u);
    EXPECT_EQ(m.source, std::string("nvidia-smi nvlink -gt d (") + file + ")");
    EXPECT_TRUE(any_note_contains(m, "traffic counters"));
    ASSERT_EQ(m.gpus[0].nvlinks->size(), 8u);
    for (const auto& p : *m.gpus[0].nvlinks) {
      EXPECT_EQ(p.active, core::Reading<bool>(true));
      EXPECT_FALSE(p.speed_gbps.known());
    }
  }
}

TEST(NvlinkStatusParser, InactiveLinkSpacesAndTextAround) {
  const auto r = parse_nvlink_status("$ nvidia-smi nvlink -s\r\nGPU 0: NVIDIA A100-SXM4-80GB (UUID: GPU-1)\r\n    Link 0: 25 GB/s\r\n"
                                     "    Link 1: <inactive>\r\n$ exit\r\n",
                                     "s.txt");
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ(r->gpus.size(), 1u);
  const auto& ports = *r->gpus[0].nvlinks;
  ASSERT_EQ(ports.size(), 2u);
  EXPECT_DOUBLE_EQ(*ports[0].speed_gbps, 25.0);
  EXPECT_EQ(ports[1].active, core::Reading<bool>(false));
  EXPECT_EQ(ports[1].speed_gbps.reason(), "link inactive");
  EXPECT_TRUE(r->notes.empty());
}

TEST(NvlinkStatusParser, GpuWithoutLinkLinesHasAbsentNvlinks) {
  const auto r = parse_nvlink_status("GPU 0: NVIDIA GeForce RTX 4090 (UUID: GPU-2)\nGPU 1: NVIDIA GeForce RTX 4090 (UUID: GPU-3)\n", "s.txt");
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ(r->gpus.size(), 2u);
  EXPECT_FALSE(r->gpus[1].nvlinks.known());
}

struct BadCase {
  const char* name;
  std::string text;
  std::string want;
};

TEST(NvlinkStatusParser, MalformedInputsNameFileAndLine) {
  const std::vector<BadCase> cases = {
      {"bad speed", read_fixture("malformed/nvlink-bad-speed.txt"),
       "n.txt: line 3: expected \"<speed> GB/s\" or \"<inactive>\" after Link 1 of GPU 0, found \"fast\""},
      {"GPUs out of order", read_fixture("malformed/nvlink-gpus-out-of-order.txt"),
       "n.txt: line 3: GPU 0 after GPU 1; nvidia-smi lists GPUs in index order"},
      {"empty", "", "n.txt: line 1: reached the end of the input without a \"GPU N: NAME (UUID: ...)\" line of nvidia-smi nvlink -s"},
      {"link before GPU", "\t Link 0: 26.562 GB/s\n", "n.txt: line 1: \"Link\" line before any \"GPU N: NAME (UUID: ...)\" line"},
      {"duplicate link", "GPU 0: X (UUID: GPU-1)\n Link 0: 1 GB/s\n Link 0: 1 GB/s\n", "n.txt: line 3: Link 0 of GPU 0 appears twice"},
      {"bad link number", "GPU 0: X (UUID: GPU-1)\n Link x: 1 GB/s\n", "n.txt: line 2: expected \"Link <number>: ...\", found \"Link x: 1 GB/s\""},
      {"stray line between GPUs", "GPU 0: X (UUID: GPU-1)\n Link 0: 1 GB/s\nhello\nGPU 1: X (UUID: GPU-2)\n",
       "n.txt: line 3: expected \"Link L: ...\", \"GPU N: ...\" or \"NVML: ...\", found \"hello\""},
      {"bad counter", "GPU 0: X (UUID: GPU-1)\n Link 0: Data Tx: lots KiB\n",
       "n.txt: line 2: expected a counter after Data Tx: on Link 0 of GPU 0, found \"Data Tx: lots KiB\""},
      {"binary garbage", std::string("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16),
       "n.txt: line 3: reached the end of the input without a \"GPU N: NAME (UUID: ...)\" line of nvidia-smi nvlink -s"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    const auto r = parse_nvlink_status(c.text, "n.txt");
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().kind, core::ErrorKind::bad_input);
    EXPECT_EQ(r.error().message, c.want);
  }
}

}  // namespace
}  // namespace gpuvet::parsers
