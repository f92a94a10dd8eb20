// Burn-in telemetry through NVML. Each GPU's fields are probed once (probe()): a field whose
// symbol is missing or that returns NOT_SUPPORTED is recorded as unsupported and never called
// again. Xids arrive through an NVML event set on a thread of its own and are queued until the
// runner drains them. Only queries and the event listener: no setter, no reset. probe() and
// sample() for different GPUs may run on different threads at once (the monitor's deadline
// worker): each touches only its GPU's state, and the lost-GPU events are queued under a lock.
#include <fmt/format.h>

#include <atomic>
#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <thread>

#include "backends/nvml/nvml_device.hpp"
#include "backends/nvml/nvml_gpu_reader.hpp"
#include "backends/nvml/nvml_telemetry.hpp"
#include "backends/nvml/nvml_telemetry_fields.hpp"

namespace gpuvet::nvml {

namespace {

using SteadyTime = std::chrono::steady_clock::time_point;

struct PendingEvent {
  nvmlDevice_t device;
  int xid;
  SteadyTime when;
};

// Waits on the event set until stopped; 500 ms timeouts keep shutdown prompt.
class XidListener {
 public:
  XidListener(const NvmlLibrary& lib, nvmlEventSet_t set) : lib_(lib), set_(set), thread_([this] { loop(); }) {}
  ~XidListener() {
    stop_.store(true);
    thread_.join();
  }
  XidListener(const XidListener&) = delete;
  XidListener& operator=(const XidListener&) = delete;

  std::vector<PendingEvent> take() {
    std::lock_guard lock(mutex_);
    std::vector<PendingEvent> out;
    out.swap(pending_);
    return out;
  }

 private:
  void loop() noexcept {
    while (!stop_.load()) {
      nvmlEventData_t data{};
      const nvmlReturn_t code = lib_.api().event_set_wait(set_, &data, 500);
      if (code == kErrorTimeout) continue;
      if (code != kSuccess) {
        // A failing wait (driver gone, GPU lost) would spin; back off and let sampling report it.
        std::this_thread::sleep_for(std::chrono::milliseconds(500));
        continue;
      }
      if ((data.eventType & kEventTypeXidCriticalError) == 0) continue;
      std::lock_guard lock(mutex_);
      try {
        pending_.push_back({data.device, static_cast<int>(data.eventData), std::chrono::steady_clock::now()});
      } catch (...) {
        // Out of memory: drop the event rather than let an exception leave the thread.
      }
    }
  }

  const NvmlLibrary& lib_;
  nvmlEventSet_t set_;
  std::atomic<bool> stop_{false};
  std::mutex mutex_;
  std::vector<PendingEvent> pending_;
  std::thread thread_;  // last: starts after the members it uses
};

class NvmlTelemetrySource final : public api::TelemetrySource {
 public:
  NvmlTelemetrySource(std::unique_ptr<NvmlLibrary> lib, std::string library_name)
      : lib_(std::move(lib)), library_name_(std::move(library_name)) {}
  ~NvmlTelemetrySource() override {
    listener_.reset();
    if (event_set_) lib_->api().event_set_free(event_set_);
    lib_->api().shutdown();
  }
  NvmlTelemetrySource(const NvmlTelemetrySource&) = delete;
  NvmlTelemetrySource& operator=(const NvmlTelemetrySource&) = delete;

  std::optional<core::Error> open();
  [[nodiscard]] std::string describe() const override { return fmt::format("NVML ({})", library_name_); }
  [[nodiscard]] bool simulated() const override { return false; }
  core::Result<std::vector<core::BurninGpu>> gpus() override { return info_; }
  std::vector<core::UnsupportedField> probe(int gpu) override;
  core::TelemetrySample sample(int gpu, double t_s) override;
  std::vector<core::TelemetryEvent> drain_events(double t_s) override;

 private:
  TelemetryGpu* find(int gpu) {
    for (auto& g : gpus_) {
      if (g.reader.index() == gpu) return &g;
    }
    return nullptr;
  }
  void start_listener();

  std::unique_ptr<NvmlLibrary> lib_;
  std::string library_name_;
  std::vector<TelemetryGpu> gpus_;
  std::vector<core::BurninGpu> info_;
  nvmlEventSet_t event_set_ = nullptr;
  std::unique_ptr<XidListener> listener_;
  std::mutex lost_mutex_;  // guards lost_events_ (sample() may run on a deadline worker)
  std::vector<core::TelemetryEvent> lost_events_;
};

std::optional<core::Error> NvmlTelemetrySource::open() {
  const Api& api = lib_->api();
  if (const nvmlReturn_t code = api.init(); code != kSuccess) {
    return core::environment_error(fmt::format("{} failed on {}: {}", lib_->resolved_name(Symbol::init), library_name_,
                                               lib_->describe(code)));
  }
  unsigned int count = 0;
  if (const nvmlReturn_t code = api.device_get_count(&count); code != kSuccess) {
    return core::environment_error(fmt::format("{}: {}", lib_->resolved_name(Symbol::device_get_count), lib_->describe(code)));
  }
  for (unsigned int i = 0; i < count; ++i) {
    nvmlDevice_t device = nullptr;
    if (api.device_get_handle_by_index(i, &device) != kSuccess) continue;  // reported as a GPU without telemetry
    gpus_.emplace_back(DeviceReader(*lib_, device, static_cast<int>(i)));
    TelemetryGpu& g = gpus_.back();
    const core::Gpu gpu = read_gpu(g.reader);
    info_.push_back(burnin_gpu_info(g, gpu));
    init_nvlink(g, gpu);
    init_pcie_max(g, gpu);
  }
  if (gpus_.empty()) return core::environment_error(fmt::format("NVML ({}) sees no usable GPU", library_name_));
  start_listener();
  return std::nullopt;
}

void NvmlTelemetrySource::start_listener() {
  const Api& api = lib_->api();
  const auto not_watched = [&](const std::string& why) {
    for (auto& g : gpus_) g.xid_reason = why;
  };
  for (Symbol s : {Symbol::event_set_create, Symbol::device_register_events, Symbol::event_set_wait, Symbol::event_set_free}) {
    if (!lib_->has(s)) return not_watched("Xid events not watched: " + lib_->missing_reason(s));
  }
  if (const nvmlReturn_t code = api.event_set_create(&event_set_); code != kSuccess) {
    event_set_ = nullptr;
    return not_watched("Xid events not watched: nvmlEventSetCreate: " + lib_->describe(code));
  }
  bool any = false;
  for (auto& g : gpus_) {
    unsigned long long supported = 0;
    if (api.device_get_supported_event_types &&
        (api.device_get_supported_event_types(g.reader.device(), &supported) != kSuccess ||
         (supported & kEventTypeXidCriticalError) == 0)) {
      g.xid_reason = "Xid events not supported on this GPU";
      continue;
    }
    const nvmlReturn_t code = api.device_register_events(g.reader.device(), kEventTypeXidCriticalError, event_set_);
    if (code == kSuccess) {
      any = true;
    } else {
      g.xid_reason = "nvmlDeviceRegisterEvents: " + lib_->describe(code);
    }
  }
  if (any) listener_ = std::make_unique<XidListener>(*lib_, event_set_);
}

std::vector<core::UnsupportedField> NvmlTelemetrySource::probe(int gpu) {
  TelemetryGpu* g = find(gpu);
  if (!g) return {{gpu, "all", "NVML has no handle for this GPU"}};
  g->probing = true;
  (void)read_sample(*g);
  g->probing = false;
  std::vector<core::UnsupportedField> out;
  for (const auto& [field, reason] : g->unsupported) {
    bool multi = false;
    for (const auto& [call, columns] : kMultiColumnFields) {
      if (field != call) continue;
      multi = true;
      for (std::string_view column : columns) {
        if (!column.empty()) out.push_back({gpu, std::string(column), reason});
      }
    }
    if (!multi) out.push_back({gpu, field, reason});
  }
  if (!g->xid_reason.empty()) out.push_back({gpu, "xid_events", g->xid_reason});
  return out;
}

core::TelemetrySample NvmlTelemetrySource::sample(int gpu, double t_s) {
  TelemetryGpu* g = find(gpu);
  core::TelemetrySample s;
  if (!g) {
    s.gpu = gpu;
    return s;
  }
  const bool was_lost = g->reader.lost();
  s = read_sample(*g);
  s.gpu = gpu;
  s.t_s = t_s;
  if (!was_lost && g->reader.lost()) {
    std::lock_guard lock(lost_mutex_);
    lost_events_.push_back({gpu, t_s, core::TelemetryEventKind::gpu_lost, 0,
                            fmt::format("NVML_ERROR_GPU_IS_LOST during {}", g->reader.lost_during())});
  }
  return s;
}

std::vector<core::TelemetryEvent> NvmlTelemetrySource::drain_events(double t_s) {
  std::vector<core::TelemetryEvent> out;
  {
    std::lock_guard lock(lost_mutex_);
    out.swap(lost_events_);
  }
  if (!listener_) return out;
  const auto now = std::chrono::steady_clock::now();
  for (const auto& e : listener_->take()) {
    int gpu = -1;
    for (const auto& g : gpus_) {
      if (g.reader.device() == e.device) gpu = g.reader.index();
    }
    // The event happened (now - when) before this drain.
    const double ago = std::chrono::duration<double>(now - e.when).count();
    out.push_back({gpu, std::max(0.0, t_s - ago), core::TelemetryEventKind::xid, e.xid,
                   e.xid == 999 ? "Xid of unknown number (NVML eventData 999)" : fmt::format("Xid {}", e.xid)});
  }
  return out;
}

}  // namespace

core::Result<std::unique_ptr<api::TelemetrySource>> open_nvml_telemetry(const std::string& library) {
  auto lib = NvmlLibrary::load(library);
  if (!lib) return lib.error();
  auto source = std::make_unique<NvmlTelemetrySource>(std::move(lib).value(), library);
  if (auto e = source->open()) return *e;
  return std::unique_ptr<api::TelemetrySource>(std::move(source));
}

}  // namespace gpuvet::nvml
