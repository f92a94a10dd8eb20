// Memory capacity: each GPU's framebuffer against its catalogue model and the buyer's
// expectation. Silent for a GPU whose size or model cannot be judged.
#include <algorithm>
#include <cmath>
#include <map>

#include <fmt/format.h>

#include "analysis/finding_codes.hpp"
#include "analysis/rules.hpp"

namespace gpuvet::analysis {
namespace {

// ECC on GDDR cards reserves about 6 % of the framebuffer; HBM keeps ECC out of band, and every
// card also holds back a little for the driver. 93 % of the advertised size covers both.
constexpr double kAdvertisedFloor = 0.93;
// A healthy card of a catalogued model reports its catalogue size within 1 %.
constexpr double kReportedSlack = 0.99;

struct Threshold {
  double min_mib = 0;
  std::string basis;  // what the threshold comes from
};

// The smallest size a GPU of this model may report; nullopt when the model says nothing.
std::optional<Threshold> model_threshold(const core::Gpu& gpu, const core::GpuModel& model) {
  std::optional<Threshold> t;
  if (model.memory_reported_mib) {
    t = Threshold{static_cast<double>(*model.memory_reported_mib) * kReportedSlack,
                  fmt::format("{} reports {} MiB (1 % slack)", model.display_name, *model.memory_reported_mib)};
  }
  const bool hbm = model.memory_type.rfind("HBM", 0) == 0;
  const bool ecc_may_be_on = !gpu.ecc_enabled.known() || *gpu.ecc_enabled;
  if (model.memory_gib > 0 && (!t || (!hbm && ecc_may_be_on))) {
    const double floor = model.memory_gib * 1024 * kAdvertisedFloor;
    // A GDDR card with ECC on reports less than the catalogue's ECC-off size: take the lower bound.
    if (!t || floor < t->min_mib) {
      t = Threshold{floor, fmt::format("{} sold as {:g} GB; at least 93 % must be visible", model.display_name,
                                       model.memory_gib)};
    }
  }
  return t;
}

}  // namespace

std::vector<core::Finding> check_memory(const RuleContext& ctx) {
  // GPUs with the same size short of the same threshold share one finding.
  struct Shortfall {
    std::vector<int> gpus;
    std::vector<Threshold> broken;
    std::string worst_basis;
  };
  std::map<std::pair<std::uint64_t, std::string>, Shortfall> groups;
  std::vector<std::pair<std::uint64_t, std::string>> order;
  const auto& gpus = ctx.machine.gpus;
  for (size_t p = 0; p < gpus.size(); ++p) {
    const core::Gpu& gpu = gpus[p];
    if (!gpu.memory_total_mib) continue;
    const double have = static_cast<double>(*gpu.memory_total_mib);
    std::vector<Threshold> broken;
    if (ctx.expect.memory_gib) {
      const double floor = *ctx.expect.memory_gib * 1024 * kAdvertisedFloor;
      if (have < floor) {
        broken.push_back({floor, fmt::format("expected {:g} GiB per GPU; at least 93 % must be visible",
                                             *ctx.expect.memory_gib)});
      }
    }
    if (const core::GpuModel* model = ctx.models[p]) {
      if (auto t = model_threshold(gpu, *model); t && have < t->min_mib) broken.push_back(*t);
    }
    if (broken.empty()) continue;
    const auto worst = std::max_element(broken.begin(), broken.end(),
                                        [](const Threshold& a, const Threshold& b) { return a.min_mib < b.min_mib; });
    const auto key = std::make_pair(*gpu.memory_total_mib, worst->basis);
    auto [it, inserted] = groups.try_emplace(key, Shortfall{{}, broken, worst->basis});
    if (inserted) order.push_back(key);
    it->second.gpus.push_back(gpu.index);
  }
  std::vector<core::Finding> out;
  for (const auto& key : order) {
    const Shortfall& g = groups.at(key);
    auto f = make_finding(code::memory_below_advertised, core::Severity::fail, g.gpus,
                          fmt::format("{} {} {:.1f} GiB of memory, less than advertised ({})", describe_gpus(g.gpus),
                                      g.gpus.size() == 1 ? "has" : "have", static_cast<double>(key.first) / 1024,
                                      g.worst_basis));
    f.evidence.emplace_back("memory_total_mib", std::to_string(key.first));
    for (const auto& t : g.broken) {
      f.evidence.emplace_back("expected_min_mib", fmt::format("{:.0f} ({})", std::floor(t.min_mib), t.basis));
    }
    out.push_back(std::move(f));
  }
  return out;
}

}  // namespace gpuvet::analysis
