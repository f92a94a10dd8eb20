// p2pBandwidthLatencyTest parser over the three captured outputs (2x RTX 2080 Ti without P2P,
// 4x RTX 6000 Ada with P2P, a 6x RTX 4090 fragment) and malformed variants.
#include "parsers/p2p_test_parser.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "parsers/nvbandwidth_parser.hpp"
#include "topo_test_fixtures.hpp"

namespace gpuvet::parsers {
namespace {

using testing::fixture_files;
using testing::read_fixture;
using testing::truth;

constexpr const char* k2080 = "p2p/2x-rtx2080ti-pcie-no-p2p-autodl.txt";
constexpr const char* kAda = "p2p/4x-rtx6000ada-pcie-asus-esc8000a.txt";
constexpr const char* k4090 = "p2p/6x-rtx4090-pcie-p2p-patched-bidir-matrix-fragment.txt";

const std::vector<std::string> kAllKeys = {
    "p2p_unidirectional_p2p_disabled", "p2p_unidirectional_p2p_enabled", "p2p_bidirectional_p2p_disabled",
    "p2p_bidirectional_p2p_enabled",   "p2p_latency_gpu_p2p_disabled",   "p2p_latency_cpu_p2p_disabled",
    "p2p_latency_gpu_p2p_enabled",     "p2p_latency_cpu_p2p_enabled"};

core::BandwidthRun parse_ok(const std::string& relative) {
  auto r = parse_p2p_test(read_fixture(relative), relative);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
  return r.ok() ? std::move(r).value() : core::BandwidthRun{};
}

const core::BandwidthMatrix& at(const core::BandwidthRun& run, const std::string& key) {
  for (const auto& m : run.matrices) {
    if (m.testcase == key) return m;
  }
  static const core::BandwidthMatrix kNone;
  ADD_FAILURE() << "no matrix " << key;
  return kNone;
}

double cell(const core::BandwidthRun& run, const std::string& key, size_t r, size_t c) {
  const auto& m = at(run, key);
  if (r >= m.values.size() || c >= m.values[r].size() || !m.values[r][c].known()) {
    ADD_FAILURE() << key << " has no cell " << r << "," << c;
    return -1;
  }
  return *m.values[r][c];
}

std::vector<std::string> keys(const core::BandwidthRun& run) {
  std::vector<std::string> out;
  for (const auto& m : run.matrices) out.push_back(m.testcase);
  return out;
}

// Table over every fixture: what truth.json says, and the shape of what we read.
TEST(P2pFixtures, DevicesAccessAndMatrixShapesMatchTruth) {
  struct Want {
    const char* file;
    std::vector<std::string> keys;
    bool has_access;
  };
  const std::vector<Want> table = {{k2080, kAllKeys, true}, {kAda, kAllKeys, true}, {k4090, {"p2p_bidirectional_p2p_enabled"}, false}};
  ASSERT_EQ(fixture_files("p2p").size(), table.size());
  for (const auto& w : table) {
    SCOPED_TRACE(w.file);
    const auto run = parse_ok(w.file);
    const auto& t = truth().at(w.file);
    const auto n = t.at("gpus").get<size_t>();
    EXPECT_EQ(run.tool, "p2pBandwidthLatencyTest");
    EXPECT_FALSE(run.tool_version.known());
    EXPECT_EQ(keys(run), w.keys);
    if (w.has_access) {
      ASSERT_EQ(run.device_names.size(), n);
      for (const auto& name : run.device_names) EXPECT_EQ(name, "NVIDIA " + t.at("model").get<std::string>());
      ASSERT_TRUE(run.p2p_access.known());
      for (size_t i = 0; i < n; ++i) {
        for (size_t j = 0; j < n; ++j) EXPECT_EQ((*run.p2p_access)[i][j], i == j || t.at("p2p_enabled").get<bool>()) << i << "," << j;
      }
    } else {
      EXPECT_TRUE(run.device_names.empty());
      EXPECT_FALSE(run.p2p_access.known());
    }
    for (const auto& m : run.matrices) {
      SCOPED_TRACE(m.testcase);
      EXPECT_EQ(m.unit, m.testcase.find("latency") != std::string::npos ? "us" : "GB/s");
      EXPECT_FALSE(m.printed_sum.known());
      ASSERT_EQ(m.values.size(), n);
      for (const auto& row : m.values) {
        ASSERT_EQ(row.size(), n);
        for (const auto& c : row) EXPECT_TRUE(c.known());
      }
    }
    EXPECT_TRUE(run.notes.empty());
  }
}

TEST(P2pFixtures, Rtx2080TiWithoutP2p) {
  const auto run = parse_ok(k2080);
  EXPECT_DOUBLE_EQ(cell(run, "p2p_unidirectional_p2p_disabled", 0, 1), 5.71);
  EXPECT_DOUBLE_EQ(cell(run, "p2p_unidirectional_p2p_disabled", 1, 0), 5.70);
  EXPECT_DOUBLE_EQ(cell(run, "p2p_unidirectional_p2p_enabled", 0, 0), 538.62);
  EXPECT_DOUBLE_EQ(cell(run, "p2p_bidirectional_p2p_disabled", 0, 1), 6.12);
  EXPECT_DOUBLE_EQ(cell(run, "p2p_bidirectional_p2p_enabled", 1, 0), 6.10);
  EXPECT_DOUBLE_EQ(cell(run, "p2p_latency_gpu_p2p_disabled", 0, 1), 14.76);
  EXPECT_DOUBLE_EQ(cell(run, "p2p_latency_cpu_p2p_disabled", 1, 0), 10.48);
  EXPECT_DOUBLE_EQ(cell(run, "p2p_latency_cpu_p2p_enabled", 1, 1), 3.27);
  EXPECT_EQ(at(run, "p2p_unidirectional_p2p_enabled").title, "Unidirectional P2P=Enabled Bandwidth (P2P Writes) Matrix (GB/s)");
  EXPECT_EQ(at(run, "p2p_latency_cpu_p2p_enabled").title, "P2P=Enabled Latency (P2P Writes) Matrix (us)");
}

TEST(P2pFixtures, Rtx6000AdaWithP2p) {
  const auto run = parse_ok(kAda);
  for (size_t i = 0; i < 4; ++i) {
    for (size_t j = 0; j < 4; ++j) {
      if (i == j) continue;
      EXPECT_NEAR(cell(run, "p2p_unidirectional_p2p_enabled", i, j), 26.3, 0.05);
      EXPECT_NEAR(cell(run, "p2p_bidirectional_p2p_enabled", i, j), 52.1, 0.05);
    }
  }
  EXPECT_DOUBLE_EQ(cell(run, "p2p_unidirectional_p2p_disabled", 0, 0), 140.75);  // as printed
  EXPECT_DOUBLE_EQ(cell(run, "p2p_latency_gpu_p2p_enabled", 1, 0), 1.21);
  EXPECT_DOUBLE_EQ(cell(run, "p2p_latency_cpu_p2p_disabled", 2, 3), 6.53);
  EXPECT_EQ(at(run, "p2p_latency_gpu_p2p_enabled").row_labels, (std::vector<std::string>{"0", "1", "2", "3"}));
}

TEST(P2pFixtures, Rtx4090BidirectionalFragment) {
  const auto run = parse_ok(k4090);
  for (size_t i = 0; i < 6; ++i) {
    EXPECT_NEAR(cell(run, "p2p_bidirectional_p2p_enabled", i, i), 920.0, 3.0);
    for (size_t j = 0; j < 6; ++j) {
      if (i == j) continue;
      EXPECT_GE(cell(run, "p2p_bidirectional_p2p_enabled", i, j), 50.09);
      EXPECT_LE(cell(run, "p2p_bidirectional_p2p_enabled", i, j), 51.23);
    }
  }
  EXPECT_DOUBLE_EQ(cell(run, "p2p_bidirectional_p2p_enabled", 0, 1), 50.11);
}

TEST(P2pVariants, PeerLinesWithoutConnectivityMatrixAndOldTitles) {
  const std::string text =
      "Device: 0, Tesla V100-SXM2-16GB, pciBusID: 4, pciDeviceID: 0, pciDomainID:0\n"
      "Device: 1, Tesla V100-SXM2-16GB, pciBusID: 5, pciDeviceID: 0, pciDomainID:0\n"
      "Device=0 CAN Access Peer Device=1\nDevice=1 CANNOT Access Peer Device=0\n"
      "Unidirectional P2P=Enabled Bandwidth Matrix (GB/s)\n   D\\D     0      1\n     0 750.00  48.40\n     1  48.30 751.00\n"
      "P2P=Enabled Latency Matrix (us)\n   D\\D     0      1\n     0   2.00   1.90\n     1   1.90   2.00\n";
  const auto r = parse_p2p_test(text, "v.txt");
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->device_names, (std::vector<std::string>{"Tesla V100-SXM2-16GB", "Tesla V100-SXM2-16GB"}));
  ASSERT_TRUE(r->p2p_access.known());
  EXPECT_EQ(*r->p2p_access, (std::vector<std::vector<bool>>{{true, true}, {false, true}}));
  EXPECT_EQ(keys(*r), (std::vector<std::string>{"p2p_unidirectional_p2p_enabled", "p2p_latency_gpu_p2p_enabled"}));
  EXPECT_EQ(r->notes, std::vector<std::string>{"line 9: P2P=Enabled Latency Matrix (us) has no CPU block"});
}

TEST(P2pMalformed, EachGivesAnInputErrorWithFileAndLine) {
  struct BadCase {
    const char* name;
    std::string text;
    std::string want;
  };
  const std::string bidir = "Bidirectional P2P=Enabled Bandwidth Matrix (GB/s)\n";
  const std::vector<BadCase> cases = {
      {"non-numeric", read_fixture("malformed/p2p_test_non_numeric_cell.txt"),
       "m.txt: line 4: cell \"53x.01\" in row \"1\", column \"1\" of p2p_bidirectional_p2p_enabled is not a number"},
      {"N/A is not printed by the sample", bidir + "   D\\D     0      1\n     0 N/A 1.0\n",
       "m.txt: line 3: cell \"N/A\" in row \"0\", column \"0\" of p2p_bidirectional_p2p_enabled is not a number"},
      {"title at the end and nothing else", bidir,
       "m.txt: line 1: reached the end of the input without a p2pBandwidthLatencyTest matrix (a \"... Bandwidth Matrix "
       "(GB/s)\", \"... Latency Matrix (us)\" or \"P2P Connectivity Matrix\" title)"},
      {"title without header", bidir + "Done\n",
       "m.txt: line 2: expected the column header of p2p_bidirectional_p2p_enabled (\"D\\D 0 1 ...\", \"GPU 0 1 ...\" or \"CPU 0 1 ...\"), found \"Done\""},
      {"connectivity not 0/1", "P2P Connectivity Matrix\n     D\\D     0     1\n     0       1     2\n     1       0     1\n",
       "m.txt: line 3: P2P Connectivity Matrix cell row 0, column 1 is 2, expected 0 or 1"},
      {"columns vs devices", "Device: 0, X, pciBusID: 1, pciDeviceID: 0, pciDomainID:0\n" + bidir + "   D\\D     0      1\n",
       "m.txt: line 3: p2p_bidirectional_p2p_enabled has 2 columns but the output lists 1 devices"},
      {"empty", "", "m.txt: line 1: empty input without a p2pBandwidthLatencyTest matrix (a \"... Bandwidth Matrix (GB/s)\", "
                    "\"... Latency Matrix (us)\" or \"P2P Connectivity Matrix\" title)"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    const auto r = parse_p2p_test(c.text, "m.txt");
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().kind, core::ErrorKind::bad_input);
    EXPECT_EQ(r.error().message, c.want);
  }
}

// A paste cut inside or after a row keeps the complete rows, with a note (issue 17).
TEST(P2pMalformed, CutPastesKeepTheCompleteRows) {
  const auto short_row = parse_p2p_test(read_fixture("malformed/p2p_test_short_row.txt"), "m.txt");
  ASSERT_TRUE(short_row.ok()) << short_row.error().message;
  ASSERT_EQ(short_row->matrices.size(), 1U);
  EXPECT_EQ(short_row->matrices[0].values.size(), 1U);
  EXPECT_EQ(short_row->notes.front(),
            "line 8: the paste ends inside this row of p2p_unidirectional_p2p_disabled (\"1   5.70\"); the row is not read");
  const std::string bidir = "Bidirectional P2P=Enabled Bandwidth Matrix (GB/s)\n";
  const auto missing = parse_p2p_test(bidir + "   D\\D     0      1\n     0 533.34   6.10\n\n", "m.txt");
  ASSERT_TRUE(missing.ok()) << missing.error().message;
  EXPECT_EQ(missing->notes, std::vector<std::string>{"line 1: p2p_bidirectional_p2p_enabled has 1 of 2 rows; the paste is cut"});
}

TEST(P2pDetect, LooksLikeOnlyP2pTest) {
  for (const auto& f : fixture_files("p2p")) EXPECT_TRUE(looks_like_p2p_test(read_fixture(f))) << f;
  for (const auto& f : fixture_files("topo")) EXPECT_FALSE(looks_like_p2p_test(read_fixture(f))) << f;
  for (const auto& f : fixture_files("nccl")) EXPECT_FALSE(looks_like_p2p_test(read_fixture(f))) << f;
  EXPECT_TRUE(looks_like_p2p_test("P2P Connectivity Matrix\n"));
  EXPECT_FALSE(looks_like_p2p_test("Bandwidth Matrix\n"));
}

}  // namespace
}  // namespace gpuvet::parsers
