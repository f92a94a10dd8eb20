// Malformed nvidia-smi topo -m inputs: each must give a bad_input Error naming the file, the
// line and what was expected; none may throw or crash.
#include "parsers/topo_parser.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "topo_test_fixtures.hpp"

namespace gpuvet::parsers {
namespace {

using testing::read_fixture;

struct BadCase {
  const char* name;
  std::string text;
  std::string want;  // expected message (exact)
};

std::vector<BadCase> bad_cases() {
  const std::string hdr = "\tGPU0\tGPU1\tGPU2\tCPU Affinity\tNUMA Affinity\n";
  return {
      {"truncated row", read_fixture("malformed/topo-truncated-row.txt"),
       "t.txt: line 5: expected 10 link cells for GPU3 (GPU0..GPU7, NIC0..NIC1), found 7"},
      {"unknown cell", read_fixture("malformed/topo-unknown-cell.txt"), "t.txt: line 3: unknown link type \"NVX\" in column GPU2 of row GPU1"},
      {"GPU5 row under a GPU0..GPU3 header", read_fixture("malformed/topo-gpu5-row-under-4gpu-header.txt"),
       "t.txt: line 6: found a row for GPU5, but the header (line 1) has GPU0..GPU3"},
      {"asymmetric", read_fixture("malformed/topo-asymmetric.txt"),
       "t.txt: line 4: GPU2-GPU1 is SYS but GPU1-GPU2 is NODE (line 3); the matrix must be symmetric"},
      {"diagonal not X", read_fixture("malformed/topo-diagonal-not-x.txt"),
       "t.txt: line 3: expected X on the diagonal (row GPU1, column GPU1), found \"PHB\""},
      {"empty file", "", "t.txt: line 1: empty input without a nvidia-smi topo -m header (a line starting with GPU0, then GPU1 or CPU Affinity)"},
      {"binary garbage", std::string("\x7f" "ELF\x02\x01\x01\0\0\0\n\xff\xfe GPU\x01\n", 19),
       "t.txt: line 2: reached the end of the input without a nvidia-smi topo -m header (a line starting with GPU0, then GPU1 or CPU Affinity)"},
      {"header only", hdr, "t.txt: line 1: expected row GPU0 of the matrix, found end of input"},
      {"missing GPU row", hdr + "GPU0\t X \tNV4\tSYS\t0-7\t0\nGPU1\tNV4\t X \tSYS\t0-7\t0\n\nLegend:\n",
       "t.txt: line 4: expected row GPU2 of the matrix, found an empty line"},
      {"rows out of order", hdr + "GPU0\t X \tNV4\tSYS\t0-7\t0\nGPU2\tSYS\tSYS\t X \t0-7\t0\nGPU1\tNV4\t X \tSYS\t0-7\t0\n",
       "t.txt: line 3: expected row GPU1, found row GPU2 (rows follow the header order)"},
      {"text instead of a row", hdr + "GPU0\t X \tNV4\tSYS\t0-7\t0\nLegend:\n",
       "t.txt: line 3: expected row GPU1 of the matrix, found \"Legend:\""},
      {"extra cell", hdr + "GPU0\t X \tNV4\tSYS\tPIX\t0-7\t0\n", "t.txt: line 2: expected 3 link cells for GPU0 (GPU0..GPU2), found 4"},
      {"missing NUMA value", hdr + "GPU0\t X \tNV4\tSYS\t0-7\n",
       "t.txt: line 2: expected 2 values after the link cells of GPU0 (CPU Affinity, NUMA Affinity), found 1"},
      {"X off the diagonal", hdr + "GPU0\t X \t X \tSYS\t0-7\t0\n", "t.txt: line 2: X off the diagonal in row GPU0, column GPU1"},
      {"header out of order", "\tGPU0\tGPU2\tCPU Affinity\n", "t.txt: line 1: expected header column GPU1, found \"GPU2\""},
      {"unknown header column", "\tGPU0\tGPU1\tCPU Affinity\tPCIe Width\n",
       "t.txt: line 1: unexpected header column \"PCIe Width\" (expected CPU Affinity, NUMA Affinity or GPU NUMA ID)"},
      {"control bytes in a cell", hdr + "GPU0\t X \tNV\x01\tSYS\t0-7\t0\n",
       "t.txt: line 2: unknown link type \"NV\\x01\" in column GPU1 of row GPU0"},
  };
}

TEST(TopoMalformed, EachGivesAnInputErrorWithFileAndLine) {
  for (const auto& c : bad_cases()) {
    SCOPED_TRACE(c.name);
    const auto r = parse_topo_matrix(c.text, "t.txt");
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().kind, core::ErrorKind::bad_input);
    EXPECT_EQ(r.error().message, c.want);
  }
}

TEST(TopoMalformed, NicRowsMissingAfterTheGpuRowsAreANote) {
  // Pastes often stop after the GPU rows; the GPU rows already hold every GPU-NIC path.
  const auto r = parse_topo_matrix("\tGPU0\tGPU1\tNIC0\tCPU Affinity\nGPU0\t X \tPIX\tSYS\t0-7\nGPU1\tPIX\t X \tSYS\t0-7\n", "n.txt");
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_TRUE(r.value().nics.known());
  EXPECT_TRUE(r.value().nics->at(0).gpu_proximity.known());
  ASSERT_EQ(r.value().notes.size(), 1u);
  EXPECT_EQ(r.value().notes[0], "n.txt: the matrix stops after the GPU rows (no row NIC0); the GPU rows give every GPU-NIC path");
}

TEST(TopoMalformed, GpuNicAsymmetryIsAnError) {
  const auto r = parse_topo_matrix("\tGPU0\tNIC0\tCPU Affinity\nGPU0\t X \tPIX\t0-7\nNIC0\tSYS\t X \n", "n.txt");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, "n.txt: line 3: NIC0-GPU0 is SYS but GPU0-NIC0 is PIX (line 2); the matrix must be symmetric");
}

}  // namespace
}  // namespace gpuvet::parsers
