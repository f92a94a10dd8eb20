// The /metrics serializer: names, units, labels, escaping, absent readings, alerts, the daemon's
// cost and the dcgm-exporter names; and the text format's structure (HELP/TYPE once per family,
// before its samples, families contiguous, every series unique).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "metrics_test_snapshot.hpp"
#include "monitor/metrics_exposition.hpp"
#include "monitor/metrics_text_writer.hpp"

namespace gpuvet::monitor {
namespace {

using testing::full_snapshot;

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

bool has_line(const std::string& text, const std::string& line) {
  for (const auto& l : lines_of(text)) {
    if (l == line) return true;
  }
  return false;
}

bool mentions(const std::string& text, const std::string& needle) { return text.find(needle) != std::string::npos; }

// Series name: what precedes '{' or ' '.
std::string name_of(const std::string& sample) { return sample.substr(0, sample.find_first_of("{ ")); }

TEST(MetricsTextWriter, EscapesLabelValuesAndHelp) {
  EXPECT_EQ(escape_label_value("a\"b\\c\nd"), "a\\\"b\\\\c\\nd");
  EXPECT_EQ(escape_help("x\\y\nz \"q\""), "x\\\\y\\nz \"q\"");
}

TEST(MetricsTextWriter, FormatsValuesAsPrometheusReadsThem) {
  EXPECT_EQ(format_sample_value(std::numeric_limits<double>::quiet_NaN()), "NaN");
  EXPECT_EQ(format_sample_value(std::numeric_limits<double>::infinity()), "+Inf");
  EXPECT_EQ(format_sample_value(-std::numeric_limits<double>::infinity()), "-Inf");
  EXPECT_EQ(format_sample_value(0.97), "0.97");
  EXPECT_EQ(std::stod(format_sample_value(1.98e9)), 1.98e9);
  EXPECT_EQ(std::stod(format_sample_value(1e-7)), 1e-7);
  MetricFamily counter("x_total", MetricType::counter, "h");
  counter.add({}, std::uint64_t{18'446'744'073'709'551'615ULL});
  std::string out;
  counter.write_to(out);
  EXPECT_EQ(out, "# HELP x_total h\n# TYPE x_total counter\nx_total 18446744073709551615\n");
}

TEST(MetricsTextWriter, EmptyFamilyWritesNothing) {
  MetricFamily family("gpuvet_nothing", MetricType::gauge, "never sampled");
  std::string out;
  family.write_to(out);
  EXPECT_TRUE(out.empty());
}

TEST(MetricsExposition, NativeNamesInBaseUnitsWithGpuLabels) {
  const std::string text = render_metrics(full_snapshot(), {});
  const std::string gpu0 =
      "{gpu=\"0\",uuid=\"GPU-00000000-aaaa-bbbb-cccc-dddddddddddd\",pci_bus_id=\"00000000:10:00.0\","
      "model=\"NVIDIA H100 80GB HBM3\",hostname=\"node-a\"}";
  EXPECT_TRUE(has_line(text, "gpuvet_gpu_temperature_celsius" + gpu0 + " 60")) << text;
  EXPECT_TRUE(has_line(text, "gpuvet_memory_temperature_celsius" + gpu0 + " 70"));
  EXPECT_TRUE(has_line(text, "gpuvet_power_usage_watts" + gpu0 + " 650.5"));
  EXPECT_TRUE(has_line(text, "gpuvet_gpu_utilization_ratio" + gpu0 + " 0.97"));
  EXPECT_TRUE(has_line(text, "gpuvet_memory_utilization_ratio" + gpu0 + " 0.4"));
  EXPECT_TRUE(has_line(text, "gpuvet_energy_consumption_joules_total" + gpu0 + " 123456.789"));
  EXPECT_TRUE(has_line(text, "gpuvet_ecc_corrected_errors_total" + gpu0 + " 3"));
  EXPECT_TRUE(has_line(text, "gpuvet_power_limit_watts" + gpu0 + " 700"));
  for (const auto& line : lines_of(text)) {
    if (line.rfind("gpuvet_sm_clock_hertz{gpu=\"0\"", 0) == 0) {
      EXPECT_DOUBLE_EQ(std::stod(line.substr(line.rfind(' ') + 1)), 1.98e9);  // 1980 MHz in hertz
    }
  }
  EXPECT_TRUE(mentions(text, "# TYPE gpuvet_energy_consumption_joules_total counter\n"));
  EXPECT_TRUE(mentions(text, "# TYPE gpuvet_gpu_utilization_ratio gauge\n"));
  // Clocks-event reasons: one 0/1 series per reason NVML names.
  EXPECT_TRUE(mentions(text, "gpuvet_clocks_event_reason_active{gpu=\"0\","));
  EXPECT_TRUE(mentions(text, "reason=\"sw_power_cap\"} 1\n"));
  EXPECT_TRUE(mentions(text, "reason=\"hw_slowdown\"} 0\n"));
  // NVLink counters per link.
  EXPECT_TRUE(mentions(text, "gpuvet_nvlink_crc_flit_errors_total{gpu=\"1\","));
  EXPECT_TRUE(mentions(text, "hostname=\"node-a\",link=\"1\"} 41\n"));
}

TEST(MetricsExposition, AbsentReadingsAreLeftOutNeverZero) {
  const std::string text = render_metrics(full_snapshot(), {});
  // GPU 7: no memory temperature, energy or NVLink counters.
  EXPECT_FALSE(mentions(text, "gpuvet_memory_temperature_celsius{gpu=\"7\""));
  EXPECT_FALSE(mentions(text, "gpuvet_energy_consumption_joules_total{gpu=\"7\""));
  EXPECT_FALSE(mentions(text, "gpuvet_nvlink_replay_errors_total{gpu=\"7\""));
  EXPECT_TRUE(mentions(text, "gpuvet_gpu_temperature_celsius{gpu=\"7\""));
  // GPU 5 is lost: flagged, its stale readings are not served.
  EXPECT_TRUE(mentions(text, "gpuvet_gpu_lost{gpu=\"5\","));
  EXPECT_FALSE(mentions(text, "gpuvet_gpu_temperature_celsius{gpu=\"5\""));
  EXPECT_FALSE(mentions(text, "gpuvet_gpu_utilization_ratio{gpu=\"5\""));
  // GPU 6 has no sample yet: identity only.
  EXPECT_FALSE(mentions(text, "gpuvet_gpu_temperature_celsius{gpu=\"6\""));
  EXPECT_TRUE(mentions(text, "gpuvet_gpu_lost{gpu=\"6\","));

  // A reading no GPU has: not even the family's HELP/TYPE lines.
  MonitorSnapshot snapshot = full_snapshot();
  for (auto& g : snapshot.gpus) g.latest.mem_temp_c = core::Reading<double>::absent("not supported");
  EXPECT_FALSE(mentions(render_metrics(snapshot, {}), "gpuvet_memory_temperature_celsius"));
}

TEST(MetricsExposition, LostFlagAndIdentityLabelsWhenUnknown) {
  MonitorSnapshot snapshot = full_snapshot();
  snapshot.gpus[0].gpu.uuid = core::Reading<std::string>::absent("not read");
  const std::string text = render_metrics(snapshot, {});
  const std::string expected =
      "gpuvet_gpu_lost{gpu=\"0\",pci_bus_id=\"00000000:10:00.0\",model=\"NVIDIA H100 80GB HBM3\",hostname=\"node-a\"} 0";
  EXPECT_TRUE(has_line(text, expected)) << text;
  EXPECT_TRUE(mentions(text, "gpuvet_gpu_lost{gpu=\"5\",uuid=\"GPU-00000005-aaaa-bbbb-cccc-dddddddddddd\","));
}

TEST(MetricsExposition, LabelValuesAreEscaped) {
  MonitorSnapshot snapshot = full_snapshot();
  snapshot.hostname = "rack \"7\"\\node\nb";
  snapshot.gpus[0].gpu.name = std::string("H100 \"SXM\"");
  const std::string text = render_metrics(snapshot, {});
  EXPECT_TRUE(mentions(text, "model=\"H100 \\\"SXM\\\"\",hostname=\"rack \\\"7\\\"\\\\node\\nb\"}"));
  for (const auto& line : lines_of(text)) {
    EXPECT_FALSE(line.empty()) << "a raw newline split a sample";
  }
}

TEST(MetricsExposition, AlertsAsSeriesPerGpuOnceEach) {
  MonitorSnapshot snapshot = full_snapshot();
  snapshot.alerts.push_back(snapshot.alerts[1]);  // the same code, GPUs and severity again (another link)
  MonitorAlert machine;
  machine.code = "gpu_missing";
  machine.severity = core::Severity::fail;
  snapshot.alerts.push_back(machine);
  const std::string text = render_metrics(snapshot, {});
  EXPECT_TRUE(has_line(text, "gpuvet_alert{code=\"utilization_below_peers\",gpu=\"3\",severity=\"warn\"} 1"));
  EXPECT_TRUE(has_line(text, "gpuvet_alert{code=\"nvlink_errors_growing\",gpu=\"1\",severity=\"fail\"} 1"));
  EXPECT_TRUE(has_line(text, "gpuvet_alert{code=\"nvlink_errors_growing\",gpu=\"2\",severity=\"fail\"} 1"));
  EXPECT_TRUE(has_line(text, "gpuvet_alert{code=\"gpu_missing\",severity=\"fail\"} 1"));
  std::size_t count = 0;
  for (const auto& line : lines_of(text)) count += line.rfind("gpuvet_alert{", 0) == 0 ? 1 : 0;
  EXPECT_EQ(count, 4u);

  snapshot.alerts.clear();
  EXPECT_FALSE(mentions(render_metrics(snapshot, {}), "gpuvet_alert"));
}

TEST(MetricsExposition, XidCountAndLastXidWithNvidiasAction) {
  const std::string text = render_metrics(full_snapshot(), {});
  EXPECT_TRUE(mentions(text, "gpuvet_xid_events_total{gpu=\"4\","));
  EXPECT_TRUE(mentions(text, "hostname=\"node-a\",xid=\"79\",action=\"reboot\",severity=\"fail\"} 1\n"));
  EXPECT_FALSE(mentions(text, "gpuvet_last_xid_info{gpu=\"0\""));
}

TEST(MetricsExposition, DaemonCostAndHealth) {
  MonitorSnapshot snapshot = full_snapshot();
  const std::string text = render_metrics(snapshot, {false, snapshot.taken_unix_ms + 2500});
  EXPECT_TRUE(has_line(text, "gpuvet_monitor_ticks_total 3600"));
  EXPECT_TRUE(has_line(text, "gpuvet_monitor_samples_total 28800"));
  EXPECT_TRUE(has_line(text, "gpuvet_monitor_samples_dropped_total 1"));
  EXPECT_TRUE(has_line(text, "gpuvet_monitor_source_errors_total 2"));
  EXPECT_TRUE(has_line(text, "gpuvet_monitor_store_errors_total 0"));
  EXPECT_TRUE(has_line(text, "gpuvet_monitor_tick_duration_seconds 0.0012"));
  EXPECT_TRUE(has_line(text, "gpuvet_monitor_healthy 1"));
  EXPECT_TRUE(has_line(text, "gpuvet_monitor_snapshot_age_seconds 2.5"));
  EXPECT_TRUE(has_line(text, "gpuvet_monitor_info{source=\"simulated: hgx-h100-8x\",simulated=\"false\",hostname=\"node-a\"} 1"));

  snapshot.simulated = true;  // virtual time: an age against the wall clock would be nonsense
  EXPECT_FALSE(mentions(render_metrics(snapshot, {false, snapshot.taken_unix_ms + 2500}), "snapshot_age"));
  snapshot.simulated = false;
  EXPECT_FALSE(mentions(render_metrics(snapshot, {}), "snapshot_age"));
  snapshot.healthy = false;
  EXPECT_TRUE(has_line(render_metrics(snapshot, {}), "gpuvet_monitor_healthy 0"));
}

TEST(MetricsExposition, DcgmNamesOnlyWhenAskedWithDcgmExporterLabels) {
  const MonitorSnapshot snapshot = full_snapshot();
  EXPECT_FALSE(mentions(render_metrics(snapshot, {}), "DCGM_FI_"));
  const std::string text = render_metrics(snapshot, {true, 0});
  const std::string gpu0 =
      "{gpu=\"0\",UUID=\"GPU-00000000-aaaa-bbbb-cccc-dddddddddddd\",pci_bus_id=\"00000000:10:00.0\","
      "device=\"nvidia0\",modelName=\"NVIDIA H100 80GB HBM3\",Hostname=\"node-a\"}";
  EXPECT_TRUE(has_line(text, "DCGM_FI_DEV_GPU_TEMP" + gpu0 + " 60")) << text;
  EXPECT_TRUE(has_line(text, "DCGM_FI_DEV_MEMORY_TEMP" + gpu0 + " 70"));
  EXPECT_TRUE(has_line(text, "DCGM_FI_DEV_SM_CLOCK" + gpu0 + " 1980"));
  EXPECT_TRUE(has_line(text, "DCGM_FI_DEV_MEM_CLOCK" + gpu0 + " 2619"));
  EXPECT_TRUE(has_line(text, "DCGM_FI_DEV_POWER_USAGE" + gpu0 + " 650.5"));
  EXPECT_TRUE(has_line(text, "DCGM_FI_DEV_GPU_UTIL" + gpu0 + " 97"));
  EXPECT_TRUE(has_line(text, "DCGM_FI_DEV_MEM_COPY_UTIL" + gpu0 + " 40"));
  EXPECT_TRUE(has_line(text, "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION" + gpu0 + " 123456789"));  // mJ
  EXPECT_TRUE(has_line(text, "DCGM_FI_DEV_XID_ERRORS" + gpu0 + " 0"));
  EXPECT_TRUE(has_line(text, "DCGM_FI_DEV_CLOCK_THROTTLE_REASONS" + gpu0 + " 4"));
  EXPECT_TRUE(has_line(text, "DCGM_FI_DEV_ECC_SBE_VOL_TOTAL" + gpu0 + " 3"));
  EXPECT_TRUE(has_line(text, "DCGM_FI_DEV_ROW_REMAP_PENDING" + gpu0 + " 0"));
  EXPECT_TRUE(has_line(text, "DCGM_FI_DEV_PCIE_REPLAY_COUNTER" + gpu0 + " 0"));
  EXPECT_TRUE(mentions(text, "# TYPE DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION counter\n"));
  EXPECT_TRUE(mentions(text, "# TYPE DCGM_FI_DEV_XID_ERRORS gauge\n"));
  // NVLink totals: the sum over the GPU's links (40 + 41 on GPU 1), none where unknown.
  EXPECT_TRUE(mentions(text, "DCGM_FI_DEV_NVLINK_CRC_FLIT_ERROR_COUNT_TOTAL{gpu=\"1\","));
  EXPECT_TRUE(mentions(text, "device=\"nvidia1\",modelName=\"NVIDIA H100 80GB HBM3\",Hostname=\"node-a\"} 81\n"));
  EXPECT_TRUE(mentions(text, "DCGM_FI_DEV_NVLINK_REPLAY_ERROR_COUNT_TOTAL{gpu=\"2\","));
  EXPECT_FALSE(mentions(text, "DCGM_FI_DEV_NVLINK_REPLAY_ERROR_COUNT_TOTAL{gpu=\"7\""));
  EXPECT_FALSE(mentions(text, "DCGM_FI_DEV_GPU_TEMP{gpu=\"5\""));  // lost
  EXPECT_TRUE(mentions(text, "DCGM_FI_DEV_XID_ERRORS{gpu=\"4\","));
  // The native families are still there.
  EXPECT_TRUE(mentions(text, "gpuvet_gpu_temperature_celsius{gpu=\"0\""));
}

TEST(MetricsExposition, OneHelpAndTypePerFamilyBeforeItsSamplesAndUniqueSeries) {
  MonitorSnapshot snapshot = full_snapshot();
  const std::string text = render_metrics(snapshot, {true, snapshot.taken_unix_ms + 1000});
  ASSERT_FALSE(text.empty());
  EXPECT_EQ(text.back(), '\n');
  std::set<std::string> finished;  // families whose samples ended
  std::map<std::string, int> help_count;
  std::set<std::string> series;
  std::string current;
  for (const auto& line : lines_of(text)) {
    if (line.rfind("# HELP ", 0) == 0) {
      const std::string name = line.substr(7, line.find(' ', 7) - 7);
      EXPECT_EQ(++help_count[name], 1) << name;
      EXPECT_EQ(finished.count(name), 0u) << name << " appears in two places";
      if (!current.empty()) finished.insert(current);
      current = name;
      continue;
    }
    if (line.rfind("# TYPE ", 0) == 0) {
      EXPECT_EQ(line.substr(7, current.size()), current);
      continue;
    }
    EXPECT_EQ(name_of(line), current) << line;
    EXPECT_TRUE(series.insert(line.substr(0, line.rfind(' '))).second) << "duplicate series " << line;
  }
}

}  // namespace
TEST(MetricsExposition, DcgmBusIdsInNvmlsFormAsDcgmExporterWritesThem) {
  MonitorSnapshot snapshot = full_snapshot();
  snapshot.gpus[0].gpu.pci_bus_id = std::string("0000:5d:00.0");  // gpuvet's own (sysfs) form
  const std::string text = render_metrics(snapshot, {true, 0});
  EXPECT_TRUE(mentions(text, "DCGM_FI_DEV_GPU_TEMP{gpu=\"0\",UUID=\"GPU-00000000-aaaa-bbbb-cccc-dddddddddddd\","
                             "pci_bus_id=\"00000000:5D:00.0\",device=\"nvidia0\","))
      << text.substr(0, 2000);
  EXPECT_TRUE(mentions(render_metrics(snapshot, {}), "pci_bus_id=\"0000:5d:00.0\""));  // native names keep gpuvet's form
}

}  // namespace gpuvet::monitor
