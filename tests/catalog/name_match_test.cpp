// Name matching on every real GPU name in the fixtures (nvidia-smi -q Product Names and truth.json
// "model" strings), plus the catalogue values a real capture shows (memory, VBIOS, part, clocks).
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <map>
#include <regex>
#include <sstream>

#include "catalog/gpu_catalog.hpp"

namespace gpuvet::catalog {
namespace {

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

const char* id_of(std::string_view name) {
  const core::GpuModel* m = gpu_catalog().match(name);
  return m ? m->id.c_str() : "(none)";
}

TEST(NameMatch, NamesNvidiaSmiPrints) {
  const std::vector<std::pair<const char*, const char*>> table = {
      {"NVIDIA H100 80GB HBM3", "h100-sxm5-80gb"},
      {"NVIDIA H100 PCIe", "h100-pcie-80gb"},
      {"NVIDIA H100 NVL", "h100-nvl-94gb"},
      {"NVIDIA H800", "h800-sxm5-80gb"},
      {"NVIDIA H200", "h200-sxm-141gb"},
      {"NVIDIA H20", "h20-96gb"},
      {"NVIDIA B200", "b200-180gb"},
      {"NVIDIA GB200", "gb200-186gb"},
      {"NVIDIA H200 NVL", "h200-nvl-141gb"},
      {"NVIDIA A100-SXM4-80GB", "a100-sxm4-80gb"},
      {"NVIDIA A100-SXM4-40GB", "a100-sxm4-40gb"},
      {"NVIDIA A100 80GB PCIe", "a100-pcie-80gb"},
      {"NVIDIA A100-PCIE-40GB", "a100-pcie-40gb"},
      {"NVIDIA A800-SXM4-80GB", "a800-sxm4-80gb"},
      {"Tesla V100-SXM2-16GB", "v100-sxm2-16gb"},
      {"Tesla V100-SXM2-32GB", "v100-sxm2-32gb"},
      {"Tesla V100-PCIE-16GB", "v100-pcie-16gb"},
      {"Tesla V100-PCIE-32GB", "v100-pcie-32gb"},
      {"Tesla P100-PCIE-16GB", "p100-pcie-16gb"},
      {"Tesla P100-PCIE-12GB", "p100-pcie-12gb"},
      {"Tesla P100-SXM2-16GB", "p100-sxm2-16gb"},
      {"Tesla T4", "t4-16gb"},
      {"NVIDIA L4", "l4-24gb"},
      {"NVIDIA L20", "l20-48gb"},
      {"NVIDIA L40", "l40-48gb"},
      {"NVIDIA L40S", "l40s-48gb"},
      {"NVIDIA A10", "a10-24gb"},
      {"NVIDIA A30", "a30-24gb"},
      {"NVIDIA A40", "a40-48gb"},
      {"NVIDIA RTX A6000", "rtx-a6000-48gb"},
      {"NVIDIA RTX A5000", "rtx-a5000-24gb"},
      {"NVIDIA RTX 6000 Ada Generation", "rtx-6000-ada-48gb"},
      {"Quadro RTX 6000", "quadro-rtx-6000-24gb"},
      {"NVIDIA GeForce RTX 3090", "rtx-3090-24gb"},
      {"NVIDIA GeForce RTX 4090", "rtx-4090-24gb"},
      {"NVIDIA GeForce RTX 5090", "rtx-5090-32gb"},
      {"NVIDIA GeForce RTX 2080 Ti", "rtx-2080ti-11gb"},
      {"NVIDIA GeForce GTX 1080 Ti", "gtx-1080ti-11gb"},
      {"nvidia h100 80gb hbm3", "h100-sxm5-80gb"},  // case-insensitive
  };
  for (const auto& [name, id] : table) EXPECT_STREQ(id_of(name), id) << name;
}

TEST(NameMatch, LookAlikesAreNotConfused) {
  // Cards that are not in the catalogue must not borrow a neighbour's numbers.
  for (const char* name : {"NVIDIA GeForce RTX 4090 D", "NVIDIA GeForce RTX 3090 Ti", "NVIDIA A100X", "NVIDIA A1000",
                           "NVIDIA GB300", "NVIDIA H800 PCIe", "NVIDIA RTX A4000", "NVIDIA L40G"}) {
    EXPECT_STREQ(id_of(name), "(none)") << name;
  }
}

// Every Product Name in the nvidia-smi -q fixtures, text and XML.
TEST(NameMatch, EveryProductNameInTheSmiQFixtures) {
  const std::map<std::string, const char*> expected = {
      {"10x-a40-pcie-nvidia-smi-q.txt", "a40-48gb"},
      {"2x-h100-nvl-nvidia-smi-q.txt", "h100-nvl-94gb"},
      {"2x-rtx-a5000-anonymised-nvidia-smi-q-x.xml", "rtx-a5000-24gb"},
      {"4x-a100-sxm4-80gb-nvidia-smi-q.txt", "a100-sxm4-80gb"},
      {"8x-a100-sxm4-40gb-nvidia-smi-a.txt", "a100-sxm4-40gb"},
      {"8x-h100-sxm5-80gb-hgx-nvidia-smi-q.txt", "h100-sxm5-80gb"},
      {"8x-rtx4090-nvidia-smi-q.txt", "rtx-4090-24gb"},
      {"8x-v100-sxm2-16gb-nvidia-smi-q.txt", "v100-sxm2-16gb"},
      {"9x-rtx-a6000-nvidia-smi-q.txt", "rtx-a6000-48gb"},
      {"a100-sxm4-80gb-mig-enabled-trimmed-1of4-nvidia-smi-q-x.xml", "a100-sxm4-80gb"},
  };
  const std::regex product(R"((?:Product Name\s*:\s*([^\r\n]+))|(?:<product_name>([^<]+)</product_name>))");
  for (const auto& [file, id] : expected) {
    const std::string text = read_file(std::string(GPUVET_FIXTURES) + "/smi-q/" + file);
    ASSERT_FALSE(text.empty()) << file;
    int names = 0;
    for (auto it = std::sregex_iterator(text.begin(), text.end(), product); it != std::sregex_iterator(); ++it) {
      const std::string name = (*it)[1].matched ? (*it)[1].str() : (*it)[2].str();
      EXPECT_STREQ(id_of(name), id) << file << ": " << name;
      ++names;
    }
    EXPECT_GT(names, 0) << file;
  }
}

// Every "model" string in truth.json (bare names as papers and posts write them).
TEST(NameMatch, EveryModelStringInTruthJson) {
  const std::map<std::string, const char*> expected = {
      {"A10", "a10-24gb"},
      {"A100-SXM4-40GB", "a100-sxm4-40gb"},
      {"A100-SXM4-80GB", "a100-sxm4-80gb"},
      {"GeForce GTX 1080 Ti", "gtx-1080ti-11gb"},
      {"GeForce RTX 2080 Ti", "rtx-2080ti-11gb"},
      {"GeForce RTX 4090", "rtx-4090-24gb"},
      {"H100 80GB HBM3", "h100-sxm5-80gb"},
      {"H800", "h800-sxm5-80gb"},
      {"H800 (or A800)", "h800-sxm5-80gb"},
      {"L40S", "l40s-48gb"},
      {"NVIDIA A100-SXM4-40GB", "a100-sxm4-40gb"},
      {"NVIDIA A100-SXM4-80GB", "a100-sxm4-80gb"},
      {"NVIDIA A40", "a40-48gb"},
      {"NVIDIA GeForce RTX 4090", "rtx-4090-24gb"},
      {"NVIDIA H100 80GB HBM3", "h100-sxm5-80gb"},
      {"NVIDIA H100 NVL", "h100-nvl-94gb"},
      {"NVIDIA RTX A5000", "rtx-a5000-24gb"},
      {"NVIDIA RTX A6000", "rtx-a6000-48gb"},
      {"Quadro RTX 6000", "quadro-rtx-6000-24gb"},
      {"RTX 6000 Ada Generation", "rtx-6000-ada-48gb"},
      {"RTX A6000", "rtx-a6000-48gb"},
      {"Tesla V100-SXM2-16GB", "v100-sxm2-16gb"},
      // The mixed box: each part of the name still names a model.
      {"GeForce RTX 3090", "rtx-3090-24gb"},
      {"Tesla V100-SXM2-32GB", "v100-sxm2-32gb"},
  };
  const auto truth = nlohmann::json::parse(read_file(std::string(GPUVET_FIXTURES) + "/truth.json"));
  int checked = 0;
  for (const auto& [path, entry] : truth.items()) {
    if (!entry.contains("model") || !entry["model"].is_string()) continue;
    const std::string model = entry["model"];
    if (model.rfind("mixed:", 0) == 0) continue;  // covered by the two parts above
    const auto it = expected.find(model);
    ASSERT_NE(it, expected.end()) << "truth.json model '" << model << "' (" << path << ") has no expectation here";
    EXPECT_STREQ(id_of(model), it->second) << model;
    ++checked;
  }
  EXPECT_GT(checked, 20);
  EXPECT_STREQ(id_of("GeForce RTX 3090"), "rtx-3090-24gb");
  EXPECT_STREQ(id_of("Tesla V100-SXM2-32GB"), "v100-sxm2-32gb");
}

// The catalogue's "what a healthy card reports" agrees with the first GPU of each real -q capture.
TEST(NameMatch, CatalogueValuesAgreeWithRealCaptures) {
  const std::regex product(R"(Product Name\s*:\s*([^\r\n]+))");
  const std::regex fb_total(R"(FB Memory Usage\s+Total\s*:\s*(\d+) MiB)");
  const std::regex vbios(R"(VBIOS Version\s*:\s*(\S+))");
  const std::regex part(R"(Board Part Number\s*:\s*(\S+))");
  const std::regex max_sm(R"(Max Clocks\s+Graphics\s*:\s*\d+ MHz\s+SM\s*:\s*(\d+) MHz)");
  for (const char* file : {"10x-a40-pcie-nvidia-smi-q.txt", "2x-h100-nvl-nvidia-smi-q.txt", "4x-a100-sxm4-80gb-nvidia-smi-q.txt",
                           "8x-a100-sxm4-40gb-nvidia-smi-a.txt", "8x-h100-sxm5-80gb-hgx-nvidia-smi-q.txt",
                           "8x-rtx4090-nvidia-smi-q.txt", "8x-v100-sxm2-16gb-nvidia-smi-q.txt", "9x-rtx-a6000-nvidia-smi-q.txt"}) {
    SCOPED_TRACE(file);
    const std::string text = read_file(std::string(GPUVET_FIXTURES) + "/smi-q/" + file);
    std::smatch m;
    ASSERT_TRUE(std::regex_search(text, m, product));
    const core::GpuModel* model = gpu_catalog().match(m[1].str());
    ASSERT_NE(model, nullptr);
    ASSERT_TRUE(std::regex_search(text, m, fb_total));
    EXPECT_EQ(model->memory_reported_mib.value_or(0), std::stoull(m[1].str()));
    ASSERT_TRUE(std::regex_search(text, m, vbios));
    EXPECT_EQ(model->vbios, m[1].str());
    ASSERT_TRUE(std::regex_search(text, m, part));
    EXPECT_EQ(model->board_part_number, m[1].str() == "N/A" ? "" : m[1].str());
    ASSERT_TRUE(std::regex_search(text, m, max_sm));
    EXPECT_EQ(model->max_sm_clock_mhz.value_or(0), std::stoi(m[1].str()));
  }
}

}  // namespace
}  // namespace gpuvet::catalog
