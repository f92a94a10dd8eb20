// The live sampler's cost: one sample of every burn-in field for all GPUs through gpuvet's real
// NVML backend (nvml_telemetry_fields.cpp, what `gpuvet burnin` and the monitor call each tick)
// against the fake libnvidia-ml.so.1 of tests/backends/nvml serving the hgx-h100-8x profile, and
// the NVML calls one such sample makes, by entry point. The calls are counted by wrapping each
// resolved function pointer of the backend's symbol table (the library itself is untouched).
// Run (method and results: docs/measurement.md "Live sampler"), with GPUVET_NVML_LIBRARY set to
// build/<dir>/tests/backends/nvml/full/libnvidia-ml.so.1:
//   taskset -c 0 build/<dir>/bench/gpuvet_nvml_sampler_bench [--calls]
#include <benchmark/benchmark.h>
#include <stdlib.h>

#include <array>
#include <cstdio>
#include <cstring>
#include <deque>
#include <memory>
#include <string>

#include "backends/nvml/nvml_device.hpp"
#include "backends/nvml/nvml_gpu_reader.hpp"
#include "backends/nvml/nvml_library.hpp"
#include "backends/nvml/nvml_telemetry_fields.hpp"

namespace {

using namespace gpuvet;

#define GPUVET_ONE(...) +1
constexpr std::size_t kSymbols = 0 GPUVET_NVML_SYMBOLS(GPUVET_ONE);
#undef GPUVET_ONE
using AnyFn = void (*)();
std::array<AnyFn, kSymbols> g_real{};
std::array<std::uint64_t, kSymbols> g_calls{};

// A function with the entry point's exact signature that counts, then calls the real one.
template <class Signature>
struct Counted;
template <class R, class... A>
struct Counted<R(A...)> {
  template <std::size_t I>
  static R call(A... args) {
    ++g_calls[I];
    return reinterpret_cast<R (*)(A...)>(g_real[I])(args...);
  }
};

void count_calls(const nvml::NvmlLibrary& library) {
  using namespace gpuvet::nvml;  // NOLINT: the symbol table's signatures name the NVML ABI types
  // The table is the library object's own member, so writing through it is well defined; a
  // benchmark-only seam, nothing in gpuvet does this.
  auto& api = const_cast<nvml::Api&>(library.api());
#define GPUVET_COUNT(member, signature, ...)                                 \
  if (api.member != nullptr) {                                               \
    constexpr auto i = static_cast<std::size_t>(nvml::Symbol::member);       \
    g_real[i] = reinterpret_cast<AnyFn>(api.member);                         \
    api.member = &Counted<signature>::template call<i>;                      \
  }
  GPUVET_NVML_SYMBOLS(GPUVET_COUNT)
#undef GPUVET_COUNT
}

struct Sampler {
  std::unique_ptr<nvml::NvmlLibrary> library;
  std::deque<nvml::TelemetryGpu> gpus;
};

// Loads the library, wraps its calls, opens every GPU as NvmlTelemetrySource::open does and runs
// the probing pass once (which marks unsupported fields, as a burn-in does before its first tick).
Sampler& sampler() {
  static Sampler s = [] {
    Sampler out;
    const char* path = getenv("GPUVET_NVML_LIBRARY");
    auto library = nvml::NvmlLibrary::load(path != nullptr ? path : "libnvidia-ml.so.1");
    if (!library) {
      std::fprintf(stderr, "gpuvet_nvml_sampler_bench: %s (set GPUVET_NVML_LIBRARY to the fake library)\n",
                   library.error().message.c_str());
      std::exit(2);
    }
    out.library = std::move(library).value();
    count_calls(*out.library);
    const auto& api = out.library->api();
    unsigned int count = 0;
    if (api.init() != nvml::kSuccess || api.device_get_count(&count) != nvml::kSuccess) std::exit(2);
    for (unsigned int i = 0; i < count; ++i) {
      nvml::nvmlDevice_t device = nullptr;
      if (api.device_get_handle_by_index(i, &device) != nvml::kSuccess) std::exit(2);
      out.gpus.emplace_back(nvml::DeviceReader(*out.library, device, static_cast<int>(i)));
      auto& g = out.gpus.back();
      const core::Gpu gpu = nvml::read_gpu(g.reader);
      nvml::init_nvlink(g, gpu);
      g.probing = true;
      (void)nvml::read_sample(g);
      g.probing = false;
    }
    return out;
  }();
  return s;
}

void sample_all(Sampler& s) {
  for (auto& g : s.gpus) benchmark::DoNotOptimize(nvml::read_sample(g));
}

// One sample of every field of every GPU (8 on hgx-h100-8x): the work of one sampler tick.
void BM_NvmlSampleAllGpus(benchmark::State& state) {
  auto& s = sampler();
  for (auto _ : state) sample_all(s);
  state.counters["gpus"] = static_cast<double>(s.gpus.size());
}
BENCHMARK(BM_NvmlSampleAllGpus)->Unit(benchmark::kMicrosecond);

// The NVML calls of one sample of all GPUs, by entry point.
void print_calls() {
  auto& s = sampler();
  g_calls.fill(0);
  sample_all(s);
  std::uint64_t total = 0;
  std::printf("NVML calls for one sample of %zu GPUs:\n", s.gpus.size());
  for (const auto& info : nvml::symbol_table()) {
    const auto n = g_calls[static_cast<std::size_t>(info.symbol)];
    if (n == 0) continue;
    total += n;
    std::printf("  %-40s %6llu  (%.2f per GPU)\n", std::string(s.library->resolved_name(info.symbol)).c_str(),
                static_cast<unsigned long long>(n), static_cast<double>(n) / static_cast<double>(s.gpus.size()));
  }
  std::printf("  %-40s %6llu  (%.2f per GPU)\n", "total", static_cast<unsigned long long>(total),
              static_cast<double>(total) / static_cast<double>(s.gpus.size()));
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], "--calls") == 0) {
    print_calls();
    return 0;
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  print_calls();
  return 0;
}
