// Copies and memory measured with the CUDA runtime, nvbandwidth's way: a spin kernel holds
// every stream of a sample until all copies are queued, events time each stream, the caller
// takes the median of samples. Read-only on device state: no clocks, limits or modes are set.
#include <fmt/format.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <algorithm>
#include <optional>
#include <random>
#include <thread>
#include <vector>

#include "backends/cuda/copy_buffers.hpp"
#include "backends/cuda/copy_kernels.cuh"
#include "backends/cuda/cuda_backends.hpp"
#include "backends/cuda/cuda_status.hpp"
#include "backends/cuda/vram_check_cuda.hpp"
#include "platform/fs_root.hpp"

namespace gpuvet::cuda {
namespace {

constexpr std::size_t kChaseBytes = 64ull << 20;  // beyond L2 (50 MiB on H100)
constexpr std::size_t kChaseStride = 4096;
constexpr std::uint64_t kChaseSteps = 100000;

class CudaCopyBackend final : public api::CopyBackend {
 public:
  CudaCopyBackend(std::vector<api::DeviceInfo> devices, std::string description)
      : devices_(std::move(devices)), description_(std::move(description)) {}
  ~CudaCopyBackend() override {
    if (release_ != nullptr) cudaFreeHost(const_cast<int*>(release_));
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
    int ok = 0;
    if (auto rc = cudaDeviceCanAccessPeer(&ok, a, b); rc != cudaSuccess) {
      return cuda_error(fmt::format("GPU {} -> GPU {}: peer access query", a, b), rc);
    }
    return ok != 0;
  }

  core::Result<std::vector<double>> copy_sample(const api::CopyRequest& request) override;
  core::Result<double> latency_sample(const api::LatencyRequest& request) override;

  core::Result<core::VramCheck> verify_vram(const api::VramRequest& request) override {
    buffers_.clear();  // the check wants every byte the driver will give
    auto check = check_vram(request);
    if (check) check.value().name = devices_[static_cast<std::size_t>(request.gpu)].name;
    return check;
  }

 private:
  std::optional<core::Error> enable_peer(int executor, int other);
  core::Result<const volatile int*> release_flag();

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
  cudaSetDevice(executor);
  const auto rc = cudaDeviceEnablePeerAccess(other, 0);
  if (rc == cudaErrorPeerAccessAlreadyEnabled) {
    cudaGetLastError();  // clear the sticky-free error state
    return std::nullopt;
  }
  if (rc != cudaSuccess) return cuda_error(fmt::format("GPU {}: enable access to GPU {}", executor, other), rc);
  return std::nullopt;
}

core::Result<const volatile int*> CudaCopyBackend::release_flag() {
  if (release_ == nullptr) {
    void* p = nullptr;
    if (auto rc = cudaHostAlloc(&p, sizeof(int), cudaHostAllocMapped | cudaHostAllocPortable); rc != cudaSuccess) {
      return cuda_error("allocate the release flag", rc);
    }
    release_ = static_cast<volatile int*>(p);
  }
  return const_cast<const volatile int*>(release_);
}

struct StreamRun {
  int device = 0;
  cudaStream_t stream = nullptr;
  cudaEvent_t start = nullptr;
  cudaEvent_t stop = nullptr;
  ~StreamRun() {
    if (stream == nullptr) return;
    cudaSetDevice(device);
    if (start != nullptr) cudaEventDestroy(start);
    if (stop != nullptr) cudaEventDestroy(stop);
    cudaStreamDestroy(stream);  // work still queued completes first; nothing waits for it here
  }
};

core::Result<std::vector<double>> CudaCopyBackend::copy_sample(const api::CopyRequest& request) {
  auto flag = release_flag();
  if (!flag) return flag.error();
  *release_ = 0;
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
    StreamRun& run = runs[i];
    run.device = s.executor;
    cudaSetDevice(s.executor);
    if (auto rc = cudaStreamCreateWithFlags(&run.stream, cudaStreamNonBlocking); rc != cudaSuccess) {
      return cuda_error(fmt::format("GPU {}: create stream", s.executor), rc);
    }
    cudaEventCreate(&run.start);
    cudaEventCreate(&run.stop);
    if (auto rc = launch_spin(run.stream, *flag, timeout_ns); rc != cudaSuccess) return cuda_error("spin kernel", rc);
    cudaEventRecord(run.start, run.stream);
    int sms = 0;
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, s.executor);
    for (int r = 0; r < request.repeats; ++r) {
      cudaError_t rc;
      if (request.engine == api::CopyEngine::sm) {
        rc = launch_copy(run.stream, *dst, *src, request.bytes, sms);
      } else if (!s.src.host && !s.dst.host && s.src.gpu != s.dst.gpu) {
        rc = cudaMemcpyPeerAsync(*dst, s.dst.gpu, *src, s.src.gpu, request.bytes, run.stream);
      } else {
        rc = cudaMemcpyAsync(*dst, *src, request.bytes, cudaMemcpyDefault, run.stream);
      }
      if (rc != cudaSuccess) {
        *release_ = 1;
        return cuda_error(fmt::format("GPU {}: queue copy", s.executor), rc);
      }
    }
    cudaEventRecord(run.stop, run.stream);
  }
  std::atomic_thread_fence(std::memory_order_seq_cst);
  *release_ = 1;
  const auto deadline = std::chrono::steady_clock::now() + request.timeout;
  for (auto& run : runs) {
    while (true) {
      const auto rc = cudaEventQuery(run.stop);
      if (rc == cudaSuccess) break;
      if (rc != cudaErrorNotReady) return cuda_error(fmt::format("GPU {}: copy", run.device), rc);
      if (std::chrono::steady_clock::now() > deadline) {
        return core::environment_error(fmt::format("GPU {}: copy sample timed out after {} ms", run.device, request.timeout.count()));
      }
      std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
  }
  std::vector<double> rates;
  for (auto& run : runs) {
    float ms = 0;
    if (auto rc = cudaEventElapsedTime(&ms, run.start, run.stop); rc != cudaSuccess) return cuda_error("event timing", rc);
    rates.push_back(static_cast<double>(request.bytes) * request.repeats / (ms * 1e-3) / 1e9);
  }
  return rates;
}

core::Result<double> CudaCopyBackend::latency_sample(const api::LatencyRequest& request) {
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
  const auto base = reinterpret_cast<std::uint64_t>(*buffer);
  std::vector<std::uint64_t> image(kChaseBytes / 8, 0);
  for (std::size_t i = 0; i < slots; ++i) {
    image[order[i] * kChaseStride / 8] = base + order[(i + 1) % slots] * kChaseStride;
  }
  if (auto rc = cudaMemcpy(*buffer, image.data(), kChaseBytes, cudaMemcpyDefault); rc != cudaSuccess) {
    return cuda_error("write the pointer chain", rc);
  }
  cudaSetDevice(request.executor);
  StreamRun run;
  run.device = request.executor;
  cudaStreamCreateWithFlags(&run.stream, cudaStreamNonBlocking);
  cudaEventCreate(&run.start);
  cudaEventCreate(&run.stop);
  auto sink_buffer = buffers_.get(api::CopyEndpoint::device(request.executor), 1001, 256);
  if (!sink_buffer) return sink_buffer.error();
  auto* sink = static_cast<std::uint64_t*>(*sink_buffer);
  cudaEventRecord(run.start, run.stream);
  const auto rc = launch_chase(run.stream, static_cast<const std::uint64_t*>(*buffer), kChaseSteps, sink);
  cudaEventRecord(run.stop, run.stream);
  const auto deadline = std::chrono::steady_clock::now() + request.timeout;
  cudaError_t q = cudaErrorNotReady;
  while (rc == cudaSuccess && (q = cudaEventQuery(run.stop)) == cudaErrorNotReady && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  if (rc != cudaSuccess || q != cudaSuccess) {
    if (q == cudaErrorNotReady) return core::environment_error(fmt::format("GPU {}: latency sample timed out", request.executor));
    return cuda_error(fmt::format("GPU {}: pointer chase", request.executor), rc != cudaSuccess ? rc : q);
  }
  float ms = 0;
  cudaEventElapsedTime(&ms, run.start, run.stop);
  return static_cast<double>(ms) * 1e6 / static_cast<double>(kChaseSteps);
}

std::string pci_bus_id(const cudaDeviceProp& p) {
  return fmt::format("{:04x}:{:02x}:{:02x}.0", p.pciDomainID, p.pciBusID, p.pciDeviceID);
}

}  // namespace

core::Result<std::unique_ptr<api::CopyBackend>> make_copy_backend() {
  // Number GPUs in PCI order, as NVML and nvidia-smi do, unless the user chose otherwise.
  setenv("CUDA_DEVICE_ORDER", "PCI_BUS_ID", 0);
  int count = 0;
  if (auto rc = cudaGetDeviceCount(&count); rc != cudaSuccess) {
    auto error = cuda_error("CUDA runtime: count GPUs", rc);
    if (rc == cudaErrorInsufficientDriver) {
      error.message += fmt::format("\n  hint: no NVIDIA driver is loaded, or it is older than this build's CUDA {}.{} runtime needs "
                                   "(CUDA 13 needs driver 580 or later; build gpuvet with the CUDA 12 toolkit for older drivers)",
                                   CUDART_VERSION / 1000, CUDART_VERSION % 1000 / 10);
    }
    return error;
  }
  if (count == 0) return core::environment_error("CUDA runtime: no GPU visible (check CUDA_VISIBLE_DEVICES)");
  std::vector<api::DeviceInfo> devices;
  platform::FsRoot sys("/");
  for (int d = 0; d < count; ++d) {
    cudaDeviceProp p{};
    if (auto rc = cudaGetDeviceProperties(&p, d); rc != cudaSuccess) return cuda_error(fmt::format("GPU {}: properties", d), rc);
    api::DeviceInfo info{d, p.name, pci_bus_id(p), -1};
    if (auto node = sys.read_line("/sys/bus/pci/devices/" + info.pci_bus_id + "/numa_node")) {
      info.numa_node = std::atoi(node->c_str());
    }
    devices.push_back(std::move(info));
  }
  int runtime = 0;
  int driver = 0;
  cudaRuntimeGetVersion(&runtime);
  cudaDriverGetVersion(&driver);
  const auto description = fmt::format("CUDA runtime {}.{}, driver API {}.{}", runtime / 1000, runtime % 1000 / 10,
                                       driver / 1000, driver % 1000 / 10);
  return std::unique_ptr<api::CopyBackend>(std::make_unique<CudaCopyBackend>(std::move(devices), description));
}

}  // namespace gpuvet::cuda
