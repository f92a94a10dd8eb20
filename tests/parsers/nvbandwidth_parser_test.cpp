// nvbandwidth parser over the captured 8x H800 run and our written variants (waived, v0.8
// headers, a stopped run, an elided paste), malformed inputs, and every line-prefix of each file.
#include "parsers/nvbandwidth_parser.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "parsers/p2p_test_parser.hpp"
#include "topo_test_fixtures.hpp"

namespace gpuvet::parsers {
namespace {

using testing::fixture_files;
using testing::read_fixture;
using testing::truth;

constexpr const char* kH800 = "nvbandwidth/8x-h800-sxm-nv8-full-run-v0.2.txt";

const core::BandwidthMatrix* find(const core::BandwidthRun& run, const std::string& key) {
  for (const auto& m : run.matrices) {
    if (m.testcase == key) return &m;
  }
  return nullptr;
}

std::vector<std::string> keys(const core::BandwidthRun& run) {
  std::vector<std::string> out;
  for (const auto& m : run.matrices) out.push_back(m.testcase);
  return out;
}

double cell_sum(const core::BandwidthMatrix& m) {
  double s = 0;
  for (const auto& row : m.values) {
    for (const auto& c : row) s += c.value_or(0.0);
  }
  return s;
}

size_t known_cells(const core::BandwidthMatrix& m) {
  size_t n = 0;
  for (const auto& row : m.values) {
    for (const auto& c : row) n += c.known() ? 1 : 0;
  }
  return n;
}

core::BandwidthRun parse_ok(const std::string& relative) {
  auto r = parse_nvbandwidth(read_fixture(relative), relative);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
  return r.ok() ? std::move(r).value() : core::BandwidthRun{};
}

TEST(NvbandwidthFixture, H800HeaderAndDevicesMatchTruth) {
  const auto run = parse_ok(kH800);
  const auto& t = truth().at(kH800);
  EXPECT_EQ(run.tool, "nvbandwidth");
  EXPECT_EQ(run.source, std::string("nvbandwidth (") + kH800 + ")");
  EXPECT_EQ(run.tool_version, core::Reading<std::string>("v0.2"));
  EXPECT_EQ(run.driver_version, core::Reading<std::string>("525.105.17"));
  ASSERT_EQ(run.device_names.size(), t.at("gpus").get<size_t>());
  for (const auto& n : run.device_names) EXPECT_EQ(n, "NVIDIA " + t.at("model").get<std::string>());
  EXPECT_FALSE(run.p2p_access.known());
  EXPECT_TRUE(run.notes.empty());
}

TEST(NvbandwidthFixture, H800HasThirtyTestcasesInOrder) {
  const auto run = parse_ok(kH800);
  const std::vector<std::string> want = {
      "host_to_device_memcpy_ce", "device_to_host_memcpy_ce", "host_to_device_bidirectional_memcpy_ce",
      "device_to_host_bidirectional_memcpy_ce", "device_to_device_memcpy_read_ce", "device_to_device_memcpy_write_ce",
      "device_to_device_bidirectional_memcpy_read_ce", "device_to_device_bidirectional_memcpy_write_ce", "all_to_host_memcpy_ce",
      "all_to_host_bidirectional_memcpy_ce", "host_to_all_memcpy_ce", "host_to_all_bidirectional_memcpy_ce", "all_to_one_write_ce",
      "all_to_one_read_ce", "one_to_all_write_ce", "one_to_all_read_ce", "host_to_device_memcpy_sm", "device_to_host_memcpy_sm",
      "device_to_device_memcpy_read_sm", "device_to_device_memcpy_write_sm", "device_to_device_bidirectional_memcpy_read_sm",
      "device_to_device_bidirectional_memcpy_write_sm", "all_to_host_memcpy_sm", "all_to_host_bidirectional_memcpy_sm",
      "host_to_all_memcpy_sm", "host_to_all_bidirectional_memcpy_sm", "all_to_one_write_sm", "all_to_one_read_sm",
      "one_to_all_write_sm", "one_to_all_read_sm"};
  EXPECT_EQ(keys(run), want);
}

TEST(NvbandwidthFixture, H800EveryMatrixShapeAndSumIsConsistent) {
  const auto run = parse_ok(kH800);
  for (const auto& m : run.matrices) {
    SCOPED_TRACE(m.testcase);
    EXPECT_EQ(m.unit, "GB/s");
    EXPECT_FALSE(m.status.known());
    EXPECT_EQ(m.column_labels, (std::vector<std::string>{"0", "1", "2", "3", "4", "5", "6", "7"}));
    const bool d2d = m.testcase.find("device_to_device") == 0;
    ASSERT_EQ(m.values.size(), d2d ? 8U : 1U);
    ASSERT_TRUE(m.printed_sum.known());
    // nvbandwidth sums the unrounded values; each printed cell is off by at most 0.005.
    EXPECT_NEAR(cell_sum(m), *m.printed_sum, 0.005 * static_cast<double>(known_cells(m)) + 1e-9);
    for (size_t r = 0; r < m.values.size(); ++r) {
      ASSERT_EQ(m.values[r].size(), 8U);
      EXPECT_EQ(m.row_labels[r], std::to_string(r));
      for (size_t c = 0; c < 8; ++c) EXPECT_EQ(m.values[r][c].known(), !(d2d && r == c)) << r << "," << c;
    }
  }
}

TEST(NvbandwidthFixture, H800SelectedCells) {
  const auto run = parse_ok(kH800);
  const auto* read = find(run, "device_to_device_memcpy_read_ce");
  ASSERT_NE(read, nullptr);
  EXPECT_EQ(read->title, "memcpy CE GPU(row) -> GPU(column) bandwidth (GB/s)");
  EXPECT_DOUBLE_EQ(*read->values[0][1], 172.16);
  EXPECT_DOUBLE_EQ(*read->values[7][5], 172.57);
  EXPECT_EQ(read->values[3][3].reason(), "nvbandwidth printed N/A (pair not measured)");
  EXPECT_DOUBLE_EQ(*read->printed_sum, 9643.22);
  EXPECT_NEAR(cell_sum(*read), 9643.22, 0.05);
  const auto* h2d = find(run, "host_to_device_memcpy_ce");
  ASSERT_NE(h2d, nullptr);
  EXPECT_EQ(h2d->row_labels, std::vector<std::string>{"0"});
  EXPECT_DOUBLE_EQ(*h2d->values[0][0], 55.28);
  EXPECT_DOUBLE_EQ(*h2d->printed_sum, 442.52);
  EXPECT_NEAR(cell_sum(*h2d), 442.52, 0.05);
  const auto* d2h = find(run, "device_to_host_memcpy_ce");
  ASSERT_NE(d2h, nullptr);
  EXPECT_DOUBLE_EQ(*d2h->printed_sum, 441.05);
  EXPECT_NEAR(cell_sum(*d2h), 441.05, 0.05);
  const auto* bidir = find(run, "device_to_host_bidirectional_memcpy_ce");
  ASSERT_NE(bidir, nullptr);
  EXPECT_DOUBLE_EQ(*bidir->values[0][1], 50.50);
  EXPECT_DOUBLE_EQ(*bidir->values[0][0], 34.47);
  const auto* one = find(run, "all_to_one_read_sm");
  ASSERT_NE(one, nullptr);
  EXPECT_EQ(one->title, "memcpy SM All GPUs <- GPU(column) total bandwidth (GB/s)");
  EXPECT_DOUBLE_EQ(*one->values[0][7], 167.64);
}

TEST(NvbandwidthWritten, WaivingLinesOfV04) {
  const auto run = parse_ok("nvbandwidth/written-waived-v0.4.txt");
  EXPECT_EQ(keys(run), (std::vector<std::string>{"host_to_device_memcpy_ce", "device_to_device_memcpy_read_ce",
                                                  "device_to_device_memcpy_write_ce", "all_to_host_memcpy_ce"}));
  EXPECT_EQ(run.device_names, std::vector<std::string>{"NVIDIA A10"});
  for (const auto* key : {"device_to_device_memcpy_read_ce", "device_to_device_memcpy_write_ce"}) {
    const auto* m = find(run, key);
    ASSERT_NE(m, nullptr);
    EXPECT_EQ(m->status, core::Reading<std::string>("WAIVED"));
    EXPECT_TRUE(m->values.empty());
    EXPECT_FALSE(m->printed_sum.known());
  }
  EXPECT_DOUBLE_EQ(*find(run, "all_to_host_memcpy_ce")->values[0][0], 26.20);
}

TEST(NvbandwidthWritten, V08HeadersPartsLatencyWaivedAndError) {
  const auto run = parse_ok("nvbandwidth/written-v0.8-pci-ids-waived-latency.txt");
  EXPECT_EQ(run.tool_version, core::Reading<std::string>("v0.8"));
  EXPECT_EQ(run.driver_version, core::Reading<std::string>("570.124.06"));
  EXPECT_EQ(run.device_names, (std::vector<std::string>{"NVIDIA H100 80GB HBM3", "NVIDIA H100 80GB HBM3"}));
  EXPECT_EQ(keys(run), (std::vector<std::string>{"device_to_device_bidirectional_memcpy_read_ce_read1",
                                                  "device_to_device_bidirectional_memcpy_read_ce_read2",
                                                  "device_to_device_bidirectional_memcpy_read_ce_total", "", "host_device_latency_sm",
                                                  "device_to_device_latency_sm", "device_local_copy"}));
  EXPECT_DOUBLE_EQ(*run.matrices[2].values[1][0], 732.71);
  EXPECT_EQ(run.matrices[2].row_labels, (std::vector<std::string>{"0", "1"}));
  EXPECT_EQ(run.matrices[3].status, core::Reading<std::string>("WAIVED"));
  const auto* lat = find(run, "device_to_device_latency_sm");
  ASSERT_NE(lat, nullptr);
  EXPECT_EQ(lat->unit, "ns");
  EXPECT_DOUBLE_EQ(*lat->values[1][0], 693.80);
  EXPECT_EQ(find(run, "host_device_latency_sm")->unit, "ns");
  const auto* err = find(run, "device_local_copy");
  ASSERT_NE(err, nullptr);
  EXPECT_EQ(err->status, core::Reading<std::string>("Error: testcase needs at least one device with copy engine support"));
  EXPECT_TRUE(err->values.empty());
  ASSERT_EQ(run.notes.size(), 1U);
  EXPECT_EQ(run.notes[0], "line 34: a testcase was waived; nvbandwidth >= 0.5 does not name it");
}

TEST(NvbandwidthWritten, StoppedRunKeepsFinishedMatricesAndNamesTheUnfinishedOne) {
  const auto run = parse_ok("nvbandwidth/written-stopped-on-assertion.txt");
  ASSERT_EQ(keys(run), (std::vector<std::string>{"host_to_device_memcpy_ce", "device_to_device_memcpy_read_ce"}));
  EXPECT_DOUBLE_EQ(*run.matrices[0].printed_sum, 110.58);
  const auto& stopped = run.matrices[1];
  EXPECT_TRUE(stopped.values.empty());
  EXPECT_EQ(stopped.status,
            core::Reading<std::string>("did not finish: [CUDA_ERROR_ILLEGAL_ADDRESS] an illegal memory access was encountered"));
  ASSERT_EQ(run.notes.size(), 1U);
  EXPECT_EQ(run.notes[0],
            "line 18: testcase device_to_device_memcpy_read_ce did not finish: [CUDA_ERROR_ILLEGAL_ADDRESS] an illegal memory "
            "access was encountered");
}

TEST(NvbandwidthWritten, CutAfterRunningLineIsAnUnfinishedTestcase) {
  const auto r = parse_nvbandwidth("Running host_to_device_memcpy_ce.\nmemcpy CE CPU(row) -> GPU(column) bandwidth (GB/s)\n", "c.txt");
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ(r->matrices.size(), 1U);
  EXPECT_EQ(r->matrices[0].status, core::Reading<std::string>("did not finish: the output ends"));
  EXPECT_EQ(r->notes, std::vector<std::string>{"line 1: testcase host_to_device_memcpy_ce did not finish: the output ends"});
}

TEST(NvbandwidthWritten, ElidedPasteKeepsWhatIsShown) {
  const auto run = parse_ok("nvbandwidth/written-elided-paste.txt");
  EXPECT_EQ(keys(run), (std::vector<std::string>{"device_to_device_memcpy_read_ce", "all_to_one_write_ce"}));
  EXPECT_EQ(run.device_names.size(), 2U);
  EXPECT_EQ(run.notes, (std::vector<std::string>{"line 5: lines elided (\"...\") in the pasted output",
                                                 "line 15: lines elided (\"...\") in the pasted output",
                                                 "line 14: the output of device_to_device_memcpy_write_ce is elided; no matrix"}));
  EXPECT_DOUBLE_EQ(*run.matrices[1].values[0][1], 177.63);
}

TEST(NvbandwidthWritten, PerfFormatterSumAndNoSumLine) {
  const std::string text =
      "Running host_to_device_memcpy_ce.\nmemcpy CE CPU(row) -> GPU(column) bandwidth (GB/s)\n   0    1\n0  1.50  2.50\n\n"
      "&&&& PERF host_to_device_memcpy_ce 4 +GB/s\n"
      "Running device_to_host_memcpy_ce.\nmemcpy CE CPU(row) <- GPU(column) bandwidth (GB/s)\n   0    1\n0  1.00  0.00\n";
  const auto r = parse_nvbandwidth(text, "p.txt");
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ(r->matrices.size(), 2U);
  EXPECT_DOUBLE_EQ(*r->matrices[0].printed_sum, 4.0);
  EXPECT_EQ(r->matrices[1].printed_sum.reason(), "no SUM line after this matrix");
  EXPECT_DOUBLE_EQ(*r->matrices[1].values[0][1], 0.0);
}

struct BadCase {
  const char* name;
  std::string text;
  std::string want;
};

TEST(NvbandwidthMalformed, EachGivesAnInputErrorWithFileAndLine) {
  const std::string run = "Running host_to_device_memcpy_ce.\nmemcpy CE CPU(row) -> GPU(column) bandwidth (GB/s)\n";
  const std::vector<BadCase> cases = {
      {"short row", read_fixture("malformed/nvbandwidth_short_row.txt"),
       "b.txt: line 5: row \"1\" of device_to_device_memcpy_read_ce has 1 cells, expected 2 (one per column of the header)"},
      {"non-numeric cell", read_fixture("malformed/nvbandwidth_non_numeric_cell.txt"),
       "b.txt: line 4: cell \"5a.30\" in row \"0\", column \"1\" of host_to_device_memcpy_ce is not a number or N/A"},
      {"testcase without matrix", read_fixture("malformed/nvbandwidth_testcase_without_matrix.txt"),
       "b.txt: line 3: testcase host_to_device_memcpy_ce has no matrix before \"Running device_to_host_memcpy_ce.\" (line 5)"},
      {"empty", "", "b.txt: line 1: empty input without an nvbandwidth testcase (\"Running KEY.\" or a matrix title)"},
      {"title without header", run + "\nSUM host_to_device_memcpy_ce 1\n",
       "b.txt: line 3: expected the column header of host_to_device_memcpy_ce (title on line 2)"},
      {"header without rows", run + "   0   1\n\nSUM host_to_device_memcpy_ce 1\n",
       "b.txt: line 4: expected the rows of host_to_device_memcpy_ce after its column header (line 3)"},
      {"bad SUM", run + "   0\n0  1.0\n\nSUM host_to_device_memcpy_ce lots\n", "b.txt: line 6: expected \"SUM KEY VALUE\", found \"SUM host_to_device_memcpy_ce lots\""},
      {"inf cell", run + "   0\n0  inf\n", "b.txt: line 4: cell \"inf\" in row \"0\", column \"0\" of host_to_device_memcpy_ce is not a number or N/A"},
      {"binary", std::string("\x7f" "ELF\x02\0\0\nRunning \xff.\n", 18),
       "b.txt: line 2: reached the end of the input without an nvbandwidth testcase (\"Running KEY.\" or a matrix title)"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    const auto r = parse_nvbandwidth(c.text, "b.txt");
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().kind, core::ErrorKind::bad_input);
    EXPECT_EQ(r.error().message, c.want);
  }
}

// Every prefix of every nvbandwidth and p2p fixture, cut at each line end and mid-line: a value or
// an input error, never a crash or an internal error.
TEST(NvbandwidthNoCrash, EveryLinePrefixOfEveryFixture) {
  auto files = fixture_files("nvbandwidth");
  for (const auto& f : fixture_files("p2p")) files.push_back(f);
  ASSERT_GE(files.size(), 8U);
  for (const auto& f : files) {
    const auto text = read_fixture(f);
    for (size_t end = 0; end <= text.size(); ++end) {
      if (end != text.size() && text[end] != '\n' && end % 7 != 0) continue;
      const auto prefix = text.substr(0, end);
      const auto a = parse_nvbandwidth(prefix, f);
      const auto b = parse_p2p_test(prefix, f);
      if (!a.ok()) {
        ASSERT_EQ(a.error().kind, core::ErrorKind::bad_input) << f << " @" << end << ": " << a.error().message;
      }
      if (!b.ok()) {
        ASSERT_EQ(b.error().kind, core::ErrorKind::bad_input) << f << " @" << end << ": " << b.error().message;
      }
    }
  }
}

TEST(NvbandwidthDetect, LooksLikeOnlyNvbandwidth) {
  for (const auto& f : fixture_files("nvbandwidth")) {
    if (f.size() > 3 && f.substr(f.size() - 3) == ".md") continue;
    EXPECT_TRUE(looks_like_nvbandwidth(read_fixture(f))) << f;
    EXPECT_FALSE(looks_like_p2p_test(read_fixture(f))) << f;
  }
  for (const auto& f : fixture_files("p2p")) EXPECT_FALSE(looks_like_nvbandwidth(read_fixture(f))) << f;
  for (const auto& f : fixture_files("topo")) EXPECT_FALSE(looks_like_nvbandwidth(read_fixture(f))) << f;
  EXPECT_TRUE(looks_like_nvbandwidth("Running device_to_device_memcpy_read_ce.\nmemcpy CE GPU(row) -> GPU(column) bandwidth (GB/s)\n"));
  EXPECT_FALSE(looks_like_nvbandwidth("Running the tests.\nok\n"));
}

}  // namespace
}  // namespace gpuvet::parsers
