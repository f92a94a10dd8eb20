// Fake NVML Xid events: event sets that deliver the Xid events of the simulator's production model
// (xid faults at their time) to the devices registered for them. nvmlEventSetWait polls the model
// in short slices without holding the fake's lock across the wait. Left out of FAKE_NVML_MINIMAL.
#include <algorithm>

#include "backends/sim/burnin_model.hpp"
#include "fake_common.hpp"

using namespace gpuvet::fake_nvml;  // NOLINT

#ifndef FAKE_NVML_MINIMAL
namespace {

FakeEventSet* find_set(nvmlEventSet_t handle) {
  for (auto& set : globals().state.telemetry.event_sets) {
    if (reinterpret_cast<nvmlEventSet_t>(set.get()) == handle) return set.get();
  }
  return nullptr;
}

// Moves the model's new Xid events to the delivery queue. Under the lock.
void collect_xids(FakeState& state) {
  FakeTelemetry& live = state.telemetry;
  if (!live.model || state.devices.empty()) return;
  (void)live_sample(state, state.devices.front());  // advances the model to now
  for (const auto& e : live.model->drain_events()) {
    if (e.kind == gpuvet::core::TelemetryEventKind::xid) live.xids.emplace_back(e.gpu, e.code);
  }
}

}  // namespace

FAKE_EXPORT nvmlReturn_t nvmlDeviceGetSupportedEventTypes(nvmlDevice_t h, unsigned long long* types) {
  return with_device(h, false, [&](FakeDevice&) {
    if (types == nullptr) return kErrorInvalidArgument;
    *types = kEventTypeXidCriticalError;
    return kSuccess;
  });
}

FAKE_EXPORT nvmlReturn_t nvmlEventSetCreate(nvmlEventSet_t* set) {
  std::lock_guard<std::mutex> lock(globals().mutex);
  if (globals().refcount == 0) return kErrorUninitialized;
  if (set == nullptr) return kErrorInvalidArgument;
  auto& sets = globals().state.telemetry.event_sets;
  sets.push_back(std::make_unique<FakeEventSet>());
  *set = reinterpret_cast<nvmlEventSet_t>(sets.back().get());
  return kSuccess;
}

FAKE_EXPORT nvmlReturn_t nvmlDeviceRegisterEvents(nvmlDevice_t h, unsigned long long types, nvmlEventSet_t set) {
  return with_device(h, false, [&](FakeDevice& d) {
    FakeEventSet* s = find_set(set);
    if (s == nullptr) return kErrorInvalidArgument;
    if ((types & ~kEventTypeXidCriticalError) != 0) return kErrorNotSupported;
    if (std::find(s->xid_devices.begin(), s->xid_devices.end(), &d) == s->xid_devices.end()) s->xid_devices.push_back(&d);
    return kSuccess;
  });
}

FAKE_EXPORT nvmlReturn_t nvmlEventSetWait_v2(nvmlEventSet_t set, nvmlEventData_t* data, unsigned int timeout_ms) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  for (;;) {
    {
      std::lock_guard<std::mutex> lock(globals().mutex);
      if (globals().refcount == 0) return kErrorUninitialized;
      FakeEventSet* s = find_set(set);
      if (s == nullptr || data == nullptr) return kErrorInvalidArgument;
      FakeState& state = globals().state;
      collect_xids(state);
      auto& queue = state.telemetry.xids;
      for (auto it = queue.begin(); it != queue.end(); ++it) {
        for (const FakeDevice* d : s->xid_devices) {
          if (d->position != it->first) continue;
          *data = nvmlEventData_t{};
          data->device = reinterpret_cast<nvmlDevice_t>(const_cast<FakeDevice*>(d));
          data->eventType = kEventTypeXidCriticalError;
          data->eventData = static_cast<unsigned long long>(it->second);
          queue.erase(it);
          return kSuccess;
        }
      }
    }
    if (std::chrono::steady_clock::now() >= deadline) return kErrorTimeout;
    std::this_thread::sleep_for(std::min<std::chrono::steady_clock::duration>(
        std::chrono::milliseconds(20), deadline - std::chrono::steady_clock::now()));
  }
}

FAKE_EXPORT nvmlReturn_t nvmlEventSetFree(nvmlEventSet_t set) {
  std::lock_guard<std::mutex> lock(globals().mutex);
  auto& sets = globals().state.telemetry.event_sets;
  const auto it = std::find_if(sets.begin(), sets.end(),
                               [&](const auto& s) { return reinterpret_cast<nvmlEventSet_t>(s.get()) == set; });
  if (it == sets.end()) return kErrorInvalidArgument;
  sets.erase(it);
  return kSuccess;
}
#endif
