// Kernel-log events, nvidia-smi warnings, NVLink error counters and MIG mode: gpu_lost,
// xid_logged (NVIDIA's Xid catalogue), inforom_corrupted, nvlink_error_counters, mig_enabled.
#include <gtest/gtest.h>

#include "analysis/xid_catalog.hpp"
#include "test_machines.hpp"

namespace gpuvet::analysis::testing {
namespace {

using core::Severity;

TEST(Events, EachEventIsAFindingNamingTheGpuByIndexAndAddress) {
  const auto a = judge(logged_trouble_machine());
  const auto lost = with_code(a, "gpu_lost");
  ASSERT_EQ(lost.size(), 1u);
  EXPECT_EQ(lost[0].severity, Severity::fail);
  EXPECT_EQ(lost[0].gpus, (std::vector<int>{1}));
  EXPECT_EQ(lost[0].message, "GPU 1 (0000:2a:00.0) is lost: it fell off the bus");
  const auto xid = with_code(a, "xid_logged");
  ASSERT_EQ(xid.size(), 1u);
  EXPECT_EQ(xid[0].severity, Severity::fail);
  EXPECT_EQ(xid[0].message, "Xid 48 (Double-bit ECC error (uncorrectable memory error)) logged once on 1 GPU: GPU 0 (0000:18:00.0) once");
  EXPECT_NE(xid[0].next_step.find("RESET_GPU"), std::string::npos);
  ASSERT_EQ(with_code(a, "inforom_corrupted").size(), 1u);
  EXPECT_EQ(with_code(a, "inforom_corrupted")[0].gpus, (std::vector<int>{0}));
}

TEST(Events, ApplicationXidsAreInformationAndReferencedXidsAreReported) {
  auto m = machine(0, "");
  m.attached_gpus = core::Reading<int>::absent("a kernel log does not list the GPUs");
  core::GpuEvent app;
  app.kind = core::GpuEventKind::xid;
  app.pci_bus_id = std::string("0000:dc:00.0");
  app.xid = 45;
  app.count = 2;
  app.text = "Xid (PCI:0000:dc:00): 45, pid=1, name=python3, Ch 00000001 caused by previous Xid 149";
  auto cause = app;
  cause.xid = 149;
  cause.count = 1;
  cause.referenced_only = true;
  m.events = {app, cause};
  const auto xid = with_code(judge(m), "xid_logged");
  ASSERT_EQ(xid.size(), 2u);
  EXPECT_EQ(xid[0].severity, Severity::info);  // 45: cleanup after the NVLink error
  EXPECT_EQ(xid[1].severity, Severity::fail);  // 149: NVLink NETIR error
  EXPECT_NE(xid[1].message.find("named by a later line as its cause"), std::string::npos);
  EXPECT_TRUE(xid[1].gpus.empty());  // no GPU at that address in the picture: named by address only
}

TEST(Events, AnXidOutsideTheCatalogueIsAWarningWithAPointer) {
  auto m = logged_trouble_machine();
  m.events = {m.events[0]};
  m.events[0].xid = 9999;
  const auto xid = with_code(judge(m), "xid_logged");
  ASSERT_EQ(xid.size(), 1u);
  EXPECT_EQ(xid[0].severity, Severity::warn);
  EXPECT_NE(xid[0].next_step.find("docs.nvidia.com"), std::string::npos);
  EXPECT_EQ(find_xid(9999), nullptr);
  ASSERT_NE(find_xid(79), nullptr);
  EXPECT_EQ(find_xid(79)->action, XidAction::reboot);
}

TEST(NvlinkCounters, AnyErrorWarnsAndASaturatedCounterSaysSo) {
  const auto f = with_code(judge(logged_trouble_machine()), "nvlink_error_counters");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, Severity::warn);
  EXPECT_EQ(f[0].message,
            "GPU 0 has counted NVLink errors since the counters were last reset: link 3 Replay Errors: 12; link 3 CRC Errors: "
            "65535 (saturated: the true count is higher and unknown)");
  auto clean = logged_trouble_machine();
  auto ports = *clean.gpus[0].nvlinks;
  ports[0].error_counters = std::vector<core::NvLinkCounter>{{"Replay Errors", 0}};
  clean.gpus[0].nvlinks = ports;
  EXPECT_TRUE(with_code(judge(clean), "nvlink_error_counters").empty());
  ports[0].error_counters = core::Reading<std::vector<core::NvLinkCounter>>::absent("no nvlink -e");
  clean.gpus[0].nvlinks = ports;
  EXPECT_TRUE(with_code(judge(clean), "nvlink_error_counters").empty());  // unknown is not zero, and not an error
}

TEST(Mig, MigModeOnIsAWarningNamingTheGpus) {
  const auto f = with_code(judge(logged_trouble_machine()), "mig_enabled");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].gpus, (std::vector<int>{1}));
  EXPECT_EQ(f[0].severity, Severity::warn);
}

}  // namespace
}  // namespace gpuvet::analysis::testing

namespace gpuvet::analysis::testing {
namespace {

TEST(NvlinkDown, WithoutAModelAPortDownWhileAnotherGpuHasItUpIsDown) {
  // dcgmi nvlink -s names no model: GPU 1 link 3 is D while GPU 0 link 3 is U.
  auto m = machine(2, "");
  for (auto& g : m.gpus) {
    g.name = core::Reading<std::string>::absent("not in dcgmi nvlink -s");
    std::vector<core::NvLinkPort> ports;
    for (int l = 0; l < 4; ++l) {
      core::NvLinkPort p;
      p.link = l;
      p.active = !(g.index == 1 && l == 3);
      ports.push_back(p);
    }
    g.nvlinks = ports;
  }
  const auto f = with_code(judge(m), "nvlink_down");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].gpus, (std::vector<int>{1}));
  EXPECT_EQ(f[0].message, "GPU 1 has NVLink link 3 down while GPU 0 has it up (3 links up)");
}

}  // namespace
}  // namespace gpuvet::analysis::testing

// Rows checked against NVIDIA's Xid catalogue (Immediate Action bucket), see xid_catalog.cpp.
TEST(XidCatalog, ActionsFollowNvidiasImmediateBucket) {
  using gpuvet::analysis::XidAction;
  const std::pair<int, XidAction> rows[] = {
      {13, XidAction::restart_app}, {31, XidAction::restart_app}, {38, XidAction::ignore},
      {43, XidAction::ignore},      {44, XidAction::ignore},      {46, XidAction::reset_gpu},
      {48, XidAction::reset_gpu},   {79, XidAction::reboot},      {94, XidAction::restart_app},
      {95, XidAction::reset_gpu},   {109, XidAction::reset_gpu},  {119, XidAction::reset_gpu},
      {121, XidAction::ignore},     {136, XidAction::reset_gpu},  {137, XidAction::ignore},
      {140, XidAction::reset_gpu},  {56, XidAction::contact_support}};
  for (const auto& [xid, action] : rows) {
    const auto* info = gpuvet::analysis::find_xid(xid);
    ASSERT_NE(info, nullptr) << "Xid " << xid;
    EXPECT_EQ(info->action, action) << "Xid " << xid;
  }
  EXPECT_NE(std::string(gpuvet::analysis::find_xid(57)->meaning).find("unused on Ampere and newer"), std::string::npos);
}
