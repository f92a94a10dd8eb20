// NVML reads behind each burn-in telemetry field.
#include "backends/nvml/nvml_telemetry_fields.hpp"

#include <fmt/format.h>

namespace gpuvet::nvml {

namespace {

// Reads one field unless probing found it unsupported; while probing, a missing symbol or
// NOT_SUPPORTED marks it unsupported for the rest of the run.
template <class T, class Call>
core::Reading<T> field(TelemetryGpu& g, const std::string& name, Symbol symbol, Call&& call) {
  if (auto it = g.unsupported.find(name); it != g.unsupported.end()) return core::Reading<T>::absent(it->second);
  auto r = g.reader.query<T>(symbol, std::forward<Call>(call));
  if (g.probing && !r.known() && !g.reader.lost() &&
      (r.reason() == kNotSupported || !g.reader.library().has(symbol))) {
    g.unsupported[name] = r.reason();
  }
  return r;
}

// NVML writes 64-bit counters to an unsigned long long, which std::uint64_t need not be (it is
// unsigned long on LP64): wraps `call(unsigned long long*)` as a query callable filling a uint64_t.
template <class Call>
auto u64_out(Call call) {
  return [call](std::uint64_t& v) {
    unsigned long long raw = 0;
    const nvmlReturn_t code = call(&raw);
    v = raw;
    return code;
  };
}

// Field-value ids `ids` (scope 0) in one call; absent per element on failure.
std::vector<core::Reading<std::uint64_t>> field_values(TelemetryGpu& g, const std::vector<std::pair<std::string, unsigned>>& ids) {
  std::vector<core::Reading<std::uint64_t>> out(ids.size());
  std::vector<nvmlFieldValue_t> values;
  std::vector<std::size_t> slots;
  for (std::size_t i = 0; i < ids.size(); ++i) {
    if (auto it = g.unsupported.find(ids[i].first); it != g.unsupported.end()) {
      out[i] = core::Reading<std::uint64_t>::absent(it->second);
      continue;
    }
    nvmlFieldValue_t v{};
    v.fieldId = ids[i].second;
    values.push_back(v);
    slots.push_back(i);
  }
  if (values.empty()) return out;
  const auto call = g.reader.query<int>(Symbol::device_get_field_values, [&](int&) {
    return g.reader.api().device_get_field_values(g.reader.device(), static_cast<int>(values.size()), values.data());
  });
  for (std::size_t k = 0; k < slots.size(); ++k) {
    const std::size_t i = slots[k];
    const auto& v = values[k];
    if (!call.known()) {
      out[i] = core::Reading<std::uint64_t>::absent(call.reason());
    } else if (v.nvmlReturn != kSuccess) {
      out[i] = core::Reading<std::uint64_t>::absent(v.nvmlReturn == kErrorNotSupported ? std::string(kNotSupported)
                                                                                        : g.reader.library().describe(v.nvmlReturn));
    } else if (v.valueType == kValueDouble) {
      out[i] = static_cast<std::uint64_t>(v.value.dVal);
    } else if (v.valueType == kValueUnsignedInt) {
      out[i] = std::uint64_t{v.value.uiVal};
    } else if (v.valueType == kValueSignedInt) {
      out[i] = static_cast<std::uint64_t>(v.value.siVal);
    } else {
      out[i] = static_cast<std::uint64_t>(v.value.ullVal);
    }
    const bool permanent = !call.known() ? !g.reader.library().has(Symbol::device_get_field_values)
                                         : v.nvmlReturn == kErrorNotSupported;
    if (g.probing && !out[i].known() && permanent && !g.reader.lost()) g.unsupported[ids[i].first] = out[i].reason();
  }
  return out;
}

core::Reading<std::vector<core::NvLinkErrorSample>> read_nvlink(TelemetryGpu& g) {
  using Links = core::Reading<std::vector<core::NvLinkErrorSample>>;
  if (auto it = g.unsupported.find("nvlink"); it != g.unsupported.end()) return Links::absent(it->second);
  if (!g.nvlink_reason.empty()) {
    if (g.probing) g.unsupported["nvlink"] = g.nvlink_reason;
    return Links::absent(g.nvlink_reason);
  }
  std::vector<core::NvLinkErrorSample> out;
  if (g.nvlink_fields) {
    std::vector<nvmlFieldValue_t> values;
    for (unsigned link : g.links) {
      for (unsigned id : {kFieldNvLinkErrorDlCrc, kFieldNvLinkErrorDlReplay, kFieldNvLinkErrorDlRecovery}) {
        nvmlFieldValue_t v{};
        v.fieldId = id;
        v.scopeId = link;
        values.push_back(v);
      }
    }
    const auto call = g.reader.query<int>(Symbol::device_get_field_values, [&](int&) {
      return g.reader.api().device_get_field_values(g.reader.device(), static_cast<int>(values.size()), values.data());
    });
    if (!call.known()) {
      // An old driver without nvmlDeviceGetFieldValues: unsupported for the run, not a failed call.
      if (g.probing && !g.reader.lost() && !g.reader.library().has(Symbol::device_get_field_values)) {
        g.unsupported["nvlink"] = call.reason();
      }
      return Links::absent(call.reason());
    }
    const auto value = [&](const nvmlFieldValue_t& v) -> core::Reading<std::uint64_t> {
      if (v.nvmlReturn != kSuccess) return core::Reading<std::uint64_t>::absent(g.reader.library().describe(v.nvmlReturn));
      return static_cast<std::uint64_t>(v.value.ullVal);
    };
    bool any = false;
    for (std::size_t i = 0; i < g.links.size(); ++i) {
      core::NvLinkErrorSample s;
      s.link = static_cast<int>(g.links[i]);
      s.crc_flit = value(values[3 * i]);
      s.crc_data = core::Reading<std::uint64_t>::absent("not reported separately from Hopper on (field 163 counts CRC)");
      s.replay = value(values[3 * i + 1]);
      s.recovery = value(values[3 * i + 2]);
      any = any || s.crc_flit.known() || s.replay.known() || s.recovery.known();
      out.push_back(std::move(s));
    }
    if (!any && g.probing) {
      // Blackwell keeps the field ids but returns NOT_SUPPORTED ([CL] R565).
      g.unsupported["nvlink"] = "NVLink DL error counters not supported on this GPU (NVML dropped them on Blackwell)";
      return Links::absent(g.unsupported["nvlink"]);
    }
    return out;
  }
  for (unsigned link : g.links) {
    core::NvLinkErrorSample s;
    s.link = static_cast<int>(link);
    const auto counter = [&](nvmlNvLinkErrorCounter_t which) {
      return g.reader.query<std::uint64_t>(Symbol::device_get_nvlink_error_counter, u64_out([&](unsigned long long* v) {
        return g.reader.api().device_get_nvlink_error_counter(g.reader.device(), link, which, v);
      }));
    };
    s.crc_flit = counter(kNvLinkErrorDlCrcFlit);
    s.crc_data = counter(kNvLinkErrorDlCrcData);
    s.replay = counter(kNvLinkErrorDlReplay);
    s.recovery = counter(kNvLinkErrorDlRecovery);
    if (g.probing && !s.crc_flit.known() && !s.replay.known() &&
        (s.crc_flit.reason() == kNotSupported || !g.reader.library().has(Symbol::device_get_nvlink_error_counter))) {
      g.unsupported["nvlink"] = s.crc_flit.reason();
      return Links::absent(s.crc_flit.reason());
    }
    out.push_back(std::move(s));
  }
  return out;
}

// Framebuffer use (nvmlDeviceGetMemoryInfo_v2, whose `used` leaves out the driver's reserve; v1 on
// drivers before R510, whose `used` includes it) and the current PCIe link (the maximum is static).
void read_memory_and_pcie(TelemetryGpu& g, core::TelemetrySample& s) {
  const Api& api = g.reader.api();
  nvmlDevice_t d = g.reader.device();
  struct Fb {
    unsigned long long used = 0, total = 0;
  };
  core::Reading<Fb> fb;
  if (g.reader.library().has(Symbol::device_get_memory_info_v2)) {
    fb = field<Fb>(g, "fb_memory", Symbol::device_get_memory_info_v2, [&](Fb& v) {
      nvmlMemory_v2_t m{};
      m.version = kMemoryV2Version;
      const nvmlReturn_t code = api.device_get_memory_info_v2(d, &m);
      v = {m.used, m.total};
      return code;
    });
  } else {
    fb = field<Fb>(g, "fb_memory", Symbol::device_get_memory_info, [&](Fb& v) {
      nvmlMemory_t m{};
      const nvmlReturn_t code = api.device_get_memory_info(d, &m);
      v = {m.used, m.total};
      return code;
    });
  }
  s.fb_used_bytes = map_reading<std::uint64_t>(fb, [](const Fb& v) { return static_cast<std::uint64_t>(v.used); });
  s.fb_total_bytes = map_reading<std::uint64_t>(fb, [](const Fb& v) { return static_cast<std::uint64_t>(v.total); });
  const auto link = [&](const char* name, Symbol symbol, nvmlReturn_t (*getter)(nvmlDevice_t, unsigned int*)) {
    return map_reading<int>(field<unsigned int>(g, name, symbol, [&](unsigned int& v) { return getter(d, &v); }),
                            [](unsigned int v) { return static_cast<int>(v); });
  };
  s.pcie_link_gen = link("pcie_link_gen", Symbol::device_get_curr_pcie_link_generation, api.device_get_curr_pcie_link_generation);
  s.pcie_link_width = link("pcie_link_width", Symbol::device_get_curr_pcie_link_width, api.device_get_curr_pcie_link_width);
  s.pcie_link_gen_max = g.pcie_gen_max;
  s.pcie_link_width_max = g.pcie_width_max;
  if (g.probing) {
    if (!g.pcie_gen_max.known()) g.unsupported["pcie_link_gen_max"] = g.pcie_gen_max.reason();
    if (!g.pcie_width_max.known()) g.unsupported["pcie_link_width_max"] = g.pcie_width_max.reason();
  }
}

}  // namespace

core::BurninGpu burnin_gpu_info(TelemetryGpu& g, const core::Gpu& gpu) {
  core::BurninGpu info;
  info.index = g.reader.index();
  info.name = gpu.name;
  info.uuid = gpu.uuid;
  info.pci_bus_id = gpu.pci_bus_id;
  info.power_limit_w = gpu.power_limit_w;
  info.max_sm_clock_mhz = map_reading<double>(gpu.max_sm_clock_mhz, [](int v) { return static_cast<double>(v); });
  const auto threshold = [&](nvmlTemperatureThresholds_t which) {
    return map_reading<double>(g.reader.query<unsigned int>(Symbol::device_get_temperature_threshold, [&](unsigned int& v) {
      return g.reader.api().device_get_temperature_threshold(g.reader.device(), which, &v);
    }), [](unsigned int v) { return static_cast<double>(v); });
  };
  info.shutdown_temp_c = threshold(kThresholdShutdown);
  info.slowdown_temp_c = threshold(kThresholdSlowdown);
  return info;
}

void init_pcie_max(TelemetryGpu& g, const core::Gpu& gpu) {
  g.pcie_gen_max = gpu.pcie.gen_max;
  g.pcie_width_max = gpu.pcie.width_max;
}

void init_nvlink(TelemetryGpu& g, const core::Gpu& gpu) {
  if (!gpu.nvlinks.known()) {
    g.nvlink_reason = "NVLink ports unknown: " + gpu.nvlinks.reason();
    return;
  }
  for (const auto& port : *gpu.nvlinks) {
    if (port.active.known() && *port.active) g.links.push_back(static_cast<unsigned int>(port.link));
  }
  if (g.links.empty()) g.nvlink_reason = "the GPU has no active NVLink";
  const std::string cc = gpu.compute_capability.value_or("");
  g.nvlink_fields = !cc.empty() && std::atoi(cc.c_str()) >= 9;
}

core::TelemetrySample read_sample(TelemetryGpu& g) {
  core::TelemetrySample s;
  const Api& api = g.reader.api();
  nvmlDevice_t d = g.reader.device();
  const auto uint_field = [&](const char* name, Symbol symbol, auto call, double scale) {
    return map_reading<double>(field<unsigned int>(g, name, symbol, call),
                               [scale](unsigned int v) { return static_cast<double>(v) * scale; });
  };
  s.gpu_temp_c = uint_field("gpu_temp_c", Symbol::device_get_temperature,
                            [&](unsigned int& v) { return api.device_get_temperature(d, kTemperatureGpu, &v); }, 1.0);
  s.sm_clock_mhz = uint_field("sm_clock_mhz", Symbol::device_get_clock_info,
                              [&](unsigned int& v) { return api.device_get_clock_info(d, kClockSm, &v); }, 1.0);
  s.mem_clock_mhz = uint_field("mem_clock_mhz", Symbol::device_get_clock_info,
                               [&](unsigned int& v) { return api.device_get_clock_info(d, kClockMem, &v); }, 1.0);
  s.power_w = uint_field("power_w", Symbol::device_get_power_usage,
                         [&](unsigned int& v) { return api.device_get_power_usage(d, &v); }, 1e-3);
  s.energy_j = map_reading<double>(
      field<std::uint64_t>(g, "energy_j", Symbol::device_get_total_energy_consumption,
                           u64_out([&](unsigned long long* v) { return api.device_get_total_energy_consumption(d, v); })),
      [](std::uint64_t mj) { return static_cast<double>(mj) / 1000.0; });
  const auto util = field<nvmlUtilization_t>(g, "utilization", Symbol::device_get_utilization_rates,
                                             [&](nvmlUtilization_t& v) { return api.device_get_utilization_rates(d, &v); });
  s.util_gpu_pct = map_reading<double>(util, [](const nvmlUtilization_t& u) { return static_cast<double>(u.gpu); });
  s.util_mem_pct = map_reading<double>(util, [](const nvmlUtilization_t& u) { return static_cast<double>(u.memory); });
  s.clocks_event_reasons =
      field<std::uint64_t>(g, "clocks_event_reasons", Symbol::device_get_current_clocks_event_reasons,
                           u64_out([&](unsigned long long* v) { return api.device_get_current_clocks_event_reasons(d, v); }));
  s.pstate = map_reading<int>(field<nvmlPstates_t>(g, "pstate", Symbol::device_get_performance_state,
                                                   [&](nvmlPstates_t& v) { return api.device_get_performance_state(d, &v); }),
                              [](nvmlPstates_t p) { return static_cast<int>(p); });
  const auto ecc = [&](const char* name, nvmlMemoryErrorType_t type) {
    return field<std::uint64_t>(g, name, Symbol::device_get_total_ecc_errors, u64_out([&](unsigned long long* v) {
      return api.device_get_total_ecc_errors(d, type, kEccVolatile, v);
    }));
  };
  s.ecc_corrected = ecc("ecc_corrected", kMemoryErrorCorrected);
  s.ecc_uncorrected = ecc("ecc_uncorrected", kMemoryErrorUncorrected);
  const auto retired = [&](const char* name, nvmlPageRetirementCause_t cause) {
    return map_reading<int>(field<unsigned int>(g, name, Symbol::device_get_retired_pages, [&](unsigned int& n) {
      n = 0;  // size query: no address buffer
      const nvmlReturn_t code = api.device_get_retired_pages(d, cause, &n, nullptr);
      return code == kErrorInsufficientSize ? kSuccess : code;
    }), [](unsigned int n) { return static_cast<int>(n); });
  };
  s.retired_pages_sbe = retired("retired_pages_sbe", kRetireMultipleSingleBit);
  s.retired_pages_dbe = retired("retired_pages_dbe", kRetireDoubleBit);
  s.retired_pages_pending = map_reading<bool>(
      field<nvmlEnableState_t>(g, "retired_pages_pending", Symbol::device_get_retired_pages_pending_status,
                               [&](nvmlEnableState_t& v) { return api.device_get_retired_pages_pending_status(d, &v); }),
      [](nvmlEnableState_t v) { return v == kFeatureEnabled; });
  struct Rows {
    unsigned int corrected, uncorrected, pending, failure;
  };
  const auto rows = field<Rows>(g, "remapped_rows", Symbol::device_get_remapped_rows, [&](Rows& v) {
    return api.device_get_remapped_rows(d, &v.corrected, &v.uncorrected, &v.pending, &v.failure);
  });
  s.remap_pending = map_reading<bool>(rows, [](const Rows& r) { return r.pending != 0; });
  s.remap_failed = map_reading<bool>(rows, [](const Rows& r) { return r.failure != 0; });
  s.remapped_rows_correctable = map_reading<std::uint64_t>(rows, [](const Rows& r) { return std::uint64_t{r.corrected}; });
  s.remapped_rows_uncorrectable = map_reading<std::uint64_t>(rows, [](const Rows& r) { return std::uint64_t{r.uncorrected}; });
  read_memory_and_pcie(g, s);
  const auto fields = field_values(g, {{"mem_temp_c", kFieldMemoryTemp}, {"pcie_replays", kFieldPcieReplayCounter}});
  s.mem_temp_c = map_reading<double>(fields[0], [](std::uint64_t v) { return static_cast<double>(v); });
  s.pcie_replays = fields[1];
  s.nvlink = read_nvlink(g);
  s.tflops = core::Absent{"filled by the stress backend"};
  s.miscompares = core::Absent{"filled by the stress backend"};
  return s;
}

}  // namespace gpuvet::nvml
