// The GEMM stress backend: one worker thread per GPU runs cuBLAS GEMMs (C = A x B, n x n) into a
// ring of result buffers over most of the free memory, compares every verify_every-th result
// word by word with a golden result, and counts GEMMs for TFLOP/s. The golden result itself is
// checked against a plain double-precision product at sampled elements before the load starts.
// Read-only on the GPU's settings: it allocates memory and runs kernels, nothing else.
#include <cuda_runtime_api.h>

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
#include "backends/cuda/gemm_kernels.hpp"
#include "backends/cuda/gemm_stress.hpp"
#include "core/machine.hpp"

namespace gpuvet::cuda {

namespace {

using Clock = std::chrono::steady_clock;

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

std::string cuda_text(cudaError_t rc) { return fmt::format("{} ({})", cudaGetErrorName(rc), cudaGetErrorString(rc)); }

class Worker {
 public:
  Worker(std::shared_ptr<cublas::Library> lib, int ordinal, api::StressConfig config, Precision precision)
      : lib_(std::move(lib)), ordinal_(ordinal), config_(std::move(config)), precision_(precision) {}
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
  cudaStream_t stream_ = nullptr;
  cublas::Handle handle_ = nullptr;
  char* memory_ = nullptr;
  unsigned long long* counter_ = nullptr;
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
  if (counter_) cudaFree(counter_);
  if (memory_) cudaFree(memory_);
  if (handle_) lib_->api().destroy(handle_);
  if (stream_) cudaStreamDestroy(stream_);
}

std::string Worker::setup() {
  if (cudaError_t rc = cudaSetDevice(ordinal_); rc != cudaSuccess) return "cudaSetDevice: " + cuda_text(rc);
  if (cudaError_t rc = cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking); rc != cudaSuccess) {
    return "cudaStreamCreate: " + cuda_text(rc);
  }
  if (cublas::Status st = lib_->api().create(&handle_); st != cublas::kSuccess) return "cublasCreate: " + cublas::status_name(st);
  lib_->api().set_stream(handle_, stream_);
  const std::size_t n = static_cast<std::size_t>(config_.matrix_n);
  matrix_bytes_ = n * n * gemm::elem_size(precision_.elem);
  std::size_t free_bytes = 0, total_bytes = 0;
  if (cudaError_t rc = cudaMemGetInfo(&free_bytes, &total_bytes); rc != cudaSuccess) return "cudaMemGetInfo: " + cuda_text(rc);
  // A, B, the golden C and a ring of result buffers over the chosen share of free memory.
  const auto budget = static_cast<std::size_t>(static_cast<double>(free_bytes) * config_.memory_fraction);
  if (budget < 4 * matrix_bytes_) return fmt::format("{} MiB free: too little for {}x{} GEMMs", free_bytes >> 20, n, n);
  ring_ = std::min<std::size_t>(budget / matrix_bytes_ - 3, 4096);
  if (cudaError_t rc = cudaMalloc(reinterpret_cast<void**>(&memory_), (ring_ + 3) * matrix_bytes_); rc != cudaSuccess) {
    return "cudaMalloc: " + cuda_text(rc);
  }
  if (cudaError_t rc = cudaMalloc(reinterpret_cast<void**>(&counter_), sizeof(unsigned long long)); rc != cudaSuccess) {
    return "cudaMalloc: " + cuda_text(rc);
  }
  cudaMemsetAsync(counter_, 0, sizeof(unsigned long long), stream_);
  char* a = memory_;
  char* b = memory_ + matrix_bytes_;
  char* golden = memory_ + 2 * matrix_bytes_;
  if (cudaError_t rc = gemm::fill_random(a, n * n, precision_.elem, 0x5eed0001, stream_); rc != cudaSuccess) return "fill: " + cuda_text(rc);
  if (cudaError_t rc = gemm::fill_random(b, n * n, precision_.elem, 0x5eed0002, stream_); rc != cudaSuccess) return "fill: " + cuda_text(rc);
  const double one = 1.0, zero = 0.0;
  const float onef = 1.0f, zerof = 0.0f;
  const bool f64 = precision_.elem == gemm::Elem::fp64;
  const int ni = config_.matrix_n;
  if (cublas::Status st = lib_->api().gemm_ex(handle_, cublas::kOpN, cublas::kOpN, ni, ni, ni, f64 ? static_cast<const void*>(&one) : &onef, a,
                                              precision_.type, ni, b, precision_.type, ni, f64 ? static_cast<const void*>(&zero) : &zerof,
                                              golden, precision_.type, ni, precision_.compute, cublas::kGemmDefault);
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
  int* d_index = nullptr;
  double* d_ref = nullptr;
  if (cudaMalloc(reinterpret_cast<void**>(&d_index), 2 * kSamples * sizeof(int)) != cudaSuccess ||
      cudaMalloc(reinterpret_cast<void**>(&d_ref), kSamples * sizeof(double)) != cudaSuccess) {
    cudaFree(d_index);
    return "cudaMalloc for the reference check failed";
  }
  cudaMemcpyAsync(d_index, rows.data(), kSamples * sizeof(int), cudaMemcpyHostToDevice, stream_);
  cudaMemcpyAsync(d_index + kSamples, cols.data(), kSamples * sizeof(int), cudaMemcpyHostToDevice, stream_);
  cudaError_t rc = gemm::reference_samples(a, b, ni, precision_.elem, d_index, d_index + kSamples, kSamples, d_ref, stream_);
  std::vector<double> ref(kSamples);
  std::vector<char> host(matrix_bytes_);
  if (rc == cudaSuccess) rc = cudaMemcpyAsync(ref.data(), d_ref, kSamples * sizeof(double), cudaMemcpyDeviceToHost, stream_);
  if (rc == cudaSuccess) rc = cudaMemcpyAsync(host.data(), golden, matrix_bytes_, cudaMemcpyDeviceToHost, stream_);
  if (rc == cudaSuccess) rc = cudaStreamSynchronize(stream_);
  cudaFree(d_index);
  cudaFree(d_ref);
  if (rc != cudaSuccess) return "reference check: " + cuda_text(rc);
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
  const int ni = config_.matrix_n;
  const double one = 1.0, zero = 0.0;
  const float onef = 1.0f, zerof = 0.0f;
  const bool f64 = precision_.elem == gemm::Elem::fp64;
  const void* alpha = f64 ? static_cast<const void*>(&one) : &onef;
  const void* beta = f64 ? static_cast<const void*>(&zero) : &zerof;
  char* a = memory_;
  char* b = memory_ + matrix_bytes_;
  char* golden = memory_ + 2 * matrix_bytes_;
  std::size_t slot = 0;
  std::uint64_t issued = 0;
  constexpr int kBatch = 16;
  while (!stop_.load()) {
    for (int i = 0; i < kBatch; ++i) {
      char* c = memory_ + (3 + slot) * matrix_bytes_;
      slot = (slot + 1) % ring_;
      const cublas::Status st = lib_->api().gemm_ex(handle_, cublas::kOpN, cublas::kOpN, ni, ni, ni, alpha, a, precision_.type, ni, b,
                                                    precision_.type, ni, beta, c, precision_.type, ni, precision_.compute,
                                                    cublas::kGemmDefault);
      if (st != cublas::kSuccess) return "cublasGemmEx: " + cublas::status_name(st);
      if (++issued % static_cast<std::uint64_t>(std::max(1, config_.verify_every)) == 0) {
        if (cudaError_t rc = gemm::count_mismatches(c, golden, matrix_bytes_, counter_, stream_); rc != cudaSuccess) {
          return "compare: " + cuda_text(rc);
        }
      }
    }
    unsigned long long mismatched = 0;
    cudaError_t rc = cudaMemcpyAsync(&mismatched, counter_, sizeof mismatched, cudaMemcpyDeviceToHost, stream_);
    if (rc == cudaSuccess) rc = cudaStreamSynchronize(stream_);
    if (rc != cudaSuccess) return "GEMM batch: " + cuda_text(rc);
    gemms_.fetch_add(kBatch);
    // Words that differ from the golden result, on top of what the reference check found.
    miscompares_.store(std::max<std::uint64_t>(miscompares_.load(), mismatched));
  }
  return {};
}

class GemmStressBackend final : public api::StressBackend {
 public:
  explicit GemmStressBackend(std::shared_ptr<cublas::Library> lib) : lib_(std::move(lib)) {}
  [[nodiscard]] std::string describe() const override {
    int runtime = 0;
    cudaRuntimeGetVersion(&runtime);
    return fmt::format("cuBLAS GEMM ({}, CUDA runtime {}.{})", lib_->name(), runtime / 1000, (runtime % 1000) / 10);
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
    auto worker = std::make_unique<Worker>(lib_, *ordinal, config, *precision);
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
  static core::Result<int> ordinal_of(int gpu, const std::string& bus_id) {
    int count = 0;
    if (cudaError_t rc = cudaGetDeviceCount(&count); rc != cudaSuccess) {
      return core::environment_error("cudaGetDeviceCount: " + cuda_text(rc));
    }
    if (bus_id.empty()) {
      if (gpu >= count) return core::environment_error(fmt::format("no CUDA device {}", gpu));
      return gpu;
    }
    for (int d = 0; d < count; ++d) {
      char text[32] = {};
      if (cudaDeviceGetPCIBusId(text, sizeof text, d) != cudaSuccess) continue;
      if (core::normalize_pci_bus_id(text) == core::normalize_pci_bus_id(bus_id)) return d;
    }
    return core::environment_error(fmt::format("GPU {} ({}): no CUDA device has this bus id (CUDA_VISIBLE_DEVICES?)", gpu, bus_id));
  }

  std::shared_ptr<cublas::Library> lib_;
  std::map<int, std::unique_ptr<Worker>> workers_;
};

}  // namespace

core::Result<std::unique_ptr<api::StressBackend>> make_gemm_stress_backend() {
  int count = 0;
  if (cudaError_t rc = cudaGetDeviceCount(&count); rc != cudaSuccess) {
    return core::environment_error("CUDA runtime: " + cuda_text(rc));
  }
  auto lib = cublas::Library::load();
  if (!lib) return lib.error();
  return std::unique_ptr<api::StressBackend>(std::make_unique<GemmStressBackend>(std::move(lib).value()));
}

}  // namespace gpuvet::cuda
