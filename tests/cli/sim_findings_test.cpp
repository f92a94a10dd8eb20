// Each simulated profile and fault overlay gives exactly its expected findings (clean profiles
// only the informational interconnect_class). Faults are planted by the simulator; the judge
// must find them from the machine picture alone.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "analysis/judge.hpp"
#include "backends/sim/simulator.hpp"
#include "catalog/gpu_catalog.hpp"

using namespace gpuvet;

namespace {

struct Case {
  std::string profile;
  std::vector<std::string> faults;
  std::string expected_class;
  std::set<std::string> codes;                  // exact set of finding codes
  std::vector<std::pair<std::string, int>> gpu_named;  // (code, GPU index that must be named)
  analysis::Expectations expect = {};
};

std::vector<Case> cases() {
  analysis::Expectations train;
  train.workload = "train";
  analysis::Expectations nvswitch;
  nvswitch.interconnect = core::InterconnectClass::nvswitch_full_mesh;
  return {
      {"hgx-h100-8x", {}, "nvswitch_full_mesh", {"interconnect_class"}, {}},
      {"h800-8x", {}, "nvswitch_full_mesh", {"interconnect_class"}, {}},
      {"hgx-a100-8x", {}, "nvswitch_full_mesh", {"interconnect_class"}, {}},
      {"hgx-h100-4x", {}, "nvlink_direct_full_mesh", {"interconnect_class"}, {}},
      {"dgx1-v100", {}, "nvlink_partial", {"interconnect_class"}, {}},
      {"a100-pcie-4x-bridged", {}, "nvlink_partial", {"interconnect_class"}, {}},
      {"l40s-8x", {}, "pcie_only", {"interconnect_class"}, {}},
      {"rtx4090-8x", {}, "pcie_only", {"interconnect_class"}, {}},
      {"hgx-b200-8x", {}, "nvswitch_full_mesh", {"interconnect_class"}, {}},
      {"hgx-h200-8x", {}, "nvswitch_full_mesh", {"interconnect_class"}, {}},
      {"gb200-nvl-tray", {}, "nvswitch_full_mesh", {"interconnect_class"}, {}},
      {"h20-8x", {}, "nvswitch_full_mesh", {"interconnect_class"}, {}},
      {"a800-8x", {}, "nvswitch_full_mesh", {"interconnect_class"}, {}},
      {"h100-nvl-4x", {}, "nvlink_partial", {"interconnect_class"}, {}},
      {"h200-nvl-4x", {}, "nvlink_direct_full_mesh", {"interconnect_class"}, {}},
      {"l20-8x", {}, "pcie_only", {"interconnect_class"}, {}},
      {"l40-8x", {}, "pcie_only", {"interconnect_class"}, {}},
      {"h20-8x", {}, "nvswitch_full_mesh", {"interconnect_class", "card_class_mismatch"}, {}, train},
      {"nvlink-4plus4-8x", {}, "nvlink_partial", {"interconnect_class", "mixed_inventory", "nvlink_not_bridged"}, {{"mixed_inventory", 4}, {"nvlink_not_bridged", 4}}},
      {"nvlink-4plus4-8x", {}, "nvlink_partial", {"interconnect_class", "mixed_inventory", "nvlink_not_bridged", "interconnect_not_as_claimed"}, {}, nvswitch},
      {"rtx4090-8x", {}, "pcie_only", {"interconnect_class", "card_class_mismatch"}, {}, train},
      {"hgx-h100-8x", {"nvlink-down:gpu=3,link=2"}, "nvswitch_full_mesh", {"interconnect_class", "nvlink_down"}, {{"nvlink_down", 3}}},
      {"dgx1-v100", {"nvlink-down:gpu=0,link=0"}, "nvlink_partial", {"interconnect_class", "nvlink_down"}, {{"nvlink_down", 0}}},
      {"hgx-h100-8x", {"pcie-degraded:gpu=2,width=8"}, "nvswitch_full_mesh", {"interconnect_class", "pcie_link_degraded"}, {{"pcie_link_degraded", 2}}},
      {"hgx-h100-8x", {"pcie-degraded:gpu=5,gen=4"}, "nvswitch_full_mesh", {"interconnect_class", "pcie_link_degraded"}, {{"pcie_link_degraded", 5}}},
      {"hgx-h100-8x", {"mixed-batch:gpu=6,vbios=96.00.99.00.01"}, "nvswitch_full_mesh", {"interconnect_class", "mixed_inventory"}, {{"mixed_inventory", 6}}},
      {"hgx-h100-8x", {"mixed-batch:gpu=1,memory_gib=40"}, "nvswitch_full_mesh", {"interconnect_class", "mixed_inventory", "memory_below_advertised"}, {{"mixed_inventory", 1}, {"memory_below_advertised", 1}}},
      {"hgx-h100-8x", {"mixed-batch:gpu=0,part=692-2G520-0280-000"}, "nvswitch_full_mesh", {"interconnect_class", "mixed_inventory"}, {{"mixed_inventory", 0}}},
      {"hgx-h100-8x", {"gpu-missing:gpu=4"}, "nvswitch_full_mesh", {"interconnect_class", "gpu_missing"}, {}},
      {"hgx-h100-8x", {"numa-misplaced:gpu=2,node=1"}, "nvswitch_full_mesh", {"interconnect_class", "gpu_numa_misplaced", "numa_imbalance"}, {{"gpu_numa_misplaced", 2}}},
      {"l40s-8x", {"numa-misplaced:gpu=6,node=0"}, "pcie_only", {"interconnect_class", "gpu_numa_misplaced", "numa_imbalance"}, {{"gpu_numa_misplaced", 6}}},
      {"hgx-h100-8x", {"nvlink-down:gpu=1,link=0", "pcie-degraded:gpu=7,width=4"}, "nvswitch_full_mesh", {"interconnect_class", "nvlink_down", "pcie_link_degraded"}, {{"nvlink_down", 1}, {"pcie_link_degraded", 7}}},
  };
}

std::string describe(const Case& c) {
  std::string s = c.profile;
  for (const auto& f : c.faults) s += " --fault " + f;
  return s;
}

}  // namespace

TEST(SimFindings, EachProfileAndFaultGivesExactlyItsFindings) {
  for (const auto& c : cases()) {
    SCOPED_TRACE(describe(c));
    std::vector<sim::FaultSpec> faults;
    for (const auto& text : c.faults) {
      auto fault = sim::parse_fault(text);
      ASSERT_TRUE(fault) << fault.error().message;
      faults.push_back(*fault);
    }
    auto machine = sim::simulate_machine(c.profile, faults);
    ASSERT_TRUE(machine) << machine.error().message;
    const auto assessment = analysis::judge_machine(*machine, catalog::gpu_catalog(), c.expect);
    EXPECT_EQ(core::to_string(assessment.interconnect.cls), c.expected_class);
    std::set<std::string> codes;
    for (const auto& f : assessment.findings) codes.insert(f.code);
    std::string got;
    for (const auto& f : assessment.findings) got += "\n  " + f.code + ": " + f.message;
    EXPECT_EQ(codes, c.codes) << got;
    for (const auto& [code, gpu] : c.gpu_named) {
      const bool named = std::any_of(assessment.findings.begin(), assessment.findings.end(), [&](const core::Finding& f) {
        return f.code == code && std::find(f.gpus.begin(), f.gpus.end(), gpu) != f.gpus.end();
      });
      EXPECT_TRUE(named) << code << " does not name GPU " << gpu << got;
    }
  }
}

TEST(SimFindings, EveryBuiltInProfileIsCovered) {
  std::set<std::string> covered;
  for (const auto& c : cases()) covered.insert(c.profile);
  for (const auto& p : sim::list_profiles()) EXPECT_TRUE(covered.count(p.name)) << p.name;
}
