// The dcgm-exporter names (`--dcgm-names`): the DCGM field name verbatim as the metric name, its
// unit (MHz, °C, W, mJ, percent) and type as NVIDIA/dcgm-exporter's etc/default-counters.csv
// declares them, and its labels in its order (internal/pkg/rendermetrics/render_metrics.go:
// gpu, UUID, pci_bus_id, device, modelName, Hostname), so NVIDIA's Grafana dashboard 12239
// reads gpuvet unchanged. These names break Prometheus' lint rules on purpose (camelCase labels,
// counters without `_total`); the gpuvet_* families beside them follow the rules.
#include <cctype>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string_view>

#include "monitor/metric_catalog.hpp"
#include "monitor/metrics_exposition.hpp"

namespace gpuvet::monitor {
namespace {

// DCGM writes bus ids in NVML's form (NVML_DEVICE_PCI_BUS_ID_FMT "%08X:%02X:%02X.0": 8-digit
// domain, upper-case hex), as dcgm-exporter's pci_bus_id label shows ("00000000:08:00.0"); gpuvet
// keeps them as "0000:08:00.0". Anything that does not parse that way is passed on unchanged.
std::string dcgm_bus_id(std::string_view bus_id) {
  const auto colon = bus_id.find(':');
  if (colon == std::string_view::npos || colon == 0 || colon > 8) return std::string(bus_id);
  std::string out(8 - colon, '0');
  out.append(bus_id);
  for (auto& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

MetricLabels dcgm_labels(const GpuNow& now, const std::string& hostname) {
  MetricLabels labels{{"gpu", std::to_string(now.gpu.index)}};
  if (now.gpu.uuid) labels.push_back({"UUID", *now.gpu.uuid});
  if (now.gpu.pci_bus_id) labels.push_back({"pci_bus_id", dcgm_bus_id(*now.gpu.pci_bus_id)});
  labels.push_back({"device", "nvidia" + std::to_string(now.gpu.index)});
  if (now.gpu.name) labels.push_back({"modelName", *now.gpu.name});
  if (!hostname.empty()) labels.push_back({"Hostname", hostname});
  return labels;
}

template <class T>
void add_value(MetricFamily& family, const MetricLabels& labels, const core::Reading<T>& reading) {
  if (reading) family.add(labels, static_cast<double>(*reading));
}

void add_count(MetricFamily& family, const MetricLabels& labels, const core::Reading<std::uint64_t>& reading) {
  if (reading) family.add(labels, *reading);
}

// dcgm-exporter's *_COUNT_TOTAL NVLink fields are the sum over the GPU's links; unknown when
// any link's counter is unknown (a partial sum would read as a drop).
std::optional<std::uint64_t> sum_links(const std::vector<core::NvLinkErrorSample>& links,
                                       core::Reading<std::uint64_t> core::NvLinkErrorSample::*field) {
  std::uint64_t total = 0;
  for (const auto& link : links) {
    const auto& reading = link.*field;
    if (!reading) return std::nullopt;
    total += *reading;
  }
  return total;
}

}  // namespace

void append_dcgm_gpu_metrics(const MonitorSnapshot& snapshot, std::string& out) {
  MetricFamily sm_clock = metric_family("DCGM_FI_DEV_SM_CLOCK");
  MetricFamily mem_clock = metric_family("DCGM_FI_DEV_MEM_CLOCK");
  MetricFamily mem_temp = metric_family("DCGM_FI_DEV_MEMORY_TEMP");
  MetricFamily temp = metric_family("DCGM_FI_DEV_GPU_TEMP");
  MetricFamily power = metric_family("DCGM_FI_DEV_POWER_USAGE");
  MetricFamily energy = metric_family("DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION");
  MetricFamily pcie_replay = metric_family("DCGM_FI_DEV_PCIE_REPLAY_COUNTER");
  MetricFamily util = metric_family("DCGM_FI_DEV_GPU_UTIL");
  MetricFamily mem_util = metric_family("DCGM_FI_DEV_MEM_COPY_UTIL");
  MetricFamily xid = metric_family("DCGM_FI_DEV_XID_ERRORS");
  MetricFamily throttle = metric_family("DCGM_FI_DEV_CLOCK_THROTTLE_REASONS");
  MetricFamily sbe = metric_family("DCGM_FI_DEV_ECC_SBE_VOL_TOTAL");
  MetricFamily dbe = metric_family("DCGM_FI_DEV_ECC_DBE_VOL_TOTAL");
  MetricFamily retired_sbe = metric_family("DCGM_FI_DEV_RETIRED_SBE");
  MetricFamily retired_dbe = metric_family("DCGM_FI_DEV_RETIRED_DBE");
  MetricFamily remap_pending = metric_family("DCGM_FI_DEV_ROW_REMAP_PENDING");
  MetricFamily crc_flit = metric_family("DCGM_FI_DEV_NVLINK_CRC_FLIT_ERROR_COUNT_TOTAL");
  MetricFamily crc_data = metric_family("DCGM_FI_DEV_NVLINK_CRC_DATA_ERROR_COUNT_TOTAL");
  MetricFamily replay = metric_family("DCGM_FI_DEV_NVLINK_REPLAY_ERROR_COUNT_TOTAL");
  MetricFamily recovery = metric_family("DCGM_FI_DEV_NVLINK_RECOVERY_ERROR_COUNT_TOTAL");
  MetricFamily fb_used = metric_family("DCGM_FI_DEV_FB_USED");
  MetricFamily link_gen = metric_family("DCGM_FI_DEV_PCIE_LINK_GEN");
  MetricFamily link_width = metric_family("DCGM_FI_DEV_PCIE_LINK_WIDTH");
  MetricFamily remapped_cor = metric_family("DCGM_FI_DEV_CORRECTABLE_REMAPPED_ROWS");
  MetricFamily remapped_unc = metric_family("DCGM_FI_DEV_UNCORRECTABLE_REMAPPED_ROWS");
  MetricFamily remap_failure = metric_family("DCGM_FI_DEV_ROW_REMAP_FAILURE");

  for (const auto& now : snapshot.gpus) {
    const MetricLabels labels = dcgm_labels(now, snapshot.hostname);
    if (now.xid_watched) xid.add(labels, static_cast<double>(now.last_xid));  // unwatched: absent, not 0
    if (now.lost || !now.has_sample) continue;
    const core::TelemetrySample& s = now.latest;
    add_value(sm_clock, labels, s.sm_clock_mhz);
    add_value(mem_clock, labels, s.mem_clock_mhz);
    add_value(mem_temp, labels, s.mem_temp_c);
    add_value(temp, labels, s.gpu_temp_c);
    add_value(power, labels, s.power_w);
    if (s.energy_j) energy.add(labels, static_cast<std::uint64_t>(std::llround(*s.energy_j * 1000.0)));
    add_count(pcie_replay, labels, s.pcie_replays);
    add_value(util, labels, s.util_gpu_pct);
    add_value(mem_util, labels, s.util_mem_pct);
    add_value(throttle, labels, s.clocks_event_reasons);
    add_count(sbe, labels, s.ecc_corrected);
    add_count(dbe, labels, s.ecc_uncorrected);
    add_value(retired_sbe, labels, s.retired_pages_sbe);
    add_value(retired_dbe, labels, s.retired_pages_dbe);
    if (s.remap_pending) remap_pending.add(labels, *s.remap_pending ? 1.0 : 0.0);
    if (s.nvlink && !s.nvlink->empty()) {
      using L = core::NvLinkErrorSample;
      if (auto v = sum_links(*s.nvlink, &L::crc_flit)) crc_flit.add(labels, *v);
      if (auto v = sum_links(*s.nvlink, &L::crc_data)) crc_data.add(labels, *v);
      if (auto v = sum_links(*s.nvlink, &L::replay)) replay.add(labels, *v);
      if (auto v = sum_links(*s.nvlink, &L::recovery)) recovery.add(labels, *v);
    }
    // MiB as dcgm-exporter reports it (DCGM_FI_DEV_FB_FREE is left out: it needs the driver's
    // reserve, which gpuvet does not keep).
    if (s.fb_used_bytes) fb_used.add(labels, static_cast<double>(*s.fb_used_bytes) / (1024.0 * 1024.0));
    add_value(link_gen, labels, s.pcie_link_gen);
    add_value(link_width, labels, s.pcie_link_width);
    add_count(remapped_cor, labels, s.remapped_rows_correctable);
    add_count(remapped_unc, labels, s.remapped_rows_uncorrectable);
    if (s.remap_failed) remap_failure.add(labels, *s.remap_failed ? 1.0 : 0.0);
  }

  for (const MetricFamily* family :
       {&sm_clock, &mem_clock, &mem_temp, &temp, &power, &energy, &pcie_replay, &util, &mem_util, &xid, &throttle,
        &sbe, &dbe, &retired_sbe, &retired_dbe, &remap_pending, &crc_flit, &crc_data, &replay, &recovery, &fb_used,
        &link_gen, &link_width, &remapped_cor, &remapped_unc, &remap_failure}) {
    family->write_to(out);
  }
}

}  // namespace gpuvet::monitor
