// The metric table (src/monitor/metric_catalog): /metrics writes exactly the families it lists,
// with their type and HELP, in its order, and docs/metrics.md is its current rendering.
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "metrics_test_snapshot.hpp"
#include "monitor/metric_catalog.hpp"
#include "monitor/metrics_exposition.hpp"

namespace gpuvet::monitor {
namespace {

struct Written {
  std::string name;
  std::string type;
  std::string help;
};

// The families of a /metrics body, from their # HELP and # TYPE lines, in order.
std::vector<Written> families_in(const std::string& body) {
  std::vector<Written> out;
  std::istringstream lines(body);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.rfind("# HELP ", 0) == 0) {
      const auto space = line.find(' ', 7);
      out.push_back({line.substr(7, space - 7), "", line.substr(space + 1)});
    } else if (line.rfind("# TYPE ", 0) == 0) {
      const auto space = line.find(' ', 7);
      EXPECT_FALSE(out.empty());
      if (!out.empty()) {
        EXPECT_EQ(out.back().name, line.substr(7, space - 7));
        out.back().type = line.substr(space + 1);
      }
    }
  }
  return out;
}

std::string everything() {
  MetricsOptions options;
  options.dcgm_names = true;
  options.now_unix_ms = testing::full_snapshot().taken_unix_ms + 1500;  // a real (not simulated) snapshot: its age
  return render_metrics(testing::full_snapshot(), options);
}

TEST(MetricCatalog, MetricsWritesEveryCataloguedFamilyAndNothingElseInItsOrder) {
  const std::vector<Written> written = families_in(everything());
  const auto catalog = metric_catalog();
  ASSERT_EQ(written.size(), catalog.size()) << "the full snapshot with --dcgm-names writes every family";
  for (std::size_t i = 0; i < written.size(); ++i) {
    const MetricInfo& info = catalog[i];
    EXPECT_EQ(written[i].name, info.name) << "family " << i;
    EXPECT_EQ(written[i].type, info.type == MetricType::counter ? "counter" : "gauge") << info.name;
    EXPECT_EQ(written[i].help, info.help) << info.name;
  }
}

TEST(MetricCatalog, EveryEntryIsComplete) {
  std::set<std::string_view> names;
  for (const auto& info : metric_catalog()) {
    EXPECT_TRUE(names.insert(info.name).second) << info.name << " twice";
    EXPECT_FALSE(info.unit.empty()) << info.name;
    EXPECT_FALSE(info.help.empty()) << info.name;
    EXPECT_FALSE(info.source.empty()) << info.name;
    EXPECT_EQ(info.set == MetricSet::dcgm, info.name.rfind("DCGM_FI_", 0) == 0) << info.name;
    if (info.set != MetricSet::dcgm) {
      EXPECT_EQ(info.name.rfind("gpuvet_", 0), 0u) << info.name;
      // Prometheus naming: counters end in _total, and only counters do.
      const bool total = info.name.size() > 6 && info.name.substr(info.name.size() - 6) == "_total";
      EXPECT_EQ(total, info.type == MetricType::counter) << info.name;
    }
    if (info.set == MetricSet::native) {
      EXPECT_EQ(info.labels.rfind("gpu, uuid, pci_bus_id, model, hostname", 0), 0u) << info.name;
    }
    if (info.set == MetricSet::dcgm) {
      EXPECT_EQ(info.labels, "gpu, UUID, pci_bus_id, device, modelName, Hostname") << info.name;
      // The gpuvet name it mirrors exists.
      const auto tick = info.equivalent.find('`', 1);
      ASSERT_EQ(info.equivalent.front(), '`') << info.name;
      EXPECT_NE(find_metric_info(info.equivalent.substr(1, tick - 1)), nullptr) << info.name;
    }
  }
}

TEST(MetricCatalog, UnknownNameIsAProgrammingError) {
  EXPECT_EQ(find_metric_info("gpuvet_no_such_metric"), nullptr);
  EXPECT_THROW(metric_family("gpuvet_no_such_metric"), std::logic_error);
}

TEST(MetricCatalog, DocsMetricsIsCurrent) {
  std::ifstream in(GPUVET_SOURCE_DIR "/docs/metrics.md");
  ASSERT_TRUE(in) << "docs/metrics.md is missing: gpuvet monitor metrics --markdown > docs/metrics.md";
  std::stringstream doc;
  doc << in.rdbuf();
  EXPECT_EQ(doc.str(), render_metric_catalog_markdown())
      << "docs/metrics.md is stale: regenerate with gpuvet monitor metrics --markdown > docs/metrics.md";
}

}  // namespace
}  // namespace gpuvet::monitor
