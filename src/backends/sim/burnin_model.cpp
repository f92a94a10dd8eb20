// The burn-in model's physics. Numbers are the simulator's, not measurements: the ambient inlet,
// heat-sink resistance and time constant give 60-70 °C at the power limit, as air- and
// liquid-cooled HGX boards report under GEMM load; GEMMs reach 80 % of the dense peak at the
// power-capped clock, about what cuBLAS reaches on an H100 SXM (790 of 989 bf16 TFLOP/s).
#include "backends/sim/burnin_model.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace gpuvet::sim {

namespace {

constexpr double kAmbientC = 30;
constexpr double kThermalTauS = 60;             // first-order time constant
constexpr double kLoadedTempRiseC = 36;         // at the power limit, healthy cooling
constexpr double kFailedCoolingFactor = 2.5;    // thermal-throttle: resistance multiplier
constexpr double kPowerCappedClock = 0.90;      // share of max SM clock a GEMM holds at the power cap
constexpr double kGemmEfficiency = 0.80;        // share of dense peak at the power-capped clock
constexpr double kIdlePowerShare = 0.10;

double peak_for(const core::GpuModel& m, const std::string& dtype) {
  core::Reading<double> r;
  if (dtype == "bf16" || dtype == "fp16") r = m.bf16_tflops;
  if (dtype == "tf32") r = m.tf32_tflops;
  if (dtype == "fp32") r = m.fp32_tflops;
  if (dtype == "fp64") r = m.fp64_tflops;
  if (dtype == "fp8") r = m.fp8_tflops;
  return r.value_or(0);
}

double noise(std::mt19937_64& rng, double sigma) {
  std::normal_distribution<double> d(0.0, sigma);
  return d(rng);
}

}  // namespace

BurninModel::BurninModel(std::shared_ptr<const SimState> shared_state, std::uint64_t seed, const std::string& dtype)
    : state_(std::move(shared_state)), dtype_(dtype) {
  const SimState& state = *state_;
  int index = 0;
  for (std::size_t i = 0; i < state.gpus.size(); ++i) {
    const SimGpu& s = state.gpus[i];
    if (!s.present) continue;
    BurninModelGpu g;
    g.index = index++;
    g.profile_index = static_cast<int>(i);
    g.sim = &s;
    const core::GpuModel& m = *s.model;
    g.power_limit_w = m.tdp_w.value_or(300);
    g.max_sm_clock_mhz = static_cast<double>(m.max_sm_clock_mhz.value_or(1500));
    g.mem_clock_mhz = static_cast<double>(m.max_mem_clock_mhz.value_or(1500));
    g.peak_tflops = peak_for(m, dtype);
    g.rng.seed(seed * 1000003ULL + state.profile.seed * 7919ULL + i);
    g.thermal_offset_c = std::clamp(noise(g.rng, 1.5), -3.0, 3.0);
    g.resistance_c_per_w = kLoadedTempRiseC / g.power_limit_w;
    g.temp_c = kAmbientC + 5 + g.thermal_offset_c;
    g.clock_factor = 0.1;
    g.power_w = g.power_limit_w * kIdlePowerShare;
    g.crc.assign(s.ports.size(), 0.0);
    gpus_.push_back(std::move(g));
  }
}

core::BurninGpu BurninModel::gpu_info(int gpu) const {
  const auto& g = gpus_.at(static_cast<std::size_t>(gpu));
  const core::GpuModel& m = *g.sim->model;
  core::BurninGpu info;
  info.index = g.index;
  info.name = m.nvml_name;
  info.uuid = g.sim->uuid;
  info.pci_bus_id = fmt::format("0000:{:02x}:00.0", g.sim->pci_bus);
  info.power_limit_w = m.tdp_w.known() ? core::Reading<double>(g.power_limit_w)
                                        : core::Reading<double>::absent("the catalogue has no power limit for " + m.id);
  info.shutdown_temp_c = kSimShutdownTempC;
  info.slowdown_temp_c = kSimSlowdownTempC;
  info.max_sm_clock_mhz = g.max_sm_clock_mhz;
  return info;
}

void BurninModel::set_load(int gpu, bool on) { gpus_.at(static_cast<std::size_t>(gpu)).loaded = on; }

void BurninModel::advance_to(double t_s) {
  while (now_s_ < t_s) {
    const double dt = std::min(1.0, t_s - now_s_);
    for (auto& g : gpus_) {
      fire_events(g, now_s_, now_s_ + dt);
      step(g, dt);
    }
    now_s_ += dt;
  }
}

void BurninModel::fire_events(BurninModelGpu& g, double from_s, double to_s) {
  const auto in_step = [&](double at) { return at >= from_s && at < to_s; };
  for (const auto& [at, code] : g.sim->burnin.xids) {
    if (in_step(at) && !g.lost) {
      pending_.push_back({g.index, at, core::TelemetryEventKind::xid, code, fmt::format("Xid {} (simulated)", code)});
    }
  }
  if (g.sim->burnin.lost_at_s && in_step(*g.sim->burnin.lost_at_s) && !g.lost) {
    const double at = *g.sim->burnin.lost_at_s;
    const bool has_xid79 = std::any_of(g.sim->burnin.xids.begin(), g.sim->burnin.xids.end(),
                                       [&](const auto& x) { return x.second == 79 && x.first == at; });
    if (!has_xid79) {
      pending_.push_back({g.index, at, core::TelemetryEventKind::xid, 79, "Xid 79: GPU has fallen off the bus (simulated)"});
    }
    pending_.push_back({g.index, at, core::TelemetryEventKind::gpu_lost, 0, "NVML_ERROR_GPU_IS_LOST (simulated)"});
    g.lost = true;
    g.loaded = false;
  }
}

void BurninModel::step(BurninModelGpu& g, double dt) {
  if (g.lost) return;
  const double t = now_s_ + dt;
  const bool cooling_failed = g.sim->burnin.throttle_at_s && t >= *g.sim->burnin.throttle_at_s;
  const double resistance = g.resistance_c_per_w * (cooling_failed ? kFailedCoolingFactor : 1.0);
  // temp-drift: a cooling fault that worsens a little every day (fan wear, a clogging filter).
  const double drift_c = g.sim->burnin.temp_drift_c_per_day * t / 86400.0;
  std::uint64_t reasons = 0;
  double clock = 0.0;
  double power = 0.0;
  if (g.loaded) {
    // The GEMM wants more than the power limit: the power cap holds the clock at ~90 %.
    clock = kPowerCappedClock * (1 + noise(g.rng, 0.002));
    power = g.power_limit_w * (0.985 + noise(g.rng, 0.004));
    reasons |= core::clocks_event::sw_power_cap;
    // Above the maximum operating temperature the driver lowers clocks until heat balances.
    const double max_power_for_temp = (kSimMaxOperatingTempC - kAmbientC - g.thermal_offset_c - drift_c) / resistance;
    if (power > max_power_for_temp && g.temp_c >= kSimMaxOperatingTempC - 0.5) {
      const double share = std::max(0.2, max_power_for_temp / power);
      clock *= std::pow(share, 0.4);  // power grows ~ f^2.5 along the voltage-frequency curve
      power *= share;
      reasons = core::clocks_event::sw_thermal_slowdown;
    }
  } else {
    clock = 0.1;
    power = g.power_limit_w * kIdlePowerShare * (1 + noise(g.rng, 0.01));
    reasons = core::clocks_event::gpu_idle;
  }
  const double target = kAmbientC + g.thermal_offset_c + drift_c + resistance * power;
  g.temp_c += (target - g.temp_c) * (1 - std::exp(-dt / kThermalTauS));
  if (g.temp_c >= kSimSlowdownTempC) reasons |= core::clocks_event::hw_thermal_slowdown;
  g.clock_factor = clock;
  g.power_w = power;
  g.reasons = reasons;
  g.energy_j += power * dt;
  if (g.loaded) {
    g.work_tflop += g.peak_tflops * kGemmEfficiency * (clock / kPowerCappedClock) * g.sim->straggler_factor * dt *
                    (1 + noise(g.rng, 0.003));
    g.ecc_corrected += g.sim->burnin.ecc_sbe_per_hour * dt / 3600.0;
    if (g.sim->burnin.miscompare_at_s && t > *g.sim->burnin.miscompare_at_s) g.wrong_s += dt;
    if (t > g.sim->burnin.pcie_replays_at_s) g.pcie_replays += g.sim->burnin.pcie_replays_per_min * dt / 60.0;
  }
  // A marginal link counts errors only while traffic crosses it: a GEMM-only load leaves it idle.
  for (const auto& crc : g.sim->burnin.nvlink_crc) {
    if (t > crc.at_s) g.crc[static_cast<std::size_t>(crc.link)] += crc.per_min * nvlink_share_ * dt / 60.0;
  }
}

double BurninModel::link_factor(int gpu) const {
  const auto& g = gpus_.at(static_cast<std::size_t>(gpu));
  const SimBurninFaults& f = g.sim->burnin;
  if (f.busbw_per_c <= 0) return 1.0;
  return std::clamp(1.0 - f.busbw_per_c / 100.0 * std::max(0.0, g.temp_c - f.busbw_above_c), 0.2, 1.0);
}

bool BurninModel::corrupts(int gpu) const {
  const auto& g = gpus_.at(static_cast<std::size_t>(gpu));
  return !g.lost && g.sim->burnin.sdc_at_s && now_s_ >= *g.sim->burnin.sdc_at_s;
}

// Framebuffer: a training job holds 90 % of it, an idle GPU none. PCIe: an idle GPU drops its link
// to Gen 1 to save power (as real ones do); under load it runs at what it trained to, which a
// pcie-degraded fault lowers (from its at= time on); replays grow with a pcie-replay fault.
void BurninModel::fill_memory_and_pcie(const BurninModelGpu& g, core::TelemetrySample& s) const {
  const SimGpu& sim = *g.sim;
  constexpr std::uint64_t kMiB = std::uint64_t{1} << 20;
  if (sim.memory_total_mib > 0) {
    s.fb_total_bytes = sim.memory_total_mib * kMiB;
    s.fb_used_bytes = g.loaded ? sim.memory_total_mib * 9 / 10 * kMiB : std::uint64_t{0};
  } else {
    s.fb_total_bytes = s.fb_used_bytes = core::Absent{"memory size unknown in the GPU catalogue (simulated)"};
  }
  s.pcie_link_gen_max = sim.model->pcie_gen;
  s.pcie_link_width_max = sim.model->pcie_width;
  const bool degraded = sim.burnin.pcie_degraded_at_s && now_s_ >= *sim.burnin.pcie_degraded_at_s;
  const int gen = degraded ? sim.burnin.pcie_degraded_gen : sim.pcie_gen_current;
  s.pcie_link_gen = g.loaded ? gen : 1;
  s.pcie_link_width = degraded ? sim.burnin.pcie_degraded_width : sim.pcie_width_current;
  s.pcie_replays = static_cast<std::uint64_t>(std::floor(g.pcie_replays));
}

// ECC and what the driver does about an uncorrectable error: from Ampere on it remaps the row
// (pending until a GPU reset, which the simulator never does), before Ampere it retires the page.
void BurninModel::fill_memory_health(const BurninModelGpu& g, core::TelemetrySample& s) const {
  const SimBurninFaults& f = g.sim->burnin;
  const auto uncorrectable = static_cast<std::uint64_t>(
      std::count_if(f.ecc_dbe_at_s.begin(), f.ecc_dbe_at_s.end(), [&](double at) { return at <= now_s_; }));
  s.ecc_corrected = static_cast<std::uint64_t>(std::floor(g.ecc_corrected));
  s.ecc_uncorrected = uncorrectable;
  if (uses_row_remapping(*g.sim->model)) {
    s.remapped_rows_correctable = std::uint64_t{0};
    s.remapped_rows_uncorrectable = uncorrectable;
    s.remap_pending = uncorrectable > 0;
    s.remap_failed = f.remap_failure_at_s.has_value() && now_s_ >= *f.remap_failure_at_s;
    const auto na = core::Absent{"N/A: row remapping replaces page retirement from Ampere on"};
    s.retired_pages_sbe = s.retired_pages_dbe = na;
    s.retired_pages_pending = na;
  } else {
    const auto na = core::Absent{"N/A: no row remapping before Ampere"};
    s.remapped_rows_correctable = s.remapped_rows_uncorrectable = na;
    s.remap_pending = s.remap_failed = na;
    s.retired_pages_sbe = 0;
    s.retired_pages_dbe = static_cast<int>(uncorrectable);
    s.retired_pages_pending = uncorrectable > 0;
  }
}

core::TelemetrySample BurninModel::sample(int gpu) const {
  const auto& g = gpus_.at(static_cast<std::size_t>(gpu));
  core::TelemetrySample s;
  s.gpu = g.index;
  s.t_s = now_s_;
  if (g.lost) {
    const auto lost = core::Absent{"NVML_ERROR_GPU_IS_LOST (simulated)"};
    s.gpu_temp_c = s.mem_temp_c = s.sm_clock_mhz = s.mem_clock_mhz = s.power_w = s.energy_j = lost;
    s.util_gpu_pct = s.util_mem_pct = s.tflops = lost;
    s.clocks_event_reasons = s.ecc_corrected = s.ecc_uncorrected = s.pcie_replays = s.miscompares = lost;
    s.pstate = s.retired_pages_sbe = s.retired_pages_dbe = lost;
    s.retired_pages_pending = s.remap_pending = s.remap_failed = lost;
    s.fb_used_bytes = s.fb_total_bytes = s.remapped_rows_correctable = s.remapped_rows_uncorrectable = lost;
    s.pcie_link_gen = s.pcie_link_width = s.pcie_link_gen_max = s.pcie_link_width_max = lost;
    s.nvlink = lost;
    return s;
  }
  fill_memory_and_pcie(g, s);
  fill_memory_health(g, s);
  s.gpu_temp_c = std::round(g.temp_c);  // NVML reports whole degrees
  s.mem_temp_c = std::round(g.temp_c + 4);
  s.sm_clock_mhz = std::round(g.max_sm_clock_mhz * g.clock_factor);
  s.mem_clock_mhz = g.mem_clock_mhz;
  s.power_w = std::round(g.power_w * 1000) / 1000;
  s.energy_j = std::floor(g.energy_j);
  // util-lag: the card waits on its peers (a slower path or a mixed batch) part of the time.
  const double util_share = now_s_ >= g.sim->burnin.util_lag_at_s ? g.sim->burnin.util_factor : 1.0;
  s.util_gpu_pct = g.loaded ? std::round(100.0 * util_share) : 0.0;
  s.util_mem_pct = g.loaded ? std::round(45.0 * util_share) : 0.0;
  s.clocks_event_reasons = g.reasons;
  s.pstate = g.loaded ? 0 : 8;
  std::vector<core::NvLinkErrorSample> links;
  for (std::size_t l = 0; l < g.sim->ports.size(); ++l) {
    if (!g.sim->ports[l].active) continue;
    core::NvLinkErrorSample e;
    e.link = static_cast<int>(l);
    const auto crc = static_cast<std::uint64_t>(std::floor(g.crc[l]));
    e.crc_flit = crc;
    e.crc_data = std::uint64_t{0};
    e.replay = crc;  // every CRC-failed flit is replayed
    e.recovery = std::uint64_t{0};
    links.push_back(e);
  }
  s.nvlink = std::move(links);
  return s;
}

core::Reading<double> BurninModel::take_tflops(int gpu) {
  auto& g = gpus_.at(static_cast<std::size_t>(gpu));
  if (g.lost) return core::Reading<double>::absent("NVML_ERROR_GPU_IS_LOST (simulated)");
  const double span = now_s_ - g.work_since_s;
  const double work = g.work_tflop;
  g.work_tflop = 0;
  g.work_since_s = now_s_;
  if (span <= 0) return core::Reading<double>::absent("no time passed since the previous poll");
  return work / span;
}

std::uint64_t BurninModel::miscompares(int gpu) const {
  return static_cast<std::uint64_t>(std::floor(gpus_.at(static_cast<std::size_t>(gpu)).wrong_s / 60.0 + 1e-9));
}

std::vector<core::TelemetryEvent> BurninModel::drain_events() {
  std::vector<core::TelemetryEvent> out;
  out.swap(pending_);
  return out;
}

}  // namespace gpuvet::sim
