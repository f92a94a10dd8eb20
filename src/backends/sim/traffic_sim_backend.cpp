// Simulated link traffic: cold rates from the machine's collective model and copy physics at
// start, then per poll those rates scaled by each GPU's link factor at its current temperature.
#include "backends/sim/traffic_sim_backend.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "backends/sim/collective_model.hpp"
#include "backends/sim/copy_physics.hpp"

namespace gpuvet::sim {

namespace {

// Wrong elements a corrupting GPU's outputs hold per interval (the simulator's choice).
constexpr std::int64_t kWrongPerInterval = 4096;

bool contains(const std::vector<int>& v, int x) { return std::find(v.begin(), v.end(), x) != v.end(); }

}  // namespace

SimTrafficBackend::SimTrafficBackend(std::shared_ptr<BurninModel> model, std::uint64_t seed)
    : model_(std::move(model)), rng_(seed * 7777ULL + 11) {}

std::string SimTrafficBackend::describe() const { return "simulated link traffic (collective model, copy physics)"; }

double SimTrafficBackend::jitter(double value) {
  std::normal_distribution<double> d(0.0, 0.004);
  return value * (1 + d(rng_));
}

std::optional<core::Error> SimTrafficBackend::start(const api::TrafficConfig& config, double t_s) {
  model_->advance_to(t_s);
  const auto n = config.gpus.size();
  if (config.settings.loads_nvlink() && n < 2) return core::usage_error("--traffic: collectives need at least two GPUs");
  for (int g : config.gpus) {
    if (g < 0 || g >= model_->gpu_count()) return core::usage_error(fmt::format("no GPU {} in the simulation", g));
  }
  config_ = config;
  const SimState& state = model_->state();
  std::vector<int> profile;
  for (int g : config.gpus) profile.push_back(model_->profile_index(g));
  const CollectiveModel collectives(state);
  const double bytes = static_cast<double>(config.collective_bytes);
  const double ranks = static_cast<double>(n);
  if (n >= 2) {
    const auto ar = collectives.estimate(api::CollectiveOp::all_reduce, profile, config.collective_bytes, false);
    const auto a2a = collectives.estimate(api::CollectiveOp::alltoall, profile, config.collective_bytes, false);
    all_reduce_gbps_ = ar.time_us > 0 ? bytes / (ar.time_us * 1e3) * 2 * (ranks - 1) / ranks : 0;
    all_to_all_gbps_ = a2a.time_us > 0 ? bytes / (a2a.time_us * 1e3) * (ranks - 1) / ranks : 0;
  }
  send_gbps_.assign(n, 0);
  recv_gbps_.assign(n, 0);
  for (std::size_t i = 0; i < n && n >= 2; ++i) {
    const int next = profile[(i + 1) % n];
    const int prev = profile[(i + n - 1) % n];
    send_gbps_[i] = collectives.path(profile[i], next).actual_gbps;
    recv_gbps_[i] = collectives.path(prev, profile[i]).actual_gbps;
  }
  // Host copies: every GPU's host-to-device copies at once, then device-to-host, from the memory
  // of its own NUMA node (what the copy engines reach when all GPUs copy together).
  const CopyPhysics physics(state);
  const auto rates = [&](bool h2d) {
    api::CopyRequest request;
    request.bytes = config.copy_bytes;
    for (std::size_t i = 0; i < n; ++i) {
      const auto host = api::CopyEndpoint::host_memory(config.gpus[i], physical_numa_node(state, profile[i]));
      const auto device = api::CopyEndpoint::device(config.gpus[i]);
      request.streams.push_back({h2d ? host : device, h2d ? device : host, config.gpus[i]});
    }
    auto r = physics.concurrent_rates(request);
    return r ? std::move(r).value() : std::vector<double>(n, 0.0);
  };
  h2d_gbps_ = rates(true);
  d2h_gbps_ = rates(false);
  running_ = true;
  model_->set_traffic(config.settings.loads_nvlink() ? config.settings.share : 0.0);
  return std::nullopt;
}

void SimTrafficBackend::poll_collectives(api::TrafficStatus& status, const std::vector<int>& lost) {
  // A ring runs at the pace of its slowest member: the lowest link factor of the group.
  double factor = 1;
  bool corrupt = false;
  for (int g : config_.gpus) {
    factor = std::min(factor, model_->link_factor(g));
    corrupt = corrupt || model_->corrupts(g);
  }
  const auto one = [&](core::TrafficKind kind, const char* op, double cold_gbps) {
    if (!config_.settings.has(kind)) return;
    core::CollectiveTraffic c;
    c.op = op;
    if (!lost.empty()) {
      const auto gone = core::Absent{fmt::format("GPU {} is lost: the collective cannot run (simulated)", lost.front())};
      c.busbw_gbps = gone;
      c.wrong = gone;
    } else {
      c.busbw_gbps = jitter(cold_gbps * factor);
      c.wrong = corrupt ? kWrongPerInterval : std::int64_t{0};
    }
    status.collectives.push_back(std::move(c));
  };
  one(core::TrafficKind::all_reduce, "all_reduce", all_reduce_gbps_);
  one(core::TrafficKind::all_to_all, "all_to_all", all_to_all_gbps_);
}

void SimTrafficBackend::poll_gpus(api::TrafficStatus& status, const std::vector<int>& lost) {
  const auto n = config_.gpus.size();
  const bool collectives = config_.settings.loads_nvlink();
  const bool copies = config_.settings.has(core::TrafficKind::copies);
  for (std::size_t i = 0; i < n; ++i) {
    const int g = config_.gpus[i];
    core::GpuTraffic t;
    t.gpu = g;
    t.gemm_digest = core::Absent{"not a traffic reading (the stress backend's cross-check)"};
    if (contains(lost, g)) {
      const auto gone = core::Absent{"GPU is lost (simulated)"};
      t.send_gbps = t.recv_gbps = t.h2d_gbps = t.d2h_gbps = gone;
      t.wrong = gone;
      status.gpus.push_back(std::move(t));
      continue;
    }
    const auto no_collectives = core::Absent{std::string(core::kTrafficNotAsked)};
    if (collectives && n >= 2) {
      // A send and a receive move at the pace of the slower end.
      const int next = config_.gpus[(i + 1) % n];
      const int prev = config_.gpus[(i + n - 1) % n];
      const double own = model_->link_factor(g);
      t.send_gbps = jitter(send_gbps_[i] * std::min(own, model_->link_factor(next)));
      t.recv_gbps = jitter(recv_gbps_[i] * std::min(own, model_->link_factor(prev)));
      t.wrong = model_->corrupts(g) ? kWrongPerInterval : std::int64_t{0};
    } else {
      t.send_gbps = t.recv_gbps = no_collectives;
      t.wrong = no_collectives;
    }
    if (copies) {
      t.h2d_gbps = jitter(h2d_gbps_[i]);
      t.d2h_gbps = jitter(d2h_gbps_[i]);
    } else {
      t.h2d_gbps = t.d2h_gbps = core::Absent{std::string(core::kTrafficNotAsked)};
    }
    status.gpus.push_back(std::move(t));
  }
}

api::TrafficStatus SimTrafficBackend::poll(double t_s) {
  model_->advance_to(t_s);
  api::TrafficStatus status;
  status.running = running_;
  std::vector<int> lost;
  for (int g : config_.gpus) {
    if (model_->lost(g)) lost.push_back(g);
  }
  poll_collectives(status, lost);
  poll_gpus(status, lost);
  return status;
}

void SimTrafficBackend::stop(double t_s) {
  model_->advance_to(t_s);
  model_->set_traffic(0.0);
  running_ = false;
}

}  // namespace gpuvet::sim
