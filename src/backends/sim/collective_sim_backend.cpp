// Simulated collectives: ordinals -> profile GPUs, the model's time per iteration, seeded noise.
// Across simulated nodes (one per MPI rank) each rank shares its node's NodeShare with the others
// and every rank computes the same collective time from all of them.
#include "backends/sim/collective_sim_backend.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <sstream>

#include "backends/sim/collective_model.hpp"

namespace gpuvet::sim {
namespace {

// Run-to-run spread of a healthy machine's iteration times (relative standard deviation).
constexpr double kNoiseSigma = 0.005;
// Memory the driver, NCCL's own buffers and the CUDA context keep (per GPU).
constexpr std::uint64_t kReservedBytes = 2ull << 30;

std::uint64_t mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// Uniform in (0, 1) from 53 bits.
double unit(std::uint64_t bits) { return (static_cast<double>(bits >> 11) + 0.5) / 9007199254740992.0; }

class SimCollectiveBackend final : public api::CollectiveBackend {
 public:
  SimCollectiveBackend(const SimState& state, std::uint64_t seed) : state_(state), model_(state_), seed_(seed) {
    for (std::size_t i = 0; i < state_.gpus.size(); ++i) {
      if (state_.gpus[i].present) present_.push_back(static_cast<int>(i));
    }
  }

  [[nodiscard]] std::string describe() const override {
    return fmt::format("simulated: {} (analytic ring/NVLS/NIC model, seed {})", state_.profile.name, seed_);
  }
  [[nodiscard]] bool simulated() const override { return true; }

  core::Result<std::vector<api::DeviceInfo>> devices() override {
    std::vector<api::DeviceInfo> out;
    for (std::size_t pos = 0; pos < present_.size(); ++pos) {
      const SimGpu& g = state_.gpus[static_cast<std::size_t>(present_[pos])];
      const auto& bridge = state_.profile.host_bridges[static_cast<std::size_t>(g.host_bridge)];
      out.push_back({static_cast<int>(pos), g.model->nvml_name, fmt::format("0000:{:02x}:00.0", g.pci_bus),
                     g.numa_override.value_or(bridge.numa_node)});
    }
    return out;
  }

  core::Result<std::uint64_t> memory_per_gpu() override {
    std::uint64_t smallest = UINT64_MAX;
    for (int i : present_) {
      const SimGpu& g = state_.gpus[static_cast<std::size_t>(i)];
      auto bytes = g.memory_total_mib << 20;
      if (g.vram_real_gib) bytes = static_cast<std::uint64_t>(*g.vram_real_gib * (1ull << 30));
      smallest = std::min(smallest, bytes);
    }
    if (present_.empty()) return core::environment_error("simulated machine has no GPUs left");
    return smallest > kReservedBytes ? smallest - kReservedBytes : 0;
  }

  core::Result<api::CollectiveSample> run(const api::CollectiveRequest& request) override {
    auto profile_gpus = checked(request);
    if (!profile_gpus) return profile_gpus.error();
    if (auto hang = hung(request, *profile_gpus)) return *hang;
    auto sample = sampled(request, model_.estimate(request.op, *profile_gpus, request.bytes, request.in_place,
                                                   request.nvls.value_or(true)));
    corrupt(request, *profile_gpus, sample);
    return sample;
  }

  core::Result<api::CollectiveSample> run_across(const api::CollectiveRequest& request, api::ProcessGroup& group) override {
    auto profile_gpus = checked(request);
    const NodeShare mine = profile_gpus ? model_.node_share(*profile_gpus) : NodeShare{};
    auto texts = group.all_gather(profile_gpus ? fmt::format("{} {:.17g} {:.17g} {:.17g} {:.17g}", mine.ranks, mine.ring_gbps,
                                                             mine.net_gbps, mine.one_nic_gbps, mine.step_us)
                                               : std::string("error"));
    if (!texts) return texts.error();
    if (!profile_gpus) return profile_gpus.error();
    std::vector<NodeShare> nodes;
    for (std::size_t r = 0; r < texts->size(); ++r) {
      std::istringstream in((*texts)[r]);
      NodeShare n;
      if (!(in >> n.ranks >> n.ring_gbps >> n.net_gbps >> n.one_nic_gbps >> n.step_us)) {
        return core::environment_error(fmt::format("simulated node {} could not take part in the collective", r));
      }
      nodes.push_back(n);
    }
    if (auto hang = hung(request, *profile_gpus)) return *hang;
    auto sample = sampled(request, CollectiveModel::across_nodes(request.op, nodes, request.bytes));
    corrupt(request, *profile_gpus, sample);
    return sample;
  }

 private:
  // The request's ordinals as profile GPU indices, checked.
  core::Result<std::vector<int>> checked(const api::CollectiveRequest& request) const {
    if (request.gpus.empty()) return core::internal_error("collective request names no GPUs");
    std::set<int> seen;
    std::vector<int> profile_gpus;
    for (int ordinal : request.gpus) {
      if (ordinal < 0 || ordinal >= static_cast<int>(present_.size()) || !seen.insert(ordinal).second) {
        return core::internal_error(fmt::format("collective request: bad or repeated GPU ordinal {}", ordinal));
      }
      profile_gpus.push_back(present_[static_cast<std::size_t>(ordinal)]);
    }
    if (request.iterations < 1) return core::internal_error("collective request: no timed iterations");
    return profile_gpus;
  }

  // collective-hang: a set with a wedged GPU never finishes at or above the fault's size; the
  // sample looks like the real backend's after its timeout.
  std::optional<api::CollectiveSample> hung(const api::CollectiveRequest& request, const std::vector<int>& profile_gpus) const {
    api::CollectiveHang hang;
    for (std::size_t r = 0; r < profile_gpus.size(); ++r) {
      const auto& from = state_.gpus[static_cast<std::size_t>(profile_gpus[r])].collective_hang_bytes;
      if (from && request.bytes >= *from) hang.pending_gpus.push_back(request.gpus[r]);
    }
    if (hang.pending_gpus.empty()) return std::nullopt;
    hang.detail = "simulated: a collective-hang fault holds these GPUs";
    api::CollectiveSample sample;
    sample.hang = std::move(hang);
    return sample;
  }

  // collective-corrupt: the corrupting GPU's share of the result is wrong.
  void corrupt(const api::CollectiveRequest& request, const std::vector<int>& profile_gpus, api::CollectiveSample& sample) const {
    if (!sample.wrong) return;
    for (int g : profile_gpus) {
      if (state_.gpus[static_cast<std::size_t>(g)].collective_corrupts) {
        *sample.wrong += static_cast<std::int64_t>(std::max<std::uint64_t>(1, request.bytes / 4 / profile_gpus.size()));
      }
    }
  }

  api::CollectiveSample sampled(const api::CollectiveRequest& request, const CollectiveEstimate& estimate) {
    api::CollectiveSample sample;
    ++calls_;
    for (int i = 0; i < request.iterations; ++i) {
      const std::uint64_t key = mix(seed_ ^ mix(calls_ * 1000003ull + static_cast<std::uint64_t>(i)));
      // Box-Muller: one normal deviate per iteration.
      const double z = std::sqrt(-2.0 * std::log(unit(key))) * std::cos(6.283185307179586 * unit(mix(key)));
      sample.iteration_us.push_back(estimate.time_us * std::max(0.5, 1.0 + kNoiseSigma * z));
    }
    if (request.check) sample.wrong = 0;
    return sample;
  }

  SimState state_;
  CollectiveModel model_;
  std::uint64_t seed_;
  std::uint64_t calls_ = 0;
  std::vector<int> present_;
};

}  // namespace

std::unique_ptr<api::CollectiveBackend> make_collective_backend(const SimState& state, std::uint64_t seed) {
  return std::make_unique<SimCollectiveBackend>(state, seed);
}

}  // namespace gpuvet::sim
