// Kernel log lines (dmesg, journalctl -k) about NVIDIA GPUs: Xids, GPUs fallen off the bus, probe
// failures, on the real logs of tests/fixtures/corpus/kernel-log and hand-written variants.
#include "parsers/kernel_log_parser.hpp"

#include <gtest/gtest.h>

#include "parsers/input_format.hpp"
#include "topo_test_fixtures.hpp"

namespace gpuvet::parsers {
namespace {

using core::GpuEventKind;
using testing::read_fixture;

TEST(KernelLog, OldFallenOffTheBusLinesFoldIntoOneEventWithACount) {
  const auto text = read_fixture("corpus/kernel-log/nvrm-gpu-fallen-off-bus-laptop-bumblebee-554.txt");
  EXPECT_EQ(detect_format(text), InputFormat::kernel_log);
  const auto r = parse_kernel_log(text, "k.txt");
  ASSERT_TRUE(r.ok()) << r.error().message;
  const auto& m = r.value();
  EXPECT_TRUE(m.gpus.empty());
  EXPECT_FALSE(m.attached_gpus.known());
  ASSERT_EQ(m.events.size(), 1u);
  EXPECT_EQ(m.events[0].kind, GpuEventKind::fallen_off_bus);
  EXPECT_EQ(*m.events[0].pci_bus_id, "0000:01:00.0");
  EXPECT_EQ(m.events[0].count, 2);
  EXPECT_EQ(m.events[0].where, "k.txt: line 1");
}

TEST(KernelLog, MultiLineMessageFindsTheAddressOnAnEarlierLine) {
  const auto r = parse_kernel_log(read_fixture("corpus/kernel-log/nvrm-gpu-fallen-off-bus-multiline-570-nvsentinel-155.txt"), "k.txt");
  ASSERT_TRUE(r.ok()) << r.error().message;
  const auto& e = r.value().events;
  ASSERT_EQ(e.size(), 2u);
  EXPECT_EQ(e[0].kind, GpuEventKind::fallen_off_bus);
  EXPECT_EQ(*e[0].pci_bus_id, "0000:b3:00.0");
  EXPECT_EQ(e[1].kind, GpuEventKind::probe_failed);
  EXPECT_FALSE(e[1].pci_bus_id.known());
}

TEST(KernelLog, XidLinesPerGpuWithRepeatsAndTheXidTheyNameAsCause) {
  const auto r = parse_kernel_log(
      read_fixture("corpus/kernel-log/nvrm-xid-45-after-nvlink-xid-149-145-open-gpu-kernel-modules-1150.txt"), "k.txt");
  ASSERT_TRUE(r.ok()) << r.error().message;
  int xid45 = 0, referenced = 0;
  for (const auto& e : r.value().events) {
    ASSERT_EQ(e.kind, GpuEventKind::xid);
    if (e.xid == 45) {
      ++xid45;
      EXPECT_EQ(e.count, 2) << *e.pci_bus_id;
    } else {
      ++referenced;
      EXPECT_TRUE(e.referenced_only);
      EXPECT_EQ(e.xid, *e.pci_bus_id == "0000:dc:00.0" ? 149 : 145);
    }
  }
  EXPECT_EQ(xid45, 4);
  EXPECT_EQ(referenced, 4);
}

TEST(KernelLog, SyslogPrefixesXid79AndACutLastLine) {
  const std::string text =
      "Mar  3 10:00:01 node7 kernel: [ 12.5] NVRM: Xid (PCI:0000:3b:00): 79, pid='<unknown>', name=<unknown>, GPU has fallen off the bus.\n"
      "Mar  3 10:00:02 node7 kernel: NVRM: GPU 0000:3b:00.0: RmInitAdapter failed! (0x23:0x65:1457)\n"
      "Mar  3 10:00:03 node7 kernel: NVRM: Xid (PCI:0000:5e:00): 48, pid=77, DBE (0x3,0x0,0x1)\n"
      "Mar  3 10:00:04 node7 kernel: NVRM: Xid (PCI:0000:5e:00): 48, pid=77, DBE (0x3,0x0,0x1)\n"
      "Mar  3 10:00:05 node7 kernel: NVRM: Xid (PCI:0000:5e";
  const auto r = parse_kernel_log(text, "k.txt");
  ASSERT_TRUE(r.ok()) << r.error().message;
  const auto& e = r.value().events;
  ASSERT_EQ(e.size(), 4u);
  EXPECT_EQ(e[0].xid, 79);
  EXPECT_EQ(e[1].kind, GpuEventKind::fallen_off_bus);
  EXPECT_EQ(e[2].kind, GpuEventKind::probe_failed);
  EXPECT_EQ(*e[2].pci_bus_id, "0000:3b:00.0");
  EXPECT_EQ(e[3].xid, 48);
  EXPECT_EQ(e[3].count, 2);
  EXPECT_EQ(r.value().notes.back(), "k.txt: line 5: the input ends inside an Xid line (\"Xid (PCI:0000:5e\"); it was skipped");
}

TEST(KernelLog, OtherNvrmLinesAloneAreNotAKernelLogOfTrouble) {
  const std::string text = "[    1.0] NVRM: loading NVIDIA UNIX x86_64 Kernel Module  550.54.15\n";
  EXPECT_EQ(detect_format(text), InputFormat::unknown);
  EXPECT_FALSE(parse_kernel_log(text, "k.txt").ok());
}

}  // namespace
}  // namespace gpuvet::parsers
