// The GEMM stress backend: one worker thread per GPU runs cuBLAS GEMMs (C = A x B, n x n) into a
// ring of result buffers over most of the free memory, compares every verify_every-th result
// word by word with a golden result, and counts GEMMs for TFLOP/s. The golden result itself is
// checked against a plain double-precision product at sampled elements before the load starts.
// Read-only on the GPU's settings: it allocates memory and runs kernels, nothing else.
#include <fmt/format.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <future>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

#include "backends/cuda/cublas_library.hpp"
#include "backends/cuda/cuda_context.hpp"
#include "backends/cuda/gemm_kernels.hpp"
#include "backends/cuda/gemm_stress.hpp"
#include "core/machine.hpp"

namespace gpuvet::cuda {

namespace {

using Clock = std::chrono::steady_clock;

// cuBLAS takes device addresses as pointers.
void* device_pointer(driver::CUdeviceptr p) { return reinterpret_cast<void*>(static_cast<std::uintptr_t>(p)); }

struct Precision {
  gemm::Elem elem;
  cublas::DataType type;
  cublas::ComputeType compute;
  double tolerance;  // relative error allowed against the double reference
};

std::optional<Precision> precision_for(api::GemmDtype dtype) {
  switch (dtype) {
    case api::GemmDtype::bf16: return Precision{gemm::Elem::bf16, cublas::kR16BF, cublas::kCompute32F, 2e-2};
    case api::GemmDtype::fp16: return Precision{gemm::Elem::fp16, cublas::kR16F, cublas::kCompute32F, 5e-3};
    case api::GemmDtype::tf32: return Precision{gemm::Elem::fp32, cublas::kR32F, cublas::kCompute32FFastTF32, 5e-3};
    case api::GemmDtype::fp32: return Precision{gemm::Elem::fp32, cublas::kR32F, cublas::kCompute32F, 1e-4};
    case api::GemmDtype::fp64: return Precision{gemm::Elem::fp64, cublas::kR64F, cublas::kCompute64F, 1e-10};
    case api::GemmDtype::fp8: return std::nullopt;  // needs cuBLASLt with scaling factors: not built yet
  }
  return std::nullopt;
}

class Worker {
 public:
  Worker(std::shared_ptr<Gpus> gpus, std::shared_ptr<cublas::Library> lib, int ordinal, api::StressConfig config,
         Precision precision)
      : gpus_(std::move(gpus)), lib_(std::move(lib)), ordinal_(ordinal), config_(std::move(config)), precision_(precision) {}
  ~Worker() { stop(); }
  Worker(const Worker&) = delete;
  Worker& operator=(const Worker&) = delete;

  // Starts the thread and waits for setup (allocation, golden result, reference check).
  std::optional<core::Error> start() {
    std::promise<std::string> ready;
    auto setup = ready.get_future();
    thread_ = std::thread([this, promise = std::move(ready)]() mutable { run(promise); });
    const std::string error = setup.get();
    if (!error.empty()) {
      stop();
      return core::environment_error(fmt::format("CUDA device {}: {}", ordinal_, error));
    }
    last_poll_ = Clock::now();
    return std::nullopt;
  }

  void stop() {
    stop_.store(true);
    if (thread_.joinable()) thread_.join();
  }

  api::StressStatus poll() {
    api::StressStatus s;
    const auto now = Clock::now();
    const std::uint64_t done = gemms_.load();
    const double seconds = std::chrono::duration<double>(now - last_poll_).count();
    const double n = config_.matrix_n;
    if (seconds > 0) {
      s.tflops = static_cast<double>(done - polled_gemms_) * 2 * n * n * n / seconds / 1e12;
    } else {
      s.tflops = core::Absent{"no time passed since the previous poll"};
    }
    polled_gemms_ = done;
    last_poll_ = now;
    s.gemms = done;
    s.miscompares = miscompares_.load();
    s.running = running_.load();
    std::lock_guard lock(mutex_);
    s.error = error_;
    return s;
  }

 private:
  void fail(const std::string& what) {
    std::lock_guard lock(mutex_);
    error_ = what;
  }
  void run(std::promise<std::string>& ready) noexcept;
  std::string setup();
  std::string loop();

  // What a failed driver call said: "<what>: CUDA_ERROR_... (words)".
  [[nodiscard]] std::string text(const std::string& what, driver::CUresult rc) const {
    return gpus_->driver().describe(rc).insert(0, what + ": ");
  }

  std::shared_ptr<Gpus> gpus_;
  Gpu* gpu_ = nullptr;  // set on the worker thread by setup()
  std::shared_ptr<cublas::Library> lib_;
  int ordinal_;
  api::StressConfig config_;
  Precision precision_;
  std::thread thread_;
  std::atomic<bool> stop_{false};
  std::atomic<bool> running_{false};
  std::atomic<std::uint64_t> gemms_{0};
  std::atomic<std::uint64_t> miscompares_{0};
  std::mutex mutex_;
  std::string error_;
  std::uint64_t polled_gemms_ = 0;
  Clock::time_point last_poll_;
  // Device state, owned by the worker thread.
  driver::CUstream stream_ = nullptr;
  cublas::Handle handle_ = nullptr;
  driver::CUdeviceptr memory_ = 0;
  driver::CUdeviceptr counter_ = 0;
  std::size_t matrix_bytes_ = 0;
  std::size_t ring_ = 0;
};

void Worker::run(std::promise<std::string>& ready) noexcept {
  std::string error;
  bool reported = false;
  try {
    error = setup();
    ready.set_value(error);
    reported = true;
    if (error.empty()) {
      running_.store(true);
      error = loop();
      if (!error.empty()) fail(error);
      running_.store(false);
    }
  } catch (const std::exception& e) {
    fail(std::string("internal error: ") + e.what());
    running_.store(false);
    if (!reported) ready.set_value(std::string("internal error: ") + e.what());
  } catch (...) {
    running_.store(false);
    if (!reported) ready.set_value("internal error");
  }
  // The context is still current on this thread (setup made it so) unless setup failed first.
  const auto& api = gpus_->api();
  if (counter_) api.mem_free(counter_);
  if (memory_) api.mem_free(memory_);
  if (handle_) lib_->api().destroy(handle_);
  if (stream_) api.stream_destroy(stream_);
  api.ctx_set_current(nullptr);
}

std::string Worker::setup() {
  // This thread's driver calls (and cuBLAS's, through the runtime) go to the GPU's primary context.
  auto gpu = gpus_->get(ordinal_);
  if (!gpu) return gpu.error().message;
  gpu_ = *gpu;
  if (auto e = gpu_->make_current()) return e->message;
  const auto& api = gpus_->api();
  if (auto rc = api.stream_create(&stream_, driver::kStreamNonBlocking); rc != driver::kSuccess) {
    stream_ = nullptr;
    return text("cuStreamCreate", rc);
  }
  if (cublas::Status st = lib_->api().create(&handle_); st != cublas::kSuccess) return "cublasCreate: " + cublas::status_name(st);
  lib_->api().set_stream(handle_, stream_);
  const std::size_t n = static_cast<std::size_t>(config_.matrix_n);
  matrix_bytes_ = n * n * gemm::elem_size(precision_.elem);
  std::size_t free_bytes = 0, total_bytes = 0;
  if (auto rc = api.mem_get_info(&free_bytes, &total_bytes); rc != driver::kSuccess) return text("cuMemGetInfo", rc);
  // A, B, the golden C and a ring of result buffers over the chosen share of free memory.
  const auto budget = static_cast<std::size_t>(static_cast<double>(free_bytes) * config_.memory_fraction);
  if (budget < 4 * matrix_bytes_) return fmt::format("{} MiB free: too little for {}x{} GEMMs", free_bytes >> 20, n, n);
  ring_ = std::min<std::size_t>(budget / matrix_bytes_ - 3, 4096);
  if (auto rc = api.mem_alloc(&memory_, (ring_ + 3) * matrix_bytes_); rc != driver::kSuccess) {
    memory_ = 0;
    return text("cuMemAlloc", rc);
  }
  if (auto rc = api.mem_alloc(&counter_, sizeof(unsigned long long)); rc != driver::kSuccess) {
    counter_ = 0;
    return text("cuMemAlloc", rc);
  }
  api.memset_d8_async(counter_, 0, sizeof(unsigned long long), stream_);
  const driver::CUdeviceptr a = memory_;
  const driver::CUdeviceptr b = memory_ + matrix_bytes_;
  const driver::CUdeviceptr golden = memory_ + 2 * matrix_bytes_;
  if (auto e = gemm::fill_random(*gpu_, a, n * n, precision_.elem, 0x5eed0001, stream_)) return "fill: " + e->message;
  if (auto e = gemm::fill_random(*gpu_, b, n * n, precision_.elem, 0x5eed0002, stream_)) return "fill: " + e->message;
  const double one = 1.0, zero = 0.0;
  const float onef = 1.0f, zerof = 0.0f;
  const bool f64 = precision_.elem == gemm::Elem::fp64;
  const int ni = config_.matrix_n;
  if (cublas::Status st = lib_->api().gemm_ex(handle_, cublas::kOpN, cublas::kOpN, ni, ni, ni, f64 ? static_cast<const void*>(&one) : &onef,
                                              device_pointer(a), precision_.type, ni, device_pointer(b), precision_.type, ni,
                                              f64 ? static_cast<const void*>(&zero) : &zerof, device_pointer(golden),
                                              precision_.type, ni, precision_.compute, cublas::kGemmDefault);
      st != cublas::kSuccess) {
    return "cublasGemmEx: " + cublas::status_name(st);
  }
  // Check the golden result at 64 sampled elements against a double-precision product.
  constexpr int kSamples = 64;
  std::vector<int> rows(kSamples), cols(kSamples);
  for (int s = 0; s < kSamples; ++s) {
    rows[static_cast<std::size_t>(s)] = static_cast<int>((static_cast<std::uint64_t>(s) * 2654435761u) % n);
    cols[static_cast<std::size_t>(s)] = static_cast<int>((static_cast<std::uint64_t>(s) * 40503u + 7) % n);
  }
  driver::CUdeviceptr d_index = 0;
  driver::CUdeviceptr d_ref = 0;
  if (api.mem_alloc(&d_index, 2 * kSamples * sizeof(int)) != driver::kSuccess ||
      api.mem_alloc(&d_ref, kSamples * sizeof(double)) != driver::kSuccess) {
    if (d_index) api.mem_free(d_index);
    return "cuMemAlloc for the reference check failed";
  }
  api.memcpy_htod_async(d_index, rows.data(), kSamples * sizeof(int), stream_);
  api.memcpy_htod_async(d_index + kSamples * sizeof(int), cols.data(), kSamples * sizeof(int), stream_);
  std::string failed;
  if (auto e = gemm::reference_samples(*gpu_, a, b, ni, precision_.elem, d_index, d_index + kSamples * sizeof(int), kSamples,
                                       d_ref, stream_)) {
    failed = e->message;
  }
  std::vector<double> ref(kSamples);
  std::vector<char> host(matrix_bytes_);
  driver::CUresult rc = driver::kSuccess;
  if (failed.empty()) rc = api.memcpy_dtoh_async(ref.data(), d_ref, kSamples * sizeof(double), stream_);
  if (failed.empty() && rc == driver::kSuccess) rc = api.memcpy_dtoh_async(host.data(), golden, matrix_bytes_, stream_);
  if (failed.empty() && rc == driver::kSuccess) rc = api.stream_synchronize(stream_);
  api.mem_free(d_index);
  api.mem_free(d_ref);
  if (!failed.empty()) return "reference check: " + failed;
  if (rc != driver::kSuccess) return text("reference check", rc);
  std::uint64_t bad = 0;
  for (int s = 0; s < kSamples; ++s) {
    const std::size_t index = static_cast<std::size_t>(rows[static_cast<std::size_t>(s)]) +
                              static_cast<std::size_t>(cols[static_cast<std::size_t>(s)]) * n;
    const double got = gemm::element_value(host.data(), index, precision_.elem);
    const double want = ref[static_cast<std::size_t>(s)];
    // Products of n values in [-1, 1) have magnitude ~sqrt(n/9); compare on that scale.
    const double scale = std::max(std::abs(want), std::sqrt(static_cast<double>(n) / 9.0));
    if (!(std::abs(got - want) <= precision_.tolerance * scale)) ++bad;
  }
  miscompares_.store(bad);
  return {};
}

std::string Worker::loop() {
  const auto& api = gpus_->api();
  const int ni = config_.matrix_n;
  const double one = 1.0, zero = 0.0;
  const float onef = 1.0f, zerof = 0.0f;
  const bool f64 = precision_.elem == gemm::Elem::fp64;
  const void* alpha = f64 ? static_cast<const void*>(&one) : &onef;
  const void* beta = f64 ? static_cast<const void*>(&zero) : &zerof;
  const driver::CUdeviceptr a = memory_;
  const driver::CUdeviceptr b = memory_ + matrix_bytes_;
  const driver::CUdeviceptr golden = memory_ + 2 * matrix_bytes_;
  std::size_t slot = 0;
  std::uint64_t issued = 0;
  constexpr int kBatch = 16;
  while (!stop_.load()) {
    for (int i = 0; i < kBatch; ++i) {
      const driver::CUdeviceptr c = memory_ + (3 + slot) * matrix_bytes_;
      slot = (slot + 1) % ring_;
      const cublas::Status st = lib_->api().gemm_ex(handle_, cublas::kOpN, cublas::kOpN, ni, ni, ni, alpha, device_pointer(a),
                                                    precision_.type, ni, device_pointer(b), precision_.type, ni, beta,
                                                    device_pointer(c), precision_.type, ni, precision_.compute,
                                                    cublas::kGemmDefault);
      if (st != cublas::kSuccess) return "cublasGemmEx: " + cublas::status_name(st);
      if (++issued % static_cast<std::uint64_t>(std::max(1, config_.verify_every)) == 0) {
        if (auto e = gemm::count_mismatches(*gpu_, c, golden, matrix_bytes_, counter_, stream_)) return "compare: " + e->message;
      }
    }
    unsigned long long mismatched = 0;
    auto rc = api.memcpy_dtoh_async(&mismatched, counter_, sizeof mismatched, stream_);
    if (rc == driver::kSuccess) rc = api.stream_synchronize(stream_);
    if (rc != driver::kSuccess) return text("GEMM batch", rc);
    gemms_.fetch_add(kBatch);
    // Words that differ from the golden result, on top of what the reference check found.
    miscompares_.store(std::max<std::uint64_t>(miscompares_.load(), mismatched));
  }
  return {};
}

class GemmStressBackend final : public api::StressBackend {
 public:
  GemmStressBackend(std::shared_ptr<Gpus> gpus, std::shared_ptr<cublas::Library> lib)
      : gpus_(std::move(gpus)), lib_(std::move(lib)) {}
  [[nodiscard]] std::string describe() const override {
    return fmt::format("cuBLAS GEMM ({} {}, {})", lib_->name(), lib_->version(), gpus_->describe());
  }
  [[nodiscard]] bool simulated() const override { return false; }

  std::optional<core::Error> start(int gpu, const api::StressConfig& config, double) override {
    const auto precision = precision_for(config.dtype);
    if (!precision) {
      return core::environment_error(fmt::format("GPU {}: {} GEMMs need cuBLASLt, which this gpuvet does not drive yet",
                                                 gpu, api::to_string(config.dtype)));
    }
    auto ordinal = ordinal_of(gpu, config.pci_bus_id);
    if (!ordinal) return ordinal.error();
    auto worker = std::make_unique<Worker>(gpus_, lib_, *ordinal, config, *precision);
    if (auto e = worker->start()) return e->with_context(fmt::format("GPU {}", gpu));
    workers_[gpu] = std::move(worker);
    return std::nullopt;
  }

  void stop(int gpu, double) override {
    auto it = workers_.find(gpu);
    if (it != workers_.end()) it->second->stop();
  }

  api::StressStatus poll(int gpu, double) override {
    auto it = workers_.find(gpu);
    if (it == workers_.end()) {
      api::StressStatus s;
      s.tflops = core::Absent{"no load was started on this GPU"};
      return s;
    }
    return it->second->poll();
  }

 private:
  // The CUDA ordinal of the GPU with this PCI bus id (NVML and CUDA may number GPUs differently).
  core::Result<int> ordinal_of(int gpu, const std::string& bus_id) const {
    const int count = gpus_->count();
    if (bus_id.empty()) {
      if (gpu >= count) return core::environment_error(fmt::format("no CUDA device {}", gpu));
      return gpu;
    }
    for (int d = 0; d < count; ++d) {
      auto info = gpus_->info(d);
      if (info && core::normalize_pci_bus_id(info->pci_bus_id) == core::normalize_pci_bus_id(bus_id)) return d;
    }
    return core::environment_error(fmt::format("GPU {} ({}): no CUDA device has this bus id (CUDA_VISIBLE_DEVICES?)", gpu, bus_id));
  }

  std::shared_ptr<Gpus> gpus_;
  std::shared_ptr<cublas::Library> lib_;
  std::map<int, std::unique_ptr<Worker>> workers_;
};

}  // namespace

core::Result<std::unique_ptr<api::StressBackend>> make_gemm_stress_backend() {
  auto gpus = Gpus::open();
  if (!gpus) return gpus.error();
  if ((*gpus)->count() == 0) return core::environment_error(fmt::format("{}: no GPU visible", (*gpus)->describe()));
  // A cuBLAS built for a newer CUDA than the driver's would fail at cublasCreate: pick by driver.
  auto lib = cublas::Library::load((*gpus)->driver().cuda_version());
  if (!lib) return lib.error();
  return std::unique_ptr<api::StressBackend>(std::make_unique<GemmStressBackend>(std::move(gpus).value(), std::move(lib).value()));
}

}  // namespace gpuvet::cuda
