// Copy physics of a simulated machine. Each stream gets its standalone rate from the path it
// takes (PCIe link, NVLink bundle or NVSwitch port group, host staging), then streams sharing a
// resource (a GPU's PCIe link in one direction, its NVLink ingress or egress) are scaled down to
// that resource's capacity, the way concurrent copies share real links.
#include "backends/sim/copy_model.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <random>

#include "backends/sim/copy_physics.hpp"

namespace gpuvet::sim {
namespace {

class SimCopyBackend final : public api::CopyBackend {
 public:
  SimCopyBackend(SimState state, std::uint64_t seed) : physics_(std::move(state)), rng_(seed) {}

  [[nodiscard]] std::string describe() const override {
    return fmt::format("simulated {} (seeded model, not a measurement)", physics_.state().profile.name);
  }
  [[nodiscard]] bool simulated() const override { return true; }

  core::Result<std::vector<api::DeviceInfo>> devices() override {
    std::vector<api::DeviceInfo> out;
    for (int ordinal = 0; ordinal < physics_.device_count(); ++ordinal) {
      const int g = physics_.gpu_of(ordinal);
      const SimGpu& gpu = physics_.state().gpus[static_cast<std::size_t>(g)];
      out.push_back({ordinal, gpu.model->nvml_name, fmt::format("00000000:{:02X}:00.0", gpu.pci_bus),
                     reported_numa_node(physics_.state(), g)});
    }
    return out;
  }

  core::Result<std::vector<int>> host_numa_nodes() override {
    std::vector<int> out;
    for (const auto& n : physics_.state().profile.numa_nodes) out.push_back(n.id);
    return out;
  }

  core::Result<bool> can_access_peer(int a, int b) override {
    if (auto e = physics_.check_ordinal(a)) return *e;
    if (auto e = physics_.check_ordinal(b)) return *e;
    return physics_.peer_access(a, b);
  }

  core::Result<std::vector<double>> copy_sample(const api::CopyRequest& request) override {
    auto rates = physics_.concurrent_rates(request);
    if (!rates) return rates.error();
    for (double& r : rates.value()) r *= noise();
    return rates;
  }

  core::Result<double> latency_sample(const api::LatencyRequest& request) override {
    auto ns = physics_.latency_ns(request);
    if (!ns) return ns.error();
    return *ns * (2.0 - noise());
  }

  core::Result<core::VramCheck> verify_vram(const api::VramRequest& request) override {
    return physics_.vram_check(request);
  }

 private:
  // Multiplicative run-to-run spread: -1 % .. +0.3 % (real copies scatter mostly downwards).
  double noise() { return std::uniform_real_distribution<double>(0.990, 1.003)(rng_); }

  CopyPhysics physics_;
  std::mt19937_64 rng_;
};

}  // namespace

std::unique_ptr<api::CopyBackend> make_copy_backend(SimState state, std::uint64_t seed) {
  return std::make_unique<SimCopyBackend>(std::move(state), seed);
}

}  // namespace gpuvet::sim
