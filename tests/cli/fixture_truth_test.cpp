// Real captured outputs (tests/fixtures, provenance in ../shared/fixtures/SOURCES.md) parsed
// and judged end to end against the ground truth in tests/fixtures/truth.json.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "analysis/judge.hpp"
#include "catalog/gpu_catalog.hpp"
#include "parsers/parse_input.hpp"

using namespace gpuvet;
using nlohmann::json;

namespace {

std::string read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

json truth() { return json::parse(read(std::string(GPUVET_FIXTURES) + "/truth.json")); }

std::string class_name(const json& truth_class) {
  std::string s = truth_class.get<std::string>();
  std::replace(s.begin(), s.end(), '-', '_');
  return s;
}

bool has_code(const core::Assessment& a, const std::string& code) {
  return std::any_of(a.findings.begin(), a.findings.end(), [&](const core::Finding& f) { return f.code == code; });
}

}  // namespace

TEST(FixtureTruth, TopologyAndQueryFixturesGiveTheRightClassAndModel) {
  int checked = 0;
  const json all = truth();
  for (const auto& [file, t] : all.items()) {
    if (t["kind"] != "topo" && t["kind"] != "smi-q" && t["kind"] != "smi-q-xml") continue;
    SCOPED_TRACE(file);
    auto machine = parsers::parse_input(read(std::string(GPUVET_FIXTURES) + "/" + file), file);
    ASSERT_TRUE(machine) << machine.error().message;
    const auto assessment = analysis::judge_machine(*machine, catalog::gpu_catalog(), {});
    if (!t["interconnect"].is_null()) {
      EXPECT_EQ(core::to_string(assessment.interconnect.cls), class_name(t["interconnect"]));
    }
    if (t["kind"] != "topo") {
      // Every real model name in the fixtures is in the catalogue.
      ASSERT_FALSE(machine->gpus.empty());
      EXPECT_NE(catalog::gpu_catalog().match(*machine->gpus[0].name), nullptr) << *machine->gpus[0].name;
      EXPECT_EQ(has_code(assessment, "mixed_inventory"), t["mixed_vbios"].get<bool>());
    }
    ++checked;
  }
  EXPECT_GE(checked, 21);
}

TEST(FixtureTruth, RowRemapPendingOnTheFourWayA100IsAFailNamingTheGpu) {
  const std::string file = "smi-q/4x-a100-sxm4-80gb-nvidia-smi-q.txt";
  auto machine = parsers::parse_input(read(std::string(GPUVET_FIXTURES) + "/" + file), file);
  ASSERT_TRUE(machine) << machine.error().message;
  const auto assessment = analysis::judge_machine(*machine, catalog::gpu_catalog(), {});
  const auto it = std::find_if(assessment.findings.begin(), assessment.findings.end(),
                               [](const core::Finding& f) { return f.code == "row_remap_pending"; });
  ASSERT_NE(it, assessment.findings.end());
  EXPECT_EQ(it->severity, core::Severity::fail);
  ASSERT_EQ(it->gpus.size(), 1u);
  EXPECT_EQ(*machine->gpus[static_cast<size_t>(it->gpus[0])].pci_bus_id, "0000:9e:00.0");
}
