// The node message ranks send rank 0 under mpirun: typed fields survive the trip; a message from
// another gpuvet build, or damaged, is an internal error naming the rank.
#include <gtest/gtest.h>

#include "cli/nccl_node_wire.hpp"

namespace gpuvet::cli {
namespace {

NodeMessage sample() {
  NodeMessage m;
  m.hostname = "node-7";
  m.inventory = {"rank 1 (node-7)", {"NVIDIA H100 80GB HBM3", ""}, {"96.00.99.00.01", ""}, "570.86.15", "12.8"};
  m.network = {"rank 1 (node-7)", true, 8, 7, 2800.0, 400.0, "InfiniBand"};
  m.verdict = core::Verdict::fail;
  m.findings = {{"collective_hung", core::Severity::fail, {2, 5}, "all_reduce hung", {{"after_s", "30"}}, "rerun it"}};
  m.peak_busbw_op = "all_reduce";
  m.peak_busbw_gbps = 361.5;
  m.report_json = R"({"schema":"gpuvet.machine/1"})";
  return m;
}

TEST(NcclNodeWire, TypedFieldsSurviveTheTrip) {
  const auto back = decode_node_message(encode_node_message(sample()), 1);
  ASSERT_TRUE(back.ok()) << back.error().message;
  const auto& m = *back;
  EXPECT_FALSE(m.error);
  EXPECT_EQ(m.hostname, "node-7");
  EXPECT_EQ(m.inventory.gpu_names, sample().inventory.gpu_names);
  EXPECT_EQ(m.inventory.vbios[0], "96.00.99.00.01");
  EXPECT_EQ(m.inventory.cuda_version, "12.8");
  EXPECT_EQ(m.network.active_nics, 7);
  EXPECT_DOUBLE_EQ(m.network.active_gbit_s, 2800.0);
  EXPECT_EQ(m.network.link_layer, "InfiniBand");
  EXPECT_EQ(m.verdict, core::Verdict::fail);
  ASSERT_EQ(m.findings.size(), 1u);
  EXPECT_EQ(m.findings[0].severity, core::Severity::fail);
  EXPECT_EQ(m.findings[0].gpus, (std::vector<int>{2, 5}));
  EXPECT_EQ(m.findings[0].evidence.at(0).second, "30");
  EXPECT_EQ(m.peak_busbw_gbps, 361.5);
  EXPECT_EQ(m.report_json, sample().report_json);
}

TEST(NcclNodeWire, ANodeThatCouldNotMeasureSendsItsError) {
  NodeMessage m;
  m.error = core::Error{core::ErrorKind::environment, "no NVIDIA driver"};
  const auto back = decode_node_message(encode_node_message(m), 3);
  ASSERT_TRUE(back.ok()) << back.error().message;
  ASSERT_TRUE(back->error);
  EXPECT_EQ(back->error->kind, core::ErrorKind::environment);
  EXPECT_EQ(back->error->message, "no NVIDIA driver");
}

TEST(NcclNodeWire, ForeignOrDamagedMessagesNameTheRank) {
  auto text = encode_node_message(sample());
  for (const std::string& bad : {std::string("{"), std::string(R"({"schema":"gpuvet.nccl-node/0"})"),
                                text.replace(text.find("\"verdict\":1"), 11, "\"verdict\":9")}) {
    const auto back = decode_node_message(bad, 4);
    ASSERT_FALSE(back.ok()) << bad;
    EXPECT_EQ(back.error().kind, core::ErrorKind::internal);
    EXPECT_NE(back.error().message.find("rank 4"), std::string::npos) << back.error().message;
  }
}

}  // namespace
}  // namespace gpuvet::cli
