// The simulator's traffic backend for `gpuvet burnin --traffic`: collectives, ring-neighbour sends
// and host copies over the simulated machine, read from the same BurninModel the GEMM load heats,
// so a card whose links slow with temperature (busbw-heat) slows the group's collectives, a link
// with a CRC fault counts errors only while traffic crosses it, and an sdc fault returns wrong
// elements. Rates come from the collective model and copy physics of the machine; virtual time.
#pragma once

#include <memory>
#include <random>
#include <vector>

#include "backends/api/traffic_backend.hpp"
#include "backends/sim/burnin_model.hpp"

namespace gpuvet::sim {

class SimTrafficBackend final : public api::TrafficBackend {
 public:
  explicit SimTrafficBackend(std::shared_ptr<BurninModel> model, std::uint64_t seed);
  [[nodiscard]] std::string describe() const override;
  [[nodiscard]] bool simulated() const override { return true; }
  std::optional<core::Error> start(const api::TrafficConfig& config, double t_s) override;
  api::TrafficStatus poll(double t_s) override;
  void stop(double t_s) override;

 private:
  [[nodiscard]] double jitter(double value);
  void poll_collectives(api::TrafficStatus& status, const std::vector<int>& lost);
  void poll_gpus(api::TrafficStatus& status, const std::vector<int>& lost);

  std::shared_ptr<BurninModel> model_;
  std::mt19937_64 rng_;
  api::TrafficConfig config_;
  bool running_ = false;
  // Healthy, cold rates worked out at start (GB/s): each collective's busbw, each GPU's send and
  // receive to its ring neighbours and its host copy rates.
  double all_reduce_gbps_ = 0;
  double all_to_all_gbps_ = 0;
  std::vector<double> send_gbps_, recv_gbps_, h2d_gbps_, d2h_gbps_;
};

}  // namespace gpuvet::sim
