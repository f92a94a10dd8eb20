// GPUs per host from the Rank lines of real multi-node nccl-tests logs: nccl-tests#276 (2 x 8 H200,
// last Rank line cut by the paste) and a GCP A3 Mega 2 x 8 H100 run, whole and cut down.
#include "parsers/nccl_rank_hosts.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <string>

#include "parsers/benchmark_machine.hpp"
#include "parsers/nccl_tests_parser.hpp"
#include "topo_test_fixtures.hpp"

namespace gpuvet::parsers {
namespace {

using testing::read_fixture;

const char* kH200 = "corpus/nccl/2node-16x-h200-allreduce-header-excerpt-nccl-tests-276.txt";
const char* kA3Mega = "nccl/2node-16x-h100-sxm-gcp-a3mega-allreduce.txt";

core::CollectiveRun run_of(const std::string& text) {
  auto r = parse_nccl_tests(text, "log.txt");
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
  return r.ok() ? r.value() : core::CollectiveRun{};
}

// The log without the Rank lines of the ranks in [from, to].
std::string without_ranks(const std::string& text, int from, int to) {
  std::string out;
  size_t at = 0;
  while (at < text.size()) {
    size_t end = text.find('\n', at);
    end = end == std::string::npos ? text.size() : end + 1;
    const std::string line = text.substr(at, end - at);
    bool drop = false;
    for (int r = from; r <= to; ++r) {
      drop = drop || line.rfind(fmt::format("#  Rank {:2} ", r), 0) == 0;
    }
    if (!drop) out += line;
    at = end;
  }
  return out;
}

TEST(NcclRankHosts, H200TwoNodeLogIsEightGpusOnEachOfTwoHosts) {
  const auto run = run_of(read_fixture(kH200));
  const auto hosts = rank_hosts(run);
  ASSERT_EQ(hosts.hosts.size(), 2u);
  EXPECT_TRUE(hosts.complete);
  EXPECT_EQ(hosts.hosts[0].host, "gpu47");
  EXPECT_EQ(hosts.hosts[0].gpus, 8);
  EXPECT_EQ(hosts.hosts[1].host, "gpu48");
  EXPECT_EQ(hosts.hosts[1].gpus, 8);  // rank 15's line is cut before its device: still one GPU
  EXPECT_EQ(gpus_per_host(hosts), 8);
  EXPECT_EQ(describe_rank_hosts(hosts), "gpu47: 8 GPUs (ranks 0-7), gpu48: 8 GPUs (ranks 8-15)");
}

TEST(NcclRankHosts, BenchmarkMachineNotesTheGpusPerHost) {
  const auto m = machine_from_benchmarks({run_of(read_fixture(kA3Mega))}, {});
  ASSERT_EQ(m.gpus.size(), 16u);
  ASSERT_FALSE(m.notes.empty());
  EXPECT_EQ(m.notes.front(),
            "GPU list from the Rank lines of a run on 2 hosts, 8 GPUs each (ztan-mig-235z: 8 GPUs (ranks 0-7), "
            "ztan-mig-gq73: 8 GPUs (ranks 8-15)): GPU N is rank N");
}

TEST(NcclRankHosts, BenchmarkMachineCarriesEachGpusHostAndTheCutLine) {
  const auto m = machine_from_benchmarks({run_of(read_fixture(kH200))}, {});
  ASSERT_EQ(m.gpus.size(), 16u);
  EXPECT_EQ(m.gpus[0].host.value_or(""), "gpu47");
  EXPECT_EQ(m.gpus[7].host.value_or(""), "gpu47");
  EXPECT_EQ(m.gpus[8].host.value_or(""), "gpu48");
  EXPECT_EQ(m.gpus[15].host.value_or(""), "gpu48");  // cut after "dev": the host is still there
  EXPECT_FALSE(m.gpus[15].name.known());
  EXPECT_EQ(m.gpus[15].name.reason(), "its Rank line is cut before the name");
  EXPECT_FALSE(m.hostname.known());
  // One host: the machine's hostname, and no host per GPU.
  const auto one = machine_from_benchmarks({run_of(without_ranks(read_fixture(kA3Mega), 8, 15))}, {});
  ASSERT_EQ(one.gpus.size(), 8u);
  EXPECT_EQ(one.hostname.value_or(""), "ztan-mig-235z");
  EXPECT_FALSE(one.gpus[0].host.known());
}

TEST(NcclRankHosts, PartialPasteGivesLowerBoundsOnly) {
  const auto run = run_of(without_ranks(read_fixture(kA3Mega), 0, 9));
  const auto hosts = rank_hosts(run);
  EXPECT_FALSE(hosts.complete);
  EXPECT_FALSE(gpus_per_host(hosts).has_value());
  EXPECT_EQ(describe_rank_hosts(hosts), "ztan-mig-gq73: at least 6 GPUs (ranks 10-15)");
}

TEST(NcclRankHosts, UnevenHostsHaveNoCountEach) {
  const auto run = run_of(without_ranks(read_fixture(kA3Mega), 15, 15));
  const auto hosts = rank_hosts(run);
  ASSERT_EQ(hosts.hosts.size(), 2u);
  EXPECT_TRUE(hosts.complete);
  EXPECT_EQ(hosts.hosts[1].gpus, 7);
  EXPECT_FALSE(gpus_per_host(hosts).has_value());
}

TEST(NcclRankHosts, OneHostHasNoPerHostCount) {
  const auto hosts = rank_hosts(run_of(read_fixture("nccl/2x-rtx2080ti-pcie-allreduce-autodl.txt")));
  ASSERT_EQ(hosts.hosts.size(), 1u);
  EXPECT_FALSE(gpus_per_host(hosts).has_value());
}

}  // namespace
}  // namespace gpuvet::parsers
