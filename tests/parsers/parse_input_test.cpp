// parse_input: dispatch over every real capture, the unknown-format error, and a fuzz-ish
// pass (every line prefix, mid-line cuts, seeded byte mutations) that must never crash.
#include "parsers/parse_input.hpp"

#include "parsers/machine_merge.hpp"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "topo_test_fixtures.hpp"

namespace gpuvet::parsers {
namespace {

using testing::fixture_files;
using testing::read_fixture;
using testing::truth;

std::vector<std::string> all_fixtures() {
  std::vector<std::string> out;
  for (const char* dir : {"topo", "nvlink", "smi-q", "malformed"}) {
    for (auto& f : fixture_files(dir)) out.push_back(std::move(f));
  }
  return out;
}

// What any parser result must satisfy: an Error that names the file, or a consistent Machine.
void expect_sane(const core::Result<core::Machine>& r, const std::string& file, const std::string& what) {
  if (!r.ok()) {
    EXPECT_NE(r.error().message.find(file), std::string::npos) << what << ": " << r.error().message;
    return;
  }
  const auto& m = r.value();
  for (size_t i = 1; i < m.gpus.size(); ++i) EXPECT_LT(m.gpus[i - 1].index, m.gpus[i].index) << what;
  if (m.links.known()) {
    EXPECT_EQ(m.links->size(), static_cast<int>(m.gpus.size())) << what;
  }
  if (m.nics.known()) {
    for (const auto& nic : *m.nics) {
      if (nic.gpu_proximity.known()) {
        EXPECT_EQ(nic.gpu_proximity->size(), m.gpus.size()) << what;
      }
    }
  }
}

TEST(ParseInput, DispatchesEveryRealCaptureToItsParser) {
  int seen = 0;
  for (const char* dir : {"topo", "nvlink", "smi-q"}) {
    for (const auto& path : fixture_files(dir)) {
      SCOPED_TRACE(path);
      const auto r = parse_input(read_fixture(path), "in.txt");
      ASSERT_TRUE(r.ok()) << r.error().message;
      EXPECT_EQ(r->gpus.size(), truth().at(path).at("gpus").get<size_t>());
      EXPECT_NE(r->source.find("in.txt"), std::string::npos) << r->source;
      ++seen;
    }
  }
  EXPECT_EQ(seen, 25);
}

TEST(ParseInput, UnknownFormatIsAnInputError) {
  for (const std::string& text : {std::string(), std::string("hello\n"), std::string("\0\x01\x02", 3)}) {
    const auto r = parse_input(text, "x.log");
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().kind, core::ErrorKind::bad_input);
    EXPECT_EQ(r.error().message,
              "x.log: not a recognised format (expected nvidia-smi topo -m, nvidia-smi -q, nvidia-smi -q -x or nvidia-smi nvlink -s output)");
  }
}

TEST(ParseInput, MalformedTopoReachesTheTopoParser) {
  const auto r = parse_input(read_fixture("malformed/topo-unknown-cell.txt"), "t.txt");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, "t.txt: line 3: unknown link type \"NVX\" in column GPU2 of row GPU1");
}

TEST(ParseInput, QueryPlusTopoOfTheA100HostMergeIntoOnePicture) {
  const auto q = parse_input(read_fixture("smi-q/8x-a100-sxm4-40gb-nvidia-smi-a.txt"), "q.txt");
  const auto t = parse_input(read_fixture("topo/8x-a100-sxm4-40gb-nv12-17nic-1numa.txt"), "topo.txt");
  ASSERT_TRUE(q.ok()) << q.error().message;
  ASSERT_TRUE(t.ok()) << t.error().message;
  const auto r = merge_machines({q.value(), t.value()});
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ(r->gpus.size(), 8u);
  EXPECT_NE(r->source.find(" + nvidia-smi topo -m (topo.txt)"), std::string::npos) << r->source;
  for (const auto& g : r->gpus) {
    EXPECT_EQ(g.name, core::Reading<std::string>(std::string("NVIDIA A100-SXM4-40GB")));
    EXPECT_EQ(g.vbios, core::Reading<std::string>(std::string("92.00.36.00.04")));
    EXPECT_EQ(g.cpu_affinity, core::Reading<std::string>(std::string("0-103")));
  }
  ASSERT_TRUE(r->links.known());
  EXPECT_EQ(r->links->at(2, 5), (core::Link{core::LinkKind::nvlink, 12}));
  ASSERT_TRUE(r->nics.known());
  EXPECT_EQ(r->nics->size(), 17u);
}

// Cut points: every line start and the middle of every line; for long files (nvidia-smi -q,
// thousands of lines) about 25 evenly spaced lines, to keep the test fast in Debug builds.
std::vector<size_t> cut_points(const std::string& text) {
  std::vector<size_t> starts{0};
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n') starts.push_back(i + 1);
  }
  const size_t step = starts.size() > 300 ? starts.size() / 25 : 1;
  std::vector<size_t> out;
  for (size_t i = 0; i < starts.size(); i += step) {
    out.push_back(starts[i]);
    if (i + 1 < starts.size()) out.push_back((starts[i] + starts[i + 1]) / 2);
  }
  out.push_back(text.size());
  return out;
}

TEST(ParseInput, EveryPrefixOfEveryFixtureGivesAMachineOrAnError) {
  for (const auto& path : all_fixtures()) {
    const auto text = read_fixture(path);
    for (const size_t cut : cut_points(text)) {
      const auto what = path + " cut at byte " + std::to_string(cut);
      EXPECT_NO_THROW(expect_sane(parse_input(std::string_view(text).substr(0, cut), "p.txt"), "p.txt", what)) << what;
    }
  }
}

TEST(ParseInput, SeededByteMutationsNeverCrash) {
  std::mt19937 rng(20240607);  // fixed seed: the same mutations on every run
  const char alphabet[] = {'\t', ' ', '\n', '\r', 'X', 'N', 'V', '0', '9', '-', ':', '.', '<', '>', '\0', '\x1b', '\xff'};
  for (const char* dir : {"topo", "nvlink"}) {
    for (const auto& path : fixture_files(dir)) {
      const auto original = read_fixture(path);
      for (int round = 0; round < 150; ++round) {
        auto text = original;
        const int edits = 1 + static_cast<int>(rng() % 3);
        for (int e = 0; e < edits && !text.empty(); ++e) {
          text[rng() % text.size()] = alphabet[rng() % sizeof(alphabet)];
        }
        const auto what = path + " mutation round " + std::to_string(round);
        EXPECT_NO_THROW(expect_sane(parse_input(text, "m.txt"), "m.txt", what)) << what;
      }
    }
  }
}

}  // namespace
}  // namespace gpuvet::parsers
