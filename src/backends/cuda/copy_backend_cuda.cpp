// Copies and memory measured through the CUDA driver API, nvbandwidth's way: a spin kernel holds
// every stream of a sample until all copies are queued, events time each stream, the caller
// takes the median of samples. Read-only on device state: no clocks, limits or modes are set.
#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <optional>
#include <random>
#include <thread>
#include <vector>

#include "backends/cuda/copy_buffers.hpp"
#include "backends/cuda/copy_kernels.hpp"
#include "backends/cuda/cuda_backends.hpp"
#include "backends/cuda/cuda_context.hpp"
#include "backends/cuda/vram_check_cuda.hpp"
#include "platform/fs_root.hpp"

namespace gpuvet::cuda {
namespace {

constexpr std::size_t kChaseBytes = 64ull << 20;  // beyond L2 (50 MiB on H100)
constexpr std::size_t kChaseStride = 4096;
constexpr std::uint64_t kChaseSteps = 100000;

class CudaCopyBackend final : public api::CopyBackend {
 public:
  CudaCopyBackend(std::shared_ptr<Gpus> gpus, std::vector<api::DeviceInfo> devices, std::string description)
      : gpus_(gpus), devices_(std::move(devices)), description_(std::move(description)), buffers_(std::move(gpus)) {}
  ~CudaCopyBackend() override {
    if (release_ != nullptr) gpus_->api().mem_free_host(const_cast<int*>(release_));
  }

  [[nodiscard]] std::string describe() const override { return description_; }
  [[nodiscard]] bool simulated() const override { return false; }
  core::Result<std::vector<api::DeviceInfo>> devices() override { return devices_; }

  core::Result<std::vector<int>> host_numa_nodes() override {
    std::vector<int> out;
    for (const auto& name : platform::FsRoot("/").list("/sys/devices/system/node")) {
      if (name.rfind("node", 0) == 0 && name.size() > 4 && name.find_first_not_of("0123456789", 4) == std::string::npos) {
        out.push_back(std::stoi(name.substr(4)));
      }
    }
    return out;
  }

  core::Result<bool> can_access_peer(int a, int b) override {
    auto ga = gpus_->get(a);
    if (!ga) return ga.error();
    auto gb = gpus_->get(b);
    if (!gb) return gb.error();
    int ok = 0;
    if (auto rc = gpus_->api().device_can_access_peer(&ok, (*ga)->device(), (*gb)->device()); rc != driver::kSuccess) {
      return gpus_->driver().error(fmt::format("GPU {} -> GPU {}: peer access query", a, b), rc);
    }
    return ok != 0;
  }

  core::Result<std::vector<double>> copy_sample(const api::CopyRequest& request) override;
  core::Result<double> latency_sample(const api::LatencyRequest& request) override;

  core::Result<core::VramCheck> verify_vram(const api::VramRequest& request) override {
    buffers_.clear();  // the check wants every byte the driver will give
    auto check = check_vram(*gpus_, request);
    if (check) check.value().name = devices_[static_cast<std::size_t>(request.gpu)].name;
    return check;
  }

 private:
  std::optional<core::Error> enable_peer(int executor, int other);
  core::Result<const volatile int*> release_flag();

  std::shared_ptr<Gpus> gpus_;  // declared first: destroyed after the buffers it frees
  std::vector<api::DeviceInfo> devices_;
  std::string description_;
  CopyBuffers buffers_;
  volatile int* release_ = nullptr;
};

std::optional<core::Error> CudaCopyBackend::enable_peer(int executor, int other) {
  if (executor == other) return std::nullopt;
  auto ok = can_access_peer(executor, other);
  if (!ok) return ok.error();
  if (!*ok) return std::nullopt;  // copies are staged by the driver; SM kernels cannot run
  auto peer = gpus_->get(other);
  if (!peer) return peer.error();
  auto peer_context = (*peer)->context();
  if (!peer_context) return peer_context.error();
  if (auto e = gpus_->use(executor)) return e;
  const auto rc = gpus_->api().ctx_enable_peer_access(*peer_context, 0);
  if (rc == driver::kErrorPeerAccessAlreadyEnabled) return std::nullopt;  // not sticky in the driver API
  if (rc != driver::kSuccess) return gpus_->driver().error(fmt::format("GPU {}: enable access to GPU {}", executor, other), rc);
  return std::nullopt;
}

core::Result<const volatile int*> CudaCopyBackend::release_flag() {
  if (release_ == nullptr) {
    // Needs a current context (any GPU's); PORTABLE + DEVICEMAP: every GPU's kernels can read it.
    driver::CUcontext current = nullptr;
    if (gpus_->api().ctx_get_current(&current) != driver::kSuccess || current == nullptr) {
      if (auto e = gpus_->use(0)) return *e;
    }
    void* p = nullptr;
    if (auto rc = gpus_->api().mem_host_alloc(&p, sizeof(int), driver::kMemHostAllocDeviceMap | driver::kMemHostAllocPortable);
        rc != driver::kSuccess) {
      return gpus_->driver().error("allocate the release flag", rc);
    }
    release_ = static_cast<volatile int*>(p);
  }
  return const_cast<const volatile int*>(release_);
}

// One stream and its two timing events on one GPU, destroyed in that GPU's context.
struct StreamRun {
  Gpus* gpus = nullptr;
  int device = 0;
  driver::CUstream stream = nullptr;
  driver::CUevent start = nullptr;
  driver::CUevent stop = nullptr;
  StreamRun() = default;
  StreamRun(const StreamRun&) = delete;
  StreamRun& operator=(const StreamRun&) = delete;
  ~StreamRun() {
    if (stream == nullptr || gpus->use(device)) return;
    const auto& api = gpus->api();
    if (start != nullptr) api.event_destroy(start);
    if (stop != nullptr) api.event_destroy(stop);
    api.stream_destroy(stream);  // work still queued completes first; nothing waits for it here
  }
  // Creates the stream and events on `gpu` (its context made current).
  std::optional<core::Error> create(Gpus& all, Gpu& gpu) {
    gpus = &all;
    device = gpu.ordinal();
    if (auto e = gpu.make_current()) return e;
    const auto& api = all.api();
    if (auto rc = api.stream_create(&stream, driver::kStreamNonBlocking); rc != driver::kSuccess) {
      stream = nullptr;
      return all.driver().error(fmt::format("GPU {}: create stream", device), rc);
    }
    if (auto rc = api.event_create(&start, driver::kEventDefault); rc != driver::kSuccess) {
      return all.driver().error(fmt::format("GPU {}: create event", device), rc);
    }
    if (auto rc = api.event_create(&stop, driver::kEventDefault); rc != driver::kSuccess) {
      return all.driver().error(fmt::format("GPU {}: create event", device), rc);
    }
    return std::nullopt;
  }
};

core::Result<std::vector<double>> CudaCopyBackend::copy_sample(const api::CopyRequest& request) {
  auto flag = release_flag();
  if (!flag) return flag.error();
  *release_ = 0;
  const auto& api = gpus_->api();
  const auto& drv = gpus_->driver();
  std::vector<StreamRun> runs(request.streams.size());
  const auto timeout_ns = static_cast<std::uint64_t>(std::chrono::nanoseconds(request.timeout).count());
  for (std::size_t i = 0; i < request.streams.size(); ++i) {
    const auto& s = request.streams[i];
    if (!s.src.host && !s.dst.host) {
      if (auto e = enable_peer(s.executor, s.src.gpu == s.executor ? s.dst.gpu : s.src.gpu)) return *e;
    }
    auto src = buffers_.get(s.src, static_cast<int>(2 * i), request.bytes);
    if (!src) return src.error();
    auto dst = buffers_.get(s.dst, static_cast<int>(2 * i + 1), request.bytes);
    if (!dst) return dst.error();
    auto executor = gpus_->get(s.executor);
    if (!executor) return executor.error();
    Gpu& gpu = **executor;
    StreamRun& run = runs[i];
    if (auto e = run.create(*gpus_, gpu)) return *e;
    if (auto e = launch_spin(gpu, run.stream, *flag, timeout_ns)) return e->with_context("spin kernel");
    api.event_record(run.start, run.stream);
    int sms = 0;
    api.device_get_attribute(&sms, driver::kAttrMultiprocessorCount, gpu.device());
    for (int r = 0; r < request.repeats; ++r) {
      std::optional<core::Error> failed;
      if (request.engine == api::CopyEngine::sm) {
        failed = launch_copy(gpu, run.stream, *dst, *src, request.bytes, sms);
      } else {
        driver::CUresult rc = driver::kSuccess;
        if (!s.src.host && !s.dst.host && s.src.gpu != s.dst.gpu) {
          auto dst_gpu = gpus_->get(s.dst.gpu);
          auto src_gpu = gpus_->get(s.src.gpu);
          if (!dst_gpu) return dst_gpu.error();
          if (!src_gpu) return src_gpu.error();
          auto dst_ctx = (*dst_gpu)->context();
          auto src_ctx = (*src_gpu)->context();
          if (!dst_ctx) return dst_ctx.error();
          if (!src_ctx) return src_ctx.error();
          rc = api.memcpy_peer_async(*dst, *dst_ctx, *src, *src_ctx, request.bytes, run.stream);
        } else {
          rc = api.memcpy_async(*dst, *src, request.bytes, run.stream);  // unified addressing picks the direction
        }
        if (rc != driver::kSuccess) failed = drv.error(fmt::format("GPU {}: queue copy", s.executor), rc);
      }
      if (failed) {
        *release_ = 1;
        return *failed;
      }
    }
    api.event_record(run.stop, run.stream);
  }
  std::atomic_thread_fence(std::memory_order_seq_cst);
  *release_ = 1;
  const auto deadline = std::chrono::steady_clock::now() + request.timeout;
  for (auto& run : runs) {
    while (true) {
      const auto rc = api.event_query(run.stop);
      if (rc == driver::kSuccess) break;
      if (rc != driver::kErrorNotReady) return drv.error(fmt::format("GPU {}: copy", run.device), rc);
      if (std::chrono::steady_clock::now() > deadline) {
        return core::timeout_error(fmt::format("GPU {}: copy sample timed out after {} ms", run.device, request.timeout.count()));
      }
      std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
  }
  std::vector<double> rates;
  for (auto& run : runs) {
    float ms = 0;
    if (auto rc = api.event_elapsed_time(&ms, run.start, run.stop); rc != driver::kSuccess) return drv.error("event timing", rc);
    rates.push_back(static_cast<double>(request.bytes) * request.repeats / (ms * 1e-3) / 1e9);
  }
  return rates;
}

core::Result<double> CudaCopyBackend::latency_sample(const api::LatencyRequest& request) {
  const auto& api = gpus_->api();
  const auto& drv = gpus_->driver();
  if (!request.memory.host) {
    if (auto e = enable_peer(request.executor, request.memory.gpu)) return *e;
    auto ok = request.executor == request.memory.gpu ? core::Result<bool>(true) : can_access_peer(request.executor, request.memory.gpu);
    if (!ok) return ok.error();
    if (!*ok) return core::environment_error(fmt::format("GPU {} cannot access GPU {}'s memory (no P2P)", request.executor, request.memory.gpu));
  }
  auto buffer = buffers_.get(request.memory, 1000, kChaseBytes);
  if (!buffer) return buffer.error();
  // A random cycle through slots one page apart, each holding the next slot's address.
  const std::size_t slots = kChaseBytes / kChaseStride;
  std::vector<std::size_t> order(slots);
  for (std::size_t i = 0; i < slots; ++i) order[i] = i;
  std::shuffle(order.begin() + 1, order.end(), std::mt19937_64(42));
  const std::uint64_t base = *buffer;
  std::vector<std::uint64_t> image(kChaseBytes / 8, 0);
  for (std::size_t i = 0; i < slots; ++i) {
    image[order[i] * kChaseStride / 8] = base + order[(i + 1) % slots] * kChaseStride;
  }
  auto executor = gpus_->get(request.executor);
  if (!executor) return executor.error();
  Gpu& gpu = **executor;
  if (auto e = gpu.make_current()) return *e;
  if (auto rc = api.memcpy_htod(*buffer, image.data(), kChaseBytes); rc != driver::kSuccess) {
    return drv.error("write the pointer chain", rc);
  }
  StreamRun run;
  if (auto e = run.create(*gpus_, gpu)) return *e;
  auto sink = buffers_.get(api::CopyEndpoint::device(request.executor), 1001, 256);
  if (!sink) return sink.error();
  if (auto e = gpu.make_current()) return *e;
  api.event_record(run.start, run.stream);
  const auto launched = launch_chase(gpu, run.stream, *buffer, kChaseSteps, *sink);
  api.event_record(run.stop, run.stream);
  if (launched) return launched->with_context("pointer chase");
  const auto deadline = std::chrono::steady_clock::now() + request.timeout;
  driver::CUresult q = driver::kErrorNotReady;
  while ((q = api.event_query(run.stop)) == driver::kErrorNotReady && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  if (q == driver::kErrorNotReady) return core::timeout_error(fmt::format("GPU {}: latency sample timed out", request.executor));
  if (q != driver::kSuccess) return drv.error(fmt::format("GPU {}: pointer chase", request.executor), q);
  float ms = 0;
  api.event_elapsed_time(&ms, run.start, run.stop);
  return static_cast<double>(ms) * 1e6 / static_cast<double>(kChaseSteps);
}

}  // namespace

core::Result<std::unique_ptr<api::CopyBackend>> make_copy_backend() {
  auto gpus = Gpus::open();
  if (!gpus) return gpus.error();
  if ((*gpus)->count() == 0) {
    return core::environment_error(fmt::format("{}: no GPU visible (check CUDA_VISIBLE_DEVICES)", (*gpus)->describe()));
  }
  std::vector<api::DeviceInfo> devices;
  platform::FsRoot sys("/");
  for (int d = 0; d < (*gpus)->count(); ++d) {
    auto info = (*gpus)->info(d);
    if (!info) return info.error();
    if (auto node = sys.read_line("/sys/bus/pci/devices/" + info->pci_bus_id + "/numa_node")) {
      info.value().numa_node = std::atoi(node->c_str());
    }
    devices.push_back(std::move(info).value());
  }
  const auto description = (*gpus)->describe();
  return std::unique_ptr<api::CopyBackend>(
      std::make_unique<CudaCopyBackend>(std::move(gpus).value(), std::move(devices), description));
}

}  // namespace gpuvet::cuda
