// nccl-tests text parser over every real capture in tests/fixtures/nccl: exact rows, sizes,
// printed and recomputed busbw, peak, #wrong, ranks and nodes, checked against truth.json.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "parsers/nccl_tests_parser.hpp"
#include "topo_test_fixtures.hpp"

namespace gpuvet::parsers {
namespace {

using testing::fixture_files;
using testing::read_fixture;
using testing::truth;

constexpr int kAbsent = -1;
constexpr double kNoAvg = -1;

struct Expected {
  const char* file;
  const char* op;
  int ranks;            // kAbsent when not known
  bool ranks_inferred;  // from the table (a note says so), not from Rank lines
  int nodes;
  size_t rows;
  std::uint64_t first_size, last_size;
  double printed_avg;   // kNoAvg when the paste has no Avg line
  double recomputed_avg;  // mean of every busbw cell, to 3 decimals
  double peak;
  bool wrong_checked;   // #wrong is 0 in every cell (false: N/A, validation off)
  size_t devices;
  const char* op_note;  // text the op note must contain; "" when the op is named in the log
};

const std::vector<Expected>& expectations() {
  static const std::vector<Expected> kAll = {
      {"2node-16x-a100-p4de-efa-allreduce-table-only-srun-prefix.txt", "all_reduce", 16, true, kAbsent, 29, 8,
       2147483648ull, kNoAvg, 18.536, 78.33, true, 0, "inferred from the table"},
      {"2node-16x-h100-p5-efa-allreduce-table-only-srun-prefix.txt", "all_reduce", 16, true, kAbsent, 32, 8,
       17179869184ull, kNoAvg, 124.536, 487.26, true, 0, "inferred from the table"},
      {"2node-16x-h100-sxm-gcp-a3mega-allreduce.txt", "all_reduce", 16, false, 2, 31, 8, 8589934592ull, 70.742,
       70.741, 338.82, true, 16, "inferred from the table"},
      {"2x-rtx2080ti-pcie-allgather-autodl.txt", "all_gather", 2, false, 1, 28, 0, 1073741824ull, 1.6651, 1.665,
       3.84, true, 2, "taken from the file name"},
      {"2x-rtx2080ti-pcie-allreduce-autodl.txt", "all_reduce", 2, false, 1, 28, 8, 1073741824ull, 2.05774, 2.0575,
       4.00, true, 2, "taken from the file name"},
      {"6x-rtx4090-pcie-p2p-patched-allreduce-single-size.txt", "all_reduce", 6, false, 1, 1, 33554432,
       33554432, 24.5413, 24.540, 24.58, true, 6, "inferred from the table"},
      {"8x-a100-sxm4-40gb-nvswitch-allgather-superbench.txt", "all_gather", 8, false, 1, 34, 0, 8589934592ull,
       58.2651, 58.265, 230.07, false, 8, "inferred from the table"},
      {"8x-a100-sxm4-40gb-nvswitch-allreduce-superbench.txt", "all_reduce", 8, false, 1, 34, 0, 8589934592ull,
       68.4048, 68.404, 235.26, false, 8, "inferred from the table"},
      {"8x-a100-sxm4-40gb-nvswitch-alltoall-superbench.txt", "alltoall", 8, false, 1, 34, 0, 8589934592ull,
       58.6481, 58.648, 226.16, false, 8, "inferred from the table"},
  };
  return kAll;
}

bool any_note_contains(const core::CollectiveRun& run, const std::string& text) {
  for (const auto& n : run.notes) {
    if (n.find(text) != std::string::npos) return true;
  }
  return false;
}

core::CollectiveRun parse_fixture(const std::string& file) {
  auto r = parse_nccl_tests(read_fixture("nccl/" + file), file);
  EXPECT_TRUE(r.ok()) << file << ": " << (r.ok() ? "" : r.error().message);
  return r.ok() ? r.value() : core::CollectiveRun{};
}

TEST(NcclTestsFixtures, EveryTextFixtureHasAnExpectation) {
  std::vector<std::string> txt;
  for (const auto& f : fixture_files("nccl")) {
    if (f.size() > 4 && f.substr(f.size() - 4) == ".txt") txt.push_back(f.substr(5));
  }
  ASSERT_EQ(txt.size(), expectations().size());
  for (size_t i = 0; i < txt.size(); ++i) EXPECT_EQ(txt[i], expectations()[i].file);
}

TEST(NcclTestsFixtures, ExactNumbersPerFixture) {
  for (const auto& e : expectations()) {
    SCOPED_TRACE(e.file);
    const auto run = parse_fixture(e.file);
    EXPECT_EQ(run.op, e.op);
    EXPECT_TRUE(any_note_contains(run, e.op_note)) << "op note missing";
    ASSERT_EQ(run.rows.size(), e.rows);
    EXPECT_EQ(run.rows.front().size_bytes, e.first_size);
    EXPECT_EQ(run.rows.back().size_bytes, e.last_size);
    ASSERT_TRUE(run.ranks.known()) << run.ranks.reason();
    EXPECT_EQ(*run.ranks, e.ranks);
    EXPECT_EQ(any_note_contains(run, "ranks 16 inferred from busbw/algbw"), e.ranks_inferred);
    if (e.nodes == kAbsent) {
      EXPECT_FALSE(run.nodes.known());
    } else {
      ASSERT_TRUE(run.nodes.known()) << run.nodes.reason();
      EXPECT_EQ(*run.nodes, e.nodes);
    }
    if (e.printed_avg == kNoAvg) {
      EXPECT_FALSE(run.printed_avg_busbw_gbps.known());
    } else {
      ASSERT_TRUE(run.printed_avg_busbw_gbps.known());
      EXPECT_DOUBLE_EQ(*run.printed_avg_busbw_gbps, e.printed_avg);
    }
    const auto avg = core::average_busbw_gbps(run);
    ASSERT_TRUE(avg.known());
    EXPECT_NEAR(*avg, e.recomputed_avg, 0.0005);
    if (e.printed_avg != kNoAvg) {
      EXPECT_NEAR(*avg, e.printed_avg, 0.005) << "table disagrees with its Avg line";
    }
    const auto peak = core::peak_busbw_gbps(run);
    ASSERT_TRUE(peak.known());
    EXPECT_DOUBLE_EQ(*peak, e.peak);
    const auto wrong = core::wrong_total(run);
    EXPECT_EQ(wrong.known(), e.wrong_checked);
    if (e.wrong_checked) {
      EXPECT_EQ(*wrong, 0);
    }
    EXPECT_EQ(run.device_names.size(), e.devices);
    EXPECT_FALSE(run.nccl_version.known()) << "no fixture states the NCCL version";
    EXPECT_EQ(run.source, std::string("nccl-tests (") + e.file + ")");
  }
}

TEST(NcclTestsFixtures, AgreesWithTruthJson) {
  for (const auto& e : expectations()) {
    SCOPED_TRACE(e.file);
    const auto run = parse_fixture(e.file);
    const auto& t = truth().at(std::string("nccl/") + e.file);
    EXPECT_EQ(run.op, t.at("collective").get<std::string>());
    EXPECT_DOUBLE_EQ(*core::peak_busbw_gbps(run), t.at("peak_busbw").get<double>());
    if (t.at("avg_busbw").is_null()) {
      EXPECT_FALSE(run.printed_avg_busbw_gbps.known());
    } else {
      EXPECT_DOUBLE_EQ(*run.printed_avg_busbw_gbps, t.at("avg_busbw").get<double>());
    }
    EXPECT_EQ(*run.ranks, t.at("ranks").get<int>());
    if (run.nodes.known()) {
      EXPECT_EQ(*run.nodes, t.at("nodes").get<int>());
    }
    EXPECT_FALSE(t.at("wrong").get<bool>());
    EXPECT_EQ(core::wrong_total(run).value_or(0), 0);
    for (const auto& name : run.device_names) {
      EXPECT_NE(name.find(t.at("model").get<std::string>()), std::string::npos) << name;
    }
  }
}

TEST(NcclTestsFixtures, ColumnSetsAndCellsAsPrinted) {
  // Old superbench allreduce: redop column, no root column, N/A in the error column.
  auto ar = parse_fixture("8x-a100-sxm4-40gb-nvswitch-allreduce-superbench.txt");
  ASSERT_FALSE(ar.rows.empty());
  EXPECT_EQ(ar.rows[2].redop.value_or(""), "sum");
  EXPECT_FALSE(ar.rows[2].root.known());
  EXPECT_FALSE(ar.rows[2].in_place.wrong.known());
  EXPECT_DOUBLE_EQ(ar.rows.back().out_of_place.time_us.value_or(0), 63896);
  EXPECT_DOUBLE_EQ(ar.rows.back().in_place.algbw_gbps.value_or(0), 134.30);
  // Old alltoall: redop column present but blank.
  auto a2a = parse_fixture("8x-a100-sxm4-40gb-nvswitch-alltoall-superbench.txt");
  ASSERT_FALSE(a2a.rows.empty());
  EXPECT_FALSE(a2a.rows.back().redop.known());
  EXPECT_EQ(a2a.rows.back().count.value_or(0), 268435456u);
  // New all_gather: "none" and root -1.
  auto ag = parse_fixture("2x-rtx2080ti-pcie-allgather-autodl.txt");
  ASSERT_FALSE(ag.rows.empty());
  EXPECT_EQ(ag.rows.back().redop.value_or(""), "none");
  EXPECT_EQ(ag.rows.back().root.value_or(0), -1);
  EXPECT_EQ(ag.rows.back().in_place.wrong.value_or(-1), 0);
  EXPECT_EQ(ag.rows.back().type.value_or(""), "float");
  // Multi-node: hosts from the Rank lines.
  auto mn = parse_fixture("2node-16x-h100-sxm-gcp-a3mega-allreduce.txt");
  ASSERT_EQ(mn.device_names.size(), 16u);
  EXPECT_EQ(mn.device_names[15], "NVIDIA H100 80GB HBM3");
}

TEST(NcclTestsFixtures, LooksLikeNcclTestsOnEveryFixtureAndNotOnOthers) {
  for (const auto& e : expectations()) {
    EXPECT_TRUE(looks_like_nccl_tests(read_fixture(std::string("nccl/") + e.file))) << e.file;
  }
  for (const auto& dir : {"topo", "smi-q", "nvlink"}) {
    for (const auto& f : fixture_files(dir)) EXPECT_FALSE(looks_like_nccl_tests(read_fixture(f))) << f;
  }
  EXPECT_FALSE(looks_like_nccl_tests(""));
  EXPECT_FALSE(looks_like_nccl_tests("8 2 float sum -1 1 2 3 0 1 2 3 0\n"));  // no prefix, no header
}

TEST(NcclTestsFixtures, NoCrashOnAnyLinePrefix) {
  for (const auto& e : expectations()) {
    const std::string text = read_fixture(std::string("nccl/") + e.file);
    size_t end = 0;
    int parsed = 0;
    while (end != std::string::npos) {
      end = text.find('\n', end + 1);
      const std::string prefix = text.substr(0, end);
      const auto r = parse_nccl_tests(prefix, e.file);
      if (r.ok()) {
        ++parsed;
        // A prefix that stops before the first row is a run with no result, said in a note.
        if (r->rows.empty()) {
          EXPECT_TRUE(any_note_contains(*r, "no collective completed")) << prefix;
        }
      } else {
        EXPECT_EQ(r.error().kind, core::ErrorKind::bad_input);
        EXPECT_NE(r.error().message.find(e.file), std::string::npos) << r.error().message;
      }
      (void)looks_like_nccl_tests(prefix);
    }
    EXPECT_GT(parsed, 0) << e.file;
  }
}

}  // namespace
}  // namespace gpuvet::parsers
