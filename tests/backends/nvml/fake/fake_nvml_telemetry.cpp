// Fake NVML live telemetry: temperature, clocks, power, energy, utilization, ECC totals, NVLink
// error counters and the telemetry field values, answered from the simulator's production model
// in wall time since nvmlInit (GPUVET_FAKE_NVML_SPEED scales it), with the hang fault applied.
// The FAKE_NVML_MINIMAL build (an old driver) leaves these entry points out.
#include <cmath>

#include "backends/sim/burnin_model.hpp"
#include "fake_common.hpp"

using namespace gpuvet::fake_nvml;  // NOLINT

namespace gpuvet::fake_nvml {

namespace {

int model_index(const FakeState& state, const FakeDevice& device) {
  const auto& model = state.telemetry.model;
  return model && device.position < model->gpu_count() ? device.position : -1;
}

double model_now_s(const FakeState& state) {
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - state.telemetry.started).count();
  return wall * state.telemetry.speed;
}

}  // namespace

core::TelemetrySample live_sample(FakeState& state, const FakeDevice& device) {
  const int index = model_index(state, device);
  if (index < 0) return {};
  state.telemetry.model->advance_to(model_now_s(state));
  return state.telemetry.model->sample(index);
}

bool model_lost(FakeState& state, const FakeDevice& device) {
  const int index = model_index(state, device);
  if (index < 0) return false;
  state.telemetry.model->advance_to(model_now_s(state));
  return state.telemetry.model->lost(index);
}

double hang_seconds(const FakeState& state, const FakeDevice& device) {
  const FakeTelemetry& live = state.telemetry;
  if (live.hang_gpu != device.position) return 0;
  // The driver is stuck from hang_after_s for hang_s: a call in that window blocks until it ends.
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - live.started).count();
  const double end = live.hang_after_s + live.hang_s;
  return wall >= live.hang_after_s && wall < end ? end - wall : 0;
}

}  // namespace gpuvet::fake_nvml

#ifndef FAKE_NVML_MINIMAL
namespace {

// A model counter as the NVML field value the backend reads (unsigned long long).
template <class T>
void set_ull(const gpuvet::core::Reading<T>& value, nvmlFieldValue_t& v) {
  if (!value.known()) return;
  v.valueType = kValueUnsignedLongLong;
  v.value.ullVal = static_cast<unsigned long long>(value.value());
  v.nvmlReturn = kSuccess;
}

const gpuvet::core::NvLinkErrorSample* link_of(const gpuvet::core::TelemetrySample& s, unsigned int link) {
  if (!s.nvlink.known()) return nullptr;
  for (const auto& l : *s.nvlink) {
    if (l.link == static_cast<int>(link)) return &l;
  }
  return nullptr;
}

}  // namespace

namespace gpuvet::fake_nvml {

void live_field_value(const gpuvet::core::TelemetrySample& s, nvmlFieldValue_t& v) {
  if (v.fieldId == kFieldMemoryTemp) {
    if (s.mem_temp_c.known()) {
      v.valueType = kValueUnsignedInt;
      v.value.uiVal = static_cast<unsigned int>(std::lround(*s.mem_temp_c));
      v.nvmlReturn = kSuccess;
    }
  } else if (v.fieldId == kFieldPcieReplayCounter) {
    set_ull(s.pcie_replays, v);
  } else if (const gpuvet::core::NvLinkErrorSample* l = link_of(s, v.scopeId)) {
    if (v.fieldId == kFieldNvLinkErrorDlCrc) set_ull(l->crc_flit, v);
    if (v.fieldId == kFieldNvLinkErrorDlReplay) set_ull(l->replay, v);
    if (v.fieldId == kFieldNvLinkErrorDlRecovery) set_ull(l->recovery, v);
  }
}

}  // namespace gpuvet::fake_nvml

FAKE_EXPORT nvmlReturn_t nvmlDeviceGetTemperature(nvmlDevice_t h, nvmlTemperatureSensors_t sensor, unsigned int* c) {
  return with_live_device(h, [&](FakeDevice&, const gpuvet::core::TelemetrySample& s) {
    if (sensor != kTemperatureGpu || c == nullptr) return kErrorInvalidArgument;
    return copy_value(s.gpu_temp_c, c);
  });
}

FAKE_EXPORT nvmlReturn_t nvmlDeviceGetTemperatureThreshold(nvmlDevice_t h, nvmlTemperatureThresholds_t which,
                                                            unsigned int* c) {
  return with_device(h, false, [&](FakeDevice& d) {
    const int index = d.position;
    const auto& model = globals().state.telemetry.model;
    if (!model || index >= model->gpu_count()) return kErrorNotSupported;
    const gpuvet::core::BurninGpu info = model->gpu_info(index);
    if (which == kThresholdShutdown) return copy_value(info.shutdown_temp_c, c);
    if (which == kThresholdSlowdown) return copy_value(info.slowdown_temp_c, c);
    return kErrorNotSupported;
  });
}

FAKE_EXPORT nvmlReturn_t nvmlDeviceGetClockInfo(nvmlDevice_t h, nvmlClockType_t type, unsigned int* mhz) {
  return with_live_device(h, [&](FakeDevice&, const gpuvet::core::TelemetrySample& s) {
    if (type == kClockSm) return copy_value(s.sm_clock_mhz, mhz);
    if (type == kClockMem) return copy_value(s.mem_clock_mhz, mhz);
    return kErrorNotSupported;
  });
}

FAKE_EXPORT nvmlReturn_t nvmlDeviceGetPowerUsage(nvmlDevice_t h, unsigned int* mw) {
  return with_live_device(h, [&](FakeDevice&, const gpuvet::core::TelemetrySample& s) {
    if (!s.power_w.known()) return kErrorNotSupported;
    if (mw == nullptr) return kErrorInvalidArgument;
    *mw = static_cast<unsigned int>(std::lround(*s.power_w * 1000.0));
    return kSuccess;
  });
}

FAKE_EXPORT nvmlReturn_t nvmlDeviceGetTotalEnergyConsumption(nvmlDevice_t h, unsigned long long* mj) {
  return with_live_device(h, [&](FakeDevice&, const gpuvet::core::TelemetrySample& s) {
    if (!s.energy_j.known()) return kErrorNotSupported;
    if (mj == nullptr) return kErrorInvalidArgument;
    *mj = static_cast<unsigned long long>(std::llround(*s.energy_j * 1000.0));
    return kSuccess;
  });
}

FAKE_EXPORT nvmlReturn_t nvmlDeviceGetUtilizationRates(nvmlDevice_t h, nvmlUtilization_t* u) {
  return with_live_device(h, [&](FakeDevice&, const gpuvet::core::TelemetrySample& s) {
    if (!s.util_gpu_pct.known() || !s.util_mem_pct.known()) return kErrorNotSupported;
    if (u == nullptr) return kErrorInvalidArgument;
    u->gpu = static_cast<unsigned int>(std::lround(*s.util_gpu_pct));
    u->memory = static_cast<unsigned int>(std::lround(*s.util_mem_pct));
    return kSuccess;
  });
}

FAKE_EXPORT nvmlReturn_t nvmlDeviceGetTotalEccErrors(nvmlDevice_t h, nvmlMemoryErrorType_t type,
                                                     nvmlEccCounterType_t counter, unsigned long long* count) {
  return with_live_device(h, [&](FakeDevice& d, const gpuvet::core::TelemetrySample& s) {
    if (!d.gpu->ecc_enabled.value_or(false)) return kErrorNotSupported;
    if (counter != kEccVolatile) return kErrorNotSupported;  // the model keeps volatile counts only
    if (type == kMemoryErrorCorrected) return copy_value(s.ecc_corrected, count);
    if (type == kMemoryErrorUncorrected) return copy_value(s.ecc_uncorrected, count);
    return kErrorInvalidArgument;
  });
}

FAKE_EXPORT nvmlReturn_t nvmlDeviceGetNvLinkErrorCounter(nvmlDevice_t h, unsigned int link,
                                                         nvmlNvLinkErrorCounter_t which, unsigned long long* value) {
  return with_live_device(h, [&](FakeDevice& d, const gpuvet::core::TelemetrySample& s) {
    const FakePort* port = nullptr;
    if (nvmlReturn_t code = port_of(d, link, port); code != kSuccess) return code;
    const gpuvet::core::NvLinkErrorSample* l = link_of(s, link);
    if (l == nullptr) return kErrorNotSupported;
    if (which == kNvLinkErrorDlCrcFlit) return copy_value(l->crc_flit, value);
    if (which == kNvLinkErrorDlCrcData) return copy_value(l->crc_data, value);
    if (which == kNvLinkErrorDlReplay) return copy_value(l->replay, value);
    if (which == kNvLinkErrorDlRecovery) return copy_value(l->recovery, value);
    return kErrorInvalidArgument;
  });
}
#endif
