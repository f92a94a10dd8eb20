// The driver symbol table, the version gate, primary contexts and the embedded kernels, against
// the fake libcuda.so.1 builds (fake/fake_cuda.cpp): a 470 driver (CUDA 11.4) and a 550 one (12.4).
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <iterator>
#include <cstdlib>
#include <limits>
#include <string>

#include "backends/cuda/cublas_library.hpp"
#include "backends/cuda/cuda_backends.hpp"
#include "backends/cuda/cuda_driver.hpp"
#include "backends/cuda/gemm_stress.hpp"
#include "backends/cuda/nccl_backend.hpp"
#ifdef GPUVET_HAVE_CUDA
#include "backends/cuda/cuda_context.hpp"
#include "backends/cuda/embedded_kernels.hpp"
#include "backends/cuda/gemm_kernels.hpp"
#include "backends/cuda/kernel_abi.hpp"
#endif

namespace gpuvet::cuda {
namespace {

using driver::Driver;

// Points the backend at a fake (or at nothing) for one test, and says how many GPUs it has.
class FakeDriver {
 public:
  FakeDriver(const char* library, int devices, const char* version = nullptr) {
    setenv("GPUVET_CUDA_LIBRARY", library, 1);
    setenv("GPUVET_FAKE_CUDA_DEVICES", std::to_string(devices).c_str(), 1);
    if (version != nullptr) setenv("GPUVET_FAKE_CUDA_VERSION", version, 1);
  }
  ~FakeDriver() {
    unsetenv("GPUVET_CUDA_LIBRARY");
    unsetenv("GPUVET_FAKE_CUDA_DEVICES");
    unsetenv("GPUVET_FAKE_CUDA_VERSION");
  }
  FakeDriver(const FakeDriver&) = delete;
  FakeDriver& operator=(const FakeDriver&) = delete;
};

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(CudaDriver, MissingLibraryIsAnEnvironmentErrorNamingIt) {
  auto loaded = Driver::open("/nonexistent/libcuda.so.1");
  ASSERT_FALSE(loaded);
  EXPECT_EQ(loaded.error().kind, core::ErrorKind::environment);
  EXPECT_TRUE(contains(loaded.error().message, "/nonexistent/libcuda.so.1")) << loaded.error().message;
  EXPECT_TRUE(contains(loaded.error().message, "CUDA driver unavailable")) << loaded.error().message;
}

TEST(CudaDriver, LibraryWithoutTheDriverApiNamesTheFirstMissingSymbol) {
  auto loaded = Driver::load(GPUVET_FAKE_NVML_FULL);  // a real shared library, but not a CUDA driver
  ASSERT_FALSE(loaded);
  EXPECT_EQ(loaded.error().kind, core::ErrorKind::environment);
  EXPECT_TRUE(contains(loaded.error().message, "CUDA driver symbol cuInit not exported by")) << loaded.error().message;
}

TEST(CudaDriver, ReadsTheVersionWithoutInitialising) {
  auto loaded = Driver::load(GPUVET_FAKE_CUDA_NEW);
  ASSERT_TRUE(loaded) << loaded.error().message;
  EXPECT_EQ((*loaded)->cuda_version(), 12040);
  EXPECT_EQ((*loaded)->release(), "550.54.15");  // from the file libcuda.so.1 links to
  EXPECT_EQ((*loaded)->describe_version(), "driver 550.54.15 (CUDA 12.4)");
  // The fake exports only cuEventElapsedTime (as drivers before 12.8 do): the fallback name is used.
  EXPECT_NE((*loaded)->api().event_elapsed_time, nullptr);
  EXPECT_EQ((*loaded)->describe(2), "CUDA_ERROR_OUT_OF_MEMORY (out of memory)");
  EXPECT_EQ((*loaded)->describe(12345), "CUDA driver error 12345");
}

TEST(CudaDriver, DriverOlderThanCuda12IsRefusedNamingBoth) {
  auto opened = Driver::open(GPUVET_FAKE_CUDA_OLD);
  ASSERT_FALSE(opened);
  EXPECT_EQ(opened.error().kind, core::ErrorKind::environment);
  const auto& message = opened.error().message;
  EXPECT_TRUE(contains(message, "driver 470.82.01 (CUDA 11.4)")) << message;
  EXPECT_TRUE(contains(message, "need CUDA 12.0 or later (driver 525.60.13 or later)")) << message;
}

TEST(CudaDriver, TheGateIsCuda12Exactly) {
  FakeDriver fake(GPUVET_FAKE_CUDA_NEW, 0, "11080");
  EXPECT_FALSE(Driver::open(GPUVET_FAKE_CUDA_NEW));
  setenv("GPUVET_FAKE_CUDA_VERSION", "12000", 1);
  EXPECT_TRUE(Driver::open(GPUVET_FAKE_CUDA_NEW));
  setenv("GPUVET_FAKE_CUDA_VERSION", "13010", 1);  // newer than this build's toolkit: still fine
  EXPECT_TRUE(Driver::open(GPUVET_FAKE_CUDA_NEW));
}

TEST(CudaDriver, InitFailureNamesTheDriver) {
  FakeDriver fake(GPUVET_FAKE_CUDA_NEW, 0);
  setenv("GPUVET_FAKE_CUDA_INIT_ERROR", "100", 1);
  auto opened = Driver::open(GPUVET_FAKE_CUDA_NEW);
  unsetenv("GPUVET_FAKE_CUDA_INIT_ERROR");
  ASSERT_FALSE(opened);
  EXPECT_TRUE(contains(opened.error().message, "cuInit")) << opened.error().message;
  EXPECT_TRUE(contains(opened.error().message, "CUDA 12.4")) << opened.error().message;
  EXPECT_TRUE(contains(opened.error().message, "CUDA_ERROR_NO_DEVICE")) << opened.error().message;
}

TEST(Cublas, DriverBeforeCuda13GetsCublas12Only) {
  // cuBLAS 13 cannot initialise on a pre-580 driver: it must not even be tried there.
  auto lib = cublas::Library::load(12040);
  if (lib) {
    EXPECT_EQ((*lib)->name(), "libcublas.so.12");
  } else {
    EXPECT_FALSE(contains(lib.error().message, "libcublas.so.13")) << lib.error().message;
    EXPECT_TRUE(contains(lib.error().message, "libcublas.so.12")) << lib.error().message;
  }
}

TEST(CudaVersions, RuntimeVersionsNeverFail) {
  setenv("GPUVET_CUDA_LIBRARY", "/nonexistent/libcuda.so.1", 1);
  setenv("GPUVET_NCCL_LIBRARY", "/nonexistent/libnccl.so.2", 1);
  auto lines = runtime_versions();
  unsetenv("GPUVET_CUDA_LIBRARY");
  unsetenv("GPUVET_NCCL_LIBRARY");
  ASSERT_GE(lines.size(), 3u);
  EXPECT_EQ(lines[0].component, "CUDA driver");
  EXPECT_TRUE(contains(lines[0].detail, "not found")) << lines[0].detail;
  EXPECT_EQ(lines[1].component, "NCCL");
  EXPECT_TRUE(contains(lines[1].detail, "not found")) << lines[1].detail;
  EXPECT_EQ(lines[2].component, "cuBLAS");  // found or not, depending on this machine
}

TEST(CudaVersions, RuntimeVersionsNameAnOldDriver) {
  FakeDriver fake(GPUVET_FAKE_CUDA_OLD, 0);
  auto lines = runtime_versions();
  ASSERT_FALSE(lines.empty());
  EXPECT_TRUE(contains(lines[0].detail, "driver 470.82.01 (CUDA 11.4)")) << lines[0].detail;
  EXPECT_TRUE(contains(lines[0].detail, "too old")) << lines[0].detail;
}

#ifdef GPUVET_HAVE_CUDA

// The fake's count of primary contexts retained and not released.
int retained(const char* library) {
  void* handle = dlopen(library, RTLD_NOW | RTLD_NOLOAD);
  if (handle == nullptr) return -1;
  auto* count = reinterpret_cast<int (*)()>(dlsym(handle, "gpuvet_fake_cuda_retained"));
  const int n = count != nullptr ? count() : -1;
  dlclose(handle);
  return n;
}

TEST(EmbeddedKernels, FatbinHoldsSassForEveryListedArchitectureAndPtx) {
  const auto images = list_fatbin(embedded_fatbin(), embedded_fatbin_size());
  std::vector<int> sass;
  std::vector<int> ptx;
  for (const auto& image : images) (image.ptx ? ptx : sass).push_back(image.arch);
  EXPECT_EQ(sass, (std::vector<int>{80, 86, 89, 90, 100, 120}));
  EXPECT_EQ(ptx, (std::vector<int>{80}));
  EXPECT_TRUE(contains(describe_fatbin(images), "SASS sm_80 sm_86 sm_89 sm_90 sm_100 sm_120, PTX compute_80"))
      << describe_fatbin(images);
}

TEST(EmbeddedKernels, NotAFatbinListsNothing) {
  const unsigned char junk[64] = {1, 2, 3};
  EXPECT_TRUE(list_fatbin(junk, sizeof junk).empty());
  EXPECT_TRUE(list_fatbin(embedded_fatbin(), 8).empty());
  // A header that claims more than there is.
  EXPECT_TRUE(list_fatbin(embedded_fatbin(), 100).empty());
}

TEST(EmbeddedKernels, EveryLaunchedKernelIsInTheModuleByItsUnmangledName) {
  FakeDriver fake(GPUVET_FAKE_CUDA_NEW, 1);
  {
    auto gpus = Gpus::open();
    ASSERT_TRUE(gpus) << gpus.error().message;
    auto gpu = (*gpus)->get(0);
    ASSERT_TRUE(gpu);
    ASSERT_FALSE((*gpu)->make_current());
    for (const char* name : {kernel_name::kSpin, kernel_name::kCopy, kernel_name::kChase, kernel_name::kPatternWrite,
                             kernel_name::kPatternCheck, kernel_name::kGemmFill, kernel_name::kGemmMismatch,
                             kernel_name::kGemmReference, kernel_name::kNcclFill, kernel_name::kNcclCheck}) {
      EXPECT_TRUE((*gpu)->kernel(name)) << name;
    }
    auto missing = (*gpu)->kernel("spin_kernel");
    ASSERT_FALSE(missing);
    EXPECT_TRUE(contains(missing.error().message, "GPU 0: kernel spin_kernel")) << missing.error().message;
    EXPECT_EQ(retained(GPUVET_FAKE_CUDA_NEW), 1);
  }
  EXPECT_EQ(retained(GPUVET_FAKE_CUDA_NEW), 0);  // released when the GPUs go
}

TEST(CudaBackends, ZeroGpusIsAnEnvironmentError) {
  FakeDriver fake(GPUVET_FAKE_CUDA_NEW, 0);
  auto copies = make_copy_backend();
  ASSERT_FALSE(copies);
  EXPECT_EQ(copies.error().kind, core::ErrorKind::environment);
  EXPECT_TRUE(contains(copies.error().message, "no GPU visible")) << copies.error().message;
  EXPECT_TRUE(contains(copies.error().message, "550.54.15")) << copies.error().message;
  auto nccl = make_nccl_backend("/nonexistent/libnccl.so.2");
  ASSERT_FALSE(nccl);
  EXPECT_TRUE(contains(nccl.error().message, "sees no GPU")) << nccl.error().message;
  auto gemm = make_gemm_stress_backend();
  ASSERT_FALSE(gemm);
  EXPECT_TRUE(contains(gemm.error().message, "no GPU visible")) << gemm.error().message;
}

TEST(CudaBackends, OldDriverRefusedByEveryFactory) {
  FakeDriver fake(GPUVET_FAKE_CUDA_OLD, 2);
  auto copies = make_copy_backend();
  auto nccl = make_nccl_backend("/nonexistent/libnccl.so.2");
  auto gemm = make_gemm_stress_backend();
  for (const auto* error : {&copies.error(), &nccl.error(), &gemm.error()}) {
    EXPECT_EQ(error->kind, core::ErrorKind::environment);
    EXPECT_TRUE(contains(error->message, "CUDA 11.4")) << error->message;
    EXPECT_TRUE(contains(error->message, "CUDA 12.0")) << error->message;
  }
  EXPECT_EQ(retained(GPUVET_FAKE_CUDA_OLD), 0);
}

TEST(CudaBackends, CopyBackendListsGpusInPciSpellingAndReleasesContexts) {
  FakeDriver fake(GPUVET_FAKE_CUDA_NEW, 2);
  {
    auto backend = make_copy_backend();
    ASSERT_TRUE(backend) << backend.error().message;
    auto devices = (*backend)->devices();
    ASSERT_TRUE(devices);
    ASSERT_EQ(devices->size(), 2u);
    EXPECT_EQ((*devices)[0].name, "Fake GPU 0");
    EXPECT_EQ((*devices)[0].pci_bus_id, "0000:18:00.0");
    EXPECT_EQ((*devices)[1].pci_bus_id, "0000:28:00.0");
    EXPECT_TRUE(contains((*backend)->describe(), "driver 550.54.15 (CUDA 12.4)")) << (*backend)->describe();
    EXPECT_EQ(retained(GPUVET_FAKE_CUDA_NEW), 0);  // no context until a GPU is used
    auto peer = (*backend)->can_access_peer(0, 1);
    ASSERT_TRUE(peer) << peer.error().message;
    // The fake has memory info but no memory: the check fails on GPU 1 only, naming the driver's words.
    api::VramRequest request;
    request.gpu = 1;
    auto vram = (*backend)->verify_vram(request);
    ASSERT_FALSE(vram);
    EXPECT_TRUE(contains(vram.error().message, "GPU 1: allocate the result counters: CUDA_ERROR_OUT_OF_MEMORY"))
        << vram.error().message;
    EXPECT_EQ(retained(GPUVET_FAKE_CUDA_NEW), 1);
  }
  EXPECT_EQ(retained(GPUVET_FAKE_CUDA_NEW), 0);
}

TEST(GemmHost, HalfAndBfloatConversionIsExact) {
  const std::uint16_t half[] = {0x3c00, 0xc100, 0x0001, 0x0200, 0x7bff, 0x7c00, 0x8000, 0x3555};
  const double want[] = {1.0, -2.5, std::ldexp(1.0, -24), std::ldexp(1.0, -15), 65504.0,
                         std::numeric_limits<double>::infinity(), -0.0, 0.333251953125};
  for (std::size_t i = 0; i < std::size(half); ++i) {
    EXPECT_EQ(gemm::element_value(half, i, gemm::Elem::fp16), want[i]) << std::hex << half[i];
  }
  EXPECT_TRUE(std::isnan(gemm::element_value(std::array<std::uint16_t, 1>{0x7e00}.data(), 0, gemm::Elem::fp16)));
  const std::uint16_t bf16[] = {0x3f80, 0xc020, 0x4049};
  EXPECT_EQ(gemm::element_value(bf16, 0, gemm::Elem::bf16), 1.0);
  EXPECT_EQ(gemm::element_value(bf16, 1, gemm::Elem::bf16), -2.5);
  EXPECT_EQ(gemm::element_value(bf16, 2, gemm::Elem::bf16), 3.140625);
}

#else

TEST(CudaBackends, BuildWithoutCudaSaysSo) {
  auto copies = make_copy_backend();
  ASSERT_FALSE(copies);
  EXPECT_TRUE(contains(copies.error().message, "built without the CUDA toolkit")) << copies.error().message;
}

#endif

}  // namespace
}  // namespace gpuvet::cuda
