// How the NVML backend degrades: an old library without optional symbols, a library without a
// required symbol, no library, nvmlInit failures, and a GPU that falls off the bus.
#include <gtest/gtest.h>

#include "backends/sim/simulator.hpp"
#include "nvml_fake_env.hpp"

namespace gpuvet::nvml {
namespace {

using testing::FakeSetup;
using testing::kFullLibrary;
using testing::kMinimalLibrary;
using testing::kNoCountLibrary;
using testing::read_fake;

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

core::Machine simulated(const std::string& profile) { return sim::simulate_machine(profile, {}).value(); }

TEST(NvmlDegrade, OldLibraryDegradesReadingsAndNamesTheMissingSymbol) {
  const auto live = read_fake(kMinimalLibrary, FakeSetup{"hgx-h100-8x", "", "", ""});
  ASSERT_TRUE(live.ok()) << live.error().message;
  const auto sim = simulated("hgx-h100-8x");
  ASSERT_EQ(live->gpus.size(), sim.gpus.size());
  const core::Gpu& g = live->gpus[0];
  // Fallbacks: nvmlInit, _v1 count/handle, PciInfo_v2 (busIdLegacy), MemoryInfo v1, ThrottleReasons.
  EXPECT_EQ(g.uuid, sim.gpus[0].uuid);
  EXPECT_EQ(g.pci_bus_id.value(), core::normalize_pci_bus_id(sim.gpus[0].pci_bus_id.value()));
  EXPECT_EQ(g.memory_total_mib, sim.gpus[0].memory_total_mib);
  EXPECT_TRUE(g.idle.known()) << g.idle.reason();
  EXPECT_EQ(live->cuda_version, sim.cuda_version);
  // Missing optional symbols: absent with a reason naming the symbol.
  const auto& rows = g.memory_health.remapped_rows_correctable;
  ASSERT_FALSE(rows.known());
  EXPECT_TRUE(contains(rows.reason(), "nvmlDeviceGetRemappedRows not exported by")) << rows.reason();
  EXPECT_TRUE(contains(rows.reason(), kMinimalLibrary)) << rows.reason();
  ASSERT_TRUE(g.nvlinks.known()) << g.nvlinks.reason();  // probed through nvmlDeviceGetNvLinkState
  ASSERT_EQ(g.nvlinks->size(), sim.gpus[0].nvlinks->size());
  const auto& port = g.nvlinks->front();
  EXPECT_EQ(port.active, core::Reading<bool>(true));
  EXPECT_TRUE(port.remote_pci_bus_id.known()) << port.remote_pci_bus_id.reason();
  EXPECT_TRUE(contains(port.remote.reason(), "nvmlDeviceGetNvLinkRemoteDeviceType")) << port.remote.reason();
  EXPECT_TRUE(contains(port.speed_gbps.reason(), "nvmlDeviceGetFieldValues")) << port.speed_gbps.reason();
  // Without the remote type, a remote bus id that is none of our GPUs but terminates NVLinks
  // from several of them can only be an NVSwitch: the HGX matrix is still NV18 everywhere.
  ASSERT_TRUE(live->links.known()) << live->links.reason();
  EXPECT_EQ(live->links->at(0, 7), (core::Link{core::LinkKind::nvlink, 18}));
  EXPECT_EQ(live->nvswitch_present, core::Reading<bool>(true));
}

TEST(NvmlDegrade, OldLibraryWithoutTopologySymbolLeavesMatrixAbsent) {
  const auto live = read_fake(kMinimalLibrary, FakeSetup{"a100-pcie-4x-bridged", "", "", ""});
  ASSERT_TRUE(live.ok()) << live.error().message;
  ASSERT_FALSE(live->links.known());
  EXPECT_TRUE(contains(live->links.reason(), "nvmlDeviceGetTopologyCommonAncestor")) << live->links.reason();
  // The bridge pairs are still identified by bus id, so there is no NVSwitch.
  EXPECT_EQ(live->nvswitch_present, core::Reading<bool>(false));
}

TEST(NvmlDegrade, MissingRequiredSymbolIsAnEnvironmentErrorNamingIt) {
  const auto live = read_fake(kNoCountLibrary, FakeSetup{});
  ASSERT_FALSE(live.ok());
  EXPECT_EQ(live.error().kind, core::ErrorKind::environment);
  EXPECT_TRUE(contains(live.error().message, "nvmlDeviceGetCount_v2")) << live.error().message;
  EXPECT_TRUE(contains(live.error().message, "nvmlDeviceGetCount)")) << live.error().message;
  EXPECT_TRUE(contains(live.error().message, kNoCountLibrary)) << live.error().message;
}

TEST(NvmlDegrade, LibraryThatDoesNotExistIsAnEnvironmentError) {
  const auto live = read_machine("/nonexistent/libnvidia-ml.so.1");
  ASSERT_FALSE(live.ok());
  EXPECT_EQ(live.error().kind, core::ErrorKind::environment);
  EXPECT_TRUE(contains(live.error().message, "/nonexistent/libnvidia-ml.so.1")) << live.error().message;
}

TEST(NvmlDegrade, InitFailuresCarryNvmlsWords) {
  struct Case {
    std::string code;
    std::string name;
    std::string words;
  };
  for (const auto& c : std::vector<Case>{{"9", "NVML_ERROR_DRIVER_NOT_LOADED", "Driver Not Loaded"},
                                         {"4", "NVML_ERROR_NO_PERMISSION", "Insufficient Permissions"},
                                         {"12", "NVML_ERROR_LIBRARY_NOT_FOUND", "NVML Shared Library Not Found"}}) {
    const auto live = read_fake(kFullLibrary, FakeSetup{"hgx-h100-8x", "", c.code, ""});
    ASSERT_FALSE(live.ok()) << c.code;
    EXPECT_EQ(live.error().kind, core::ErrorKind::environment);
    EXPECT_TRUE(contains(live.error().message, "nvmlInit_v2 failed")) << live.error().message;
    EXPECT_TRUE(contains(live.error().message, c.name)) << live.error().message;
    EXPECT_TRUE(contains(live.error().message, c.words)) << live.error().message;
  }
  // The old library has no nvmlInit_v2; the fallback name is the one reported.
  const auto old = read_fake(kMinimalLibrary, FakeSetup{"hgx-h100-8x", "", "9", ""});
  ASSERT_FALSE(old.ok());
  EXPECT_TRUE(contains(old.error().message, "nvmlInit failed")) << old.error().message;
}

TEST(NvmlDegrade, UnknownProfileInTheFakeSurfacesAsInitFailure) {
  const auto live = read_fake(kFullLibrary, FakeSetup{"no-such-profile", "", "", ""});
  ASSERT_FALSE(live.ok());
  EXPECT_TRUE(contains(live.error().message, "NVML_ERROR_UNKNOWN")) << live.error().message;
  EXPECT_TRUE(contains(live.error().message, "no-such-profile")) << live.error().message;
}

TEST(NvmlDegrade, GpuThatFallsOffTheBusKeepsEarlierReadingsAndIsNoted) {
  const auto live = read_fake(kFullLibrary, FakeSetup{"hgx-h100-8x", "", "", "3"});
  ASSERT_TRUE(live.ok()) << live.error().message;
  ASSERT_EQ(live->gpus.size(), 8u);
  const core::Gpu& lost = live->gpus[3];
  EXPECT_TRUE(lost.name.known());
  EXPECT_TRUE(lost.uuid.known());
  EXPECT_TRUE(lost.pci_bus_id.known());
  for (const auto& reason : {lost.serial.reason(), lost.memory_health.retired_pages_dbe.reason(), lost.nvlinks.reason(),
                             lost.numa_node.reason()}) {
    EXPECT_EQ(reason, "GPU fell off the bus (NVML_ERROR_GPU_IS_LOST)");
  }
  ASSERT_EQ(live->notes.size(), 1u);
  EXPECT_TRUE(contains(live->notes[0], "GPU 3 (")) << live->notes[0];
  EXPECT_TRUE(contains(live->notes[0], "fell off the bus")) << live->notes[0];
  EXPECT_FALSE(live->links.known());
  EXPECT_TRUE(live->gpus[4].serial.known());  // the other GPUs are unaffected
  EXPECT_TRUE(live->nvswitch_present.known() && live->nvswitch_present.value());
}

TEST(NvmlDegrade, DefaultLibraryNameComesFromTheEnvironment) {
  setenv("GPUVET_NVML_LIBRARY", "/opt/nvidia/libnvidia-ml.so.1", 1);
  EXPECT_EQ(default_library_name(), "/opt/nvidia/libnvidia-ml.so.1");
  unsetenv("GPUVET_NVML_LIBRARY");
  EXPECT_EQ(default_library_name(), "libnvidia-ml.so.1");
}

}  // namespace
}  // namespace gpuvet::nvml
