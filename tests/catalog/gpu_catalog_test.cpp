// The embedded GPU catalogue (profiles/gpus.yaml) parses, is complete, and agrees with real captures;
// malformed catalogues are rejected with the model and field named.
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "catalog/gpu_catalog.hpp"

namespace gpuvet::catalog::data {
const std::vector<std::pair<std::string_view, std::string_view>>& embedded_files();
}

namespace gpuvet::catalog {
namespace {

std::string_view embedded_catalogue() {
  for (const auto& [path, text] : data::embedded_files()) {
    if (path == "gpus.yaml") return text;
  }
  return {};
}

TEST(GpuCatalog, EmbeddedFileParsesWithoutError) {
  const auto parsed = parse_catalog(embedded_catalogue(), "gpus.yaml");
  ASSERT_TRUE(parsed.ok()) << parsed.error().message;
  EXPECT_EQ(parsed->models().size(), gpu_catalog().models().size());
  EXPECT_GE(gpu_catalog().models().size(), 30u);
}

TEST(GpuCatalog, EveryModelHasTheRequiredFieldsAndASource) {
  std::set<std::string> display_names;
  for (const auto& m : gpu_catalog().models()) {
    SCOPED_TRACE(m.id);
    EXPECT_FALSE(m.display_name.empty());
    EXPECT_TRUE(display_names.insert(m.display_name).second) << "duplicate display name";
    EXPECT_FALSE(m.name_patterns.empty());
    EXPECT_FALSE(m.nvml_name.empty());
    EXPECT_FALSE(m.architecture.empty());
    EXPECT_TRUE(std::regex_match(m.compute_capability, std::regex(R"(\d+\.\d)")));
    EXPECT_TRUE(m.form_factor == "sxm" || m.form_factor == "pcie" || m.form_factor == "nvl");
    EXPECT_GT(m.memory_gib, 0);
    EXPECT_FALSE(m.memory_type.empty());
    EXPECT_TRUE(m.memory_bandwidth_gbps.known());
    EXPECT_TRUE(m.tdp_w.known());
    EXPECT_GE(m.pcie_gen, 3);
    EXPECT_LE(m.pcie_gen, 6);
    EXPECT_EQ(m.pcie_width, 16);
    EXPECT_GT(m.source.size(), 10u);
    if (m.nvlink_generation > 0) {
      EXPECT_GT(m.nvlink_links, 0);
      EXPECT_TRUE(m.nvlink_link_gbps.known());
      EXPECT_TRUE(m.nvlink_gbps_per_gpu().known());
    } else {
      EXPECT_FALSE(m.nvlink_gbps_per_gpu().known());
    }
    if (m.memory_reported_mib.known()) {
      // What a card reports is within a few percent below (ECC/reserve) or at the size it is sold as.
      EXPECT_LE(*m.memory_reported_mib, static_cast<std::uint64_t>(m.memory_gib * 1024 * 1.02));
      EXPECT_GE(*m.memory_reported_mib, static_cast<std::uint64_t>(m.memory_gib * 1024 * 0.9));
    }
  }
}

TEST(GpuCatalog, EachModelsOwnNvmlNameMatchesItself) {
  for (const auto& m : gpu_catalog().models()) {
    const core::GpuModel* found = gpu_catalog().match(m.nvml_name);
    ASSERT_NE(found, nullptr) << m.nvml_name;
    EXPECT_EQ(found->id, m.id) << m.nvml_name << " is shadowed by an earlier pattern";
  }
}

TEST(GpuCatalog, HasEveryModelARenterMeets) {
  for (const char* id :
       {"v100-sxm2-16gb", "v100-sxm2-32gb", "v100-pcie-16gb", "v100-pcie-32gb", "a100-sxm4-40gb", "a100-sxm4-80gb",
        "a100-pcie-40gb", "a100-pcie-80gb", "a800-sxm4-80gb", "h100-sxm5-80gb", "h100-pcie-80gb", "h100-nvl-94gb",
        "h800-sxm5-80gb", "h200-sxm-141gb", "h20-96gb", "b200-180gb", "l4-24gb", "l20-48gb", "l40-48gb", "l40s-48gb",
        "a10-24gb", "a30-24gb", "a40-48gb", "rtx-a6000-48gb", "rtx-6000-ada-48gb", "rtx-3090-24gb", "rtx-4090-24gb",
        "rtx-5090-32gb", "t4-16gb", "rtx-a5000-24gb", "gtx-1080ti-11gb", "rtx-2080ti-11gb", "quadro-rtx-6000-24gb"}) {
    EXPECT_NE(gpu_catalog().by_id(id), nullptr) << id;
  }
}

TEST(GpuCatalog, NvlinkRatesFollowTheGeneration) {
  const auto& c = gpu_catalog();
  EXPECT_DOUBLE_EQ(*c.by_id("h100-sxm5-80gb")->nvlink_gbps_per_gpu(), 450);
  EXPECT_DOUBLE_EQ(*c.by_id("a100-sxm4-80gb")->nvlink_gbps_per_gpu(), 300);
  EXPECT_DOUBLE_EQ(*c.by_id("v100-sxm2-16gb")->nvlink_gbps_per_gpu(), 150);
  EXPECT_DOUBLE_EQ(*c.by_id("b200-180gb")->nvlink_gbps_per_gpu(), 900);
  EXPECT_EQ(c.by_id("h800-sxm5-80gb")->nvlink_links, 8);
  EXPECT_EQ(c.by_id("a800-sxm4-80gb")->nvlink_links, 8);
  EXPECT_EQ(c.by_id("h20-96gb")->nvlink_links, 18);
  EXPECT_DOUBLE_EQ(*c.by_id("rtx-a6000-48gb")->nvlink_gbps_per_gpu(), 56.25);
  for (const char* id : {"l40s-48gb", "rtx-4090-24gb", "l4-24gb", "l20-48gb", "l40-48gb", "a10-24gb", "t4-16gb"}) {
    EXPECT_EQ(c.by_id(id)->nvlink_generation, 0) << id;
  }
}

// ---- malformed catalogues

constexpr const char* kGood = R"(models:
  - id: x1
    display_name: X1
    name_patterns: ['X1']
    nvml_name: NVIDIA X1
    architecture: Hopper
    compute_capability: "9.0"
    form_factor: sxm
    card_class: training
    memory_gib: 80
    memory_type: HBM3
    pcie_gen: 5
    source: test
)";

std::string replace(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

TEST(ParseCatalog, MinimalModelParsesAndUnknownNumbersStayAbsent) {
  const auto parsed = parse_catalog(kGood, "good.yaml");
  ASSERT_TRUE(parsed.ok()) << parsed.error().message;
  const core::GpuModel& m = parsed->models().at(0);
  EXPECT_EQ(m.id, "x1");
  EXPECT_EQ(m.pcie_width, 16);
  EXPECT_FALSE(m.tdp_w.known());
  EXPECT_FALSE(m.memory_reported_mib.known());
  EXPECT_FALSE(m.nvlink_link_gbps.known());
  EXPECT_EQ(m.nvlink_generation, 0);
}

struct BadCase {
  const char* what;
  std::string text;
  const char* expected_in_message;
};

TEST(ParseCatalog, RejectsMalformedCataloguesNamingModelAndField) {
  const std::vector<BadCase> cases = {
      {"missing field", replace(kGood, "    nvml_name: NVIDIA X1\n", ""), "model 'x1': nvml_name"},
      {"bad regex", replace(kGood, "['X1']", "['X1(']"), "not a valid regex"},
      {"unknown field", replace(kGood, "    source: test\n", "    source: test\n    tdp: 3\n"), "unknown field 'tdp'"},
      {"bad card class", replace(kGood, "card_class: training", "card_class: gaming"), "card_class"},
      {"not a number", replace(kGood, "memory_gib: 80", "memory_gib: eighty"), "memory_gib"},
      {"negative", replace(kGood, "memory_gib: 80", "memory_gib: -80"), "memory_gib"},
      {"nvlink half given", replace(kGood, "pcie_gen: 5", "pcie_gen: 5\n    nvlink_generation: 4"), "nvlink_generation"},
      {"empty patterns", replace(kGood, "['X1']", "[]"), "name_patterns"},
      {"duplicate id", std::string(kGood) + std::string(kGood).substr(8), "duplicate id 'x1'"},
      {"no models list", "gpus: []\n", "models"},
      {"yaml syntax", "models: [ {id: x1\n", "bad.yaml"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.what);
    const auto parsed = parse_catalog(c.text, "bad.yaml");
    ASSERT_FALSE(parsed.ok());
    EXPECT_EQ(parsed.error().kind, core::ErrorKind::bad_input);
    EXPECT_NE(parsed.error().message.find(c.expected_in_message), std::string::npos) << parsed.error().message;
    EXPECT_EQ(parsed.error().message.rfind("bad.yaml", 0), 0u) << parsed.error().message;
  }
}

}  // namespace
}  // namespace gpuvet::catalog
