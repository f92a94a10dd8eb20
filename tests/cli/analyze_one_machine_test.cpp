// gpuvet analyze on files that are not of one machine (issue 11) and benchmark device lines that
// fill the machine's GPU list (issue 17): real fixtures, combined as a user would paste them.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "cli_runner.hpp"

namespace gpuvet::testing {
namespace {

bool mentions(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// The fixture with its "#   Rank N" lines for N >= `keep` dropped: a run on fewer GPUs.
std::string fewer_ranks(const std::string& relative, int keep) {
  std::ifstream in(fixture(relative));
  std::ostringstream out;
  std::string line;
  while (std::getline(in, line)) {
    int rank = -1;
    if (std::sscanf(line.c_str(), "#   Rank %d", &rank) == 1 && rank >= keep) continue;
    out << line << '\n';
  }
  const auto dir = std::filesystem::temp_directory_path() / ("gpuvet-one-machine-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto path = (dir / "fewer-ranks.txt").string();
  std::ofstream(path) << out.str();
  return path;
}

void expect_refused(const std::vector<std::string>& files, const std::vector<std::string>& named) {
  std::vector<std::string> args{"analyze"};
  args.insert(args.end(), files.begin(), files.end());
  const auto r = run_cli(args);
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_TRUE(mentions(r.err, "the files are not of one machine")) << r.err;
  for (const auto& n : named) EXPECT_TRUE(mentions(r.err, n)) << "missing '" << n << "' in: " << r.err;
  EXPECT_FALSE(mentions(r.out, "PASS"));
}

TEST(AnalyzeOneMachine, TwoLinkMatricesThatDisagreeAreRefusedNamingThePair) {
  const auto a100 = fixture("topo/8x-a100-sxm4-40gb-nv12-17nic-1numa.txt");
  const auto h800 = fixture("topo/8x-h800-or-a800-nv8-4nic-2numa-no-gpu-numa-id.txt");
  expect_refused({a100, h800}, {"GPU0-GPU1 is NV12 in " + a100, "NV8 in " + h800});
}

TEST(AnalyzeOneMachine, NvlinkOnAModelWithoutNvlinkIsRefused) {
  const auto topo = fixture("topo/8x-a100-sxm4-40gb-nv12-17nic-1numa.txt");
  const auto q = fixture("smi-q/8x-rtx4090-nvidia-smi-q.txt");
  expect_refused({topo, q}, {topo + " shows NV12 between GPU0 and GPU1", "\"NVIDIA GeForce RTX 4090\" in " + q, "has no NVLink"});
}

TEST(AnalyzeOneMachine, BenchmarkLogOfAnotherModelIsRefusedNamingBothSides) {
  const auto h100 = fixture("smi-q/8x-h100-sxm5-80gb-hgx-nvidia-smi-q.txt");
  const auto nccl = fixture("nccl/8x-a100-sxm4-40gb-nvswitch-allreduce-superbench.txt");
  const auto nvbw = fixture("nvbandwidth/8x-h800-sxm-nv8-full-run-v0.2.txt");
  expect_refused({h100, nccl}, {"\"NVIDIA H100 80GB HBM3\" in " + h100, "rank 0 of " + nccl + " is \"A100-SXM4-40GB\""});
  expect_refused({h100, nvbw}, {h100, "device 0 of " + nvbw + " is \"NVIDIA H800\""});
  // No description: the logs must still agree with each other.
  expect_refused({nccl, nvbw}, {nccl, nvbw, "\"NVIDIA H800\""});
}

TEST(AnalyzeOneMachine, LogWithMoreGpusThanTheMachineIsRefusedAndFewerIsFine) {
  const auto topo2 = fixture("topo/2x-rtx2080ti-pcie-pix-autodl.txt");
  const auto nccl8 = fixture("nccl/8x-a100-sxm4-40gb-nvswitch-allreduce-superbench.txt");
  expect_refused({topo2, nccl8}, {nccl8 + " shows 8 GPUs", topo2 + " has 2 GPUs"});

  const auto smi_a = fixture("smi-q/8x-a100-sxm4-40gb-nvidia-smi-a.txt");
  const auto two = run_cli({"analyze", smi_a, fewer_ranks("nccl/8x-a100-sxm4-40gb-nvswitch-allreduce-superbench.txt", 2)});
  EXPECT_NE(two.exit_code, 2) << two.err;
  EXPECT_FALSE(mentions(two.err, "not of one machine")) << two.err;
}

TEST(AnalyzeOneMachine, DeviceLinesFillTheModelsATopoLacks) {
  const auto nccl = fixture("nccl/2x-rtx2080ti-pcie-allreduce-autodl.txt");
  const auto topo = fixture("topo/2x-rtx2080ti-pcie-pix-autodl.txt");
  const auto r = run_cli({"analyze", nccl, topo, "--workload", "train"});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_TRUE(mentions(r.out, "card_class_mismatch")) << r.out;
  EXPECT_FALSE(mentions(r.out, "model not reported")) << r.out;
  EXPECT_FALSE(mentions(r.out, "model not in this input")) << r.out;
  EXPECT_TRUE(mentions(r.out, "0000:b4:00.0")) << r.out;  // the bus id from the Rank line
  EXPECT_TRUE(mentions(r.out, "the models of 2 GPU(s) are from the device lines of")) << r.out;
}

TEST(AnalyzeOneMachine, SameMachineLogAndDescriptionStillMerge) {
  const auto topo = fixture("topo/8x-a100-sxm4-40gb-nv12-17nic-1numa.txt");
  const auto nccl = fixture("nccl/8x-a100-sxm4-40gb-nvswitch-allreduce-superbench.txt");
  const auto r = run_cli({"analyze", topo, nccl});
  EXPECT_NE(r.exit_code, 2) << r.err;
  EXPECT_TRUE(mentions(r.out, "A100-SXM4-40GB")) << r.out;
}

TEST(AnalyzeOneMachine, KernelLogOfAnotherHostIsNotedAndNoMinusQIsAskedFor) {
  const auto q = fixture("smi-q/8x-h100-sxm5-80gb-hgx-nvidia-smi-q.txt");
  const auto klog = fixture("corpus/kernel-log/nvrm-xid-45-after-nvlink-xid-149-145-open-gpu-kernel-modules-1150.txt");
  const auto r = run_cli({"analyze", "--json", q, klog});
  EXPECT_FALSE(mentions(r.out, "give nvidia-smi -q of the same machine")) << r.out;
  EXPECT_TRUE(mentions(r.out, "3 of the 4 PCI bus ids in the kernel log")) << r.out;
  EXPECT_TRUE(mentions(r.out, "0000:97:00.0")) << r.out;
  EXPECT_TRUE(mentions(r.out, "the log may be from another host")) << r.out;
  // A GPU the log says fell off the bus is missing from a later -q for that reason: not "another host" alone.
  const auto fallen = run_cli({"analyze", "--json", q, fixture("corpus/kernel-log/nvrm-gpu-fallen-off-bus-multiline-570-nvsentinel-155.txt")});
  EXPECT_TRUE(mentions(fallen.out, "(0000:b3:00.0) are not GPUs of the machine described: a GPU the log says was lost")) << fallen.out;
  EXPECT_FALSE(mentions(fallen.out, "the log may be from another host")) << fallen.out;
  // Alone, the kernel log still asks for -q.
  const auto alone = run_cli({"analyze", "--json", klog});
  EXPECT_TRUE(mentions(alone.out, "give nvidia-smi -q of the same machine")) << alone.out;
}

}  // namespace
}  // namespace gpuvet::testing
