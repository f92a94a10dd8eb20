// The burn-in's link traffic in JSON (every interval) and text (a short table).
#include "report/burnin_traffic.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "report/text_table.hpp"

namespace gpuvet::report {

using nlohmann::ordered_json;

namespace {

template <class T>
void put(ordered_json& j, ordered_json& absent, const char* key, const core::Reading<T>& r) {
  if (r.known()) {
    j[key] = *r;
  } else {
    j[key] = nullptr;
    if (r.reason() != core::kTrafficNotAsked) absent[key] = r.reason();
  }
}

std::string hms(double seconds) {
  const auto total = static_cast<long long>(std::llround(std::max(0.0, seconds)));
  return fmt::format("{:02}:{:02}:{:02}", total / 3600, (total / 60) % 60, total % 60);
}

std::string gbps(const core::Reading<double>& r) { return r.known() ? fmt::format("{:.1f}", *r) : std::string("n/a"); }

// The slowest GPU's reading of one rate: "312.4 (GPU 3)".
std::string slowest(const core::TrafficInterval& interval, core::Reading<double> core::GpuTraffic::*member) {
  const core::GpuTraffic* worst = nullptr;
  for (const auto& g : interval.gpus) {
    if ((g.*member).known() && (!worst || *(g.*member) < *(worst->*member))) worst = &g;
  }
  return worst ? fmt::format("{:.1f} (GPU {})", *(worst->*member), worst->gpu) : std::string("n/a");
}

core::Reading<double> busbw_of(const core::TrafficInterval& interval, const std::string& op) {
  for (const auto& c : interval.collectives) {
    if (c.op == op) return c.busbw_gbps;
  }
  return core::Reading<double>::absent(std::string(core::kTrafficNotAsked));
}

std::int64_t wrong_of(const core::TrafficInterval& interval) {
  std::int64_t wrong = 0;
  for (const auto& c : interval.collectives) wrong += c.wrong.value_or(0);
  return wrong;
}

}  // namespace

ordered_json traffic_json(const core::BurninRecord& record) {
  const auto& settings = record.run.traffic;
  ordered_json j;
  ordered_json kinds = ordered_json::array();
  for (auto k : settings.kinds) kinds.push_back(std::string(core::to_string(k)));
  j["kinds"] = kinds;
  if (!settings.on()) return j;
  j["share"] = settings.share;
  j["interval_s"] = settings.interval_s;
  ordered_json intervals = ordered_json::array();
  for (const auto& i : record.traffic) {
    ordered_json row;
    row["from_s"] = i.from_s;
    row["t_s"] = i.t_s;
    ordered_json collectives = ordered_json::array();
    for (const auto& c : i.collectives) {
      ordered_json cj{{"op", c.op}};
      ordered_json absent = ordered_json::object();
      put(cj, absent, "busbw_gbps", c.busbw_gbps);
      put(cj, absent, "wrong", c.wrong);
      if (!absent.empty()) cj["absent"] = absent;
      collectives.push_back(std::move(cj));
    }
    row["collectives"] = collectives;
    ordered_json gpus = ordered_json::array();
    for (const auto& g : i.gpus) {
      ordered_json gj{{"gpu", g.gpu}};
      ordered_json absent = ordered_json::object();
      put(gj, absent, "send_gbps", g.send_gbps);
      put(gj, absent, "recv_gbps", g.recv_gbps);
      put(gj, absent, "h2d_gbps", g.h2d_gbps);
      put(gj, absent, "d2h_gbps", g.d2h_gbps);
      put(gj, absent, "wrong", g.wrong);
      gj["gemm_digest"] = g.gemm_digest.known() ? ordered_json(fmt::format("{:016x}", *g.gemm_digest)) : ordered_json(nullptr);
      if (!g.gemm_digest.known() && g.gemm_digest.reason() != core::kTrafficNotAsked) absent["gemm_digest"] = g.gemm_digest.reason();
      if (!absent.empty()) gj["absent"] = absent;
      gpus.push_back(std::move(gj));
    }
    row["gpus"] = gpus;
    intervals.push_back(std::move(row));
  }
  j["intervals"] = intervals;
  return j;
}

std::string traffic_text(const core::BurninRecord& record) {
  const auto& settings = record.run.traffic;
  if (!settings.on()) return {};
  std::string out = fmt::format("\nLink traffic beside the load: {}, busy {:.0f} % of the time, {} intervals of {}\n",
                                core::traffic_kinds_text(settings.kinds), 100 * settings.share, record.traffic.size(),
                                hms(settings.interval_s));
  if (record.traffic.empty()) return out + "  no interval was recorded\n";
  TextTable table({"Until", "all_reduce GB/s", "all_to_all GB/s", "Slowest send GB/s", "Slowest H2D GB/s", "Slowest D2H GB/s",
                   "#wrong"});
  const std::size_t n = record.traffic.size();
  const std::size_t rows = std::min(n, kTrafficTextRows);
  std::size_t last = n;  // no row twice
  for (std::size_t r = 0; r < rows; ++r) {
    const std::size_t k = rows == 1 ? 0 : r * (n - 1) / (rows - 1);
    if (k == last) continue;
    last = k;
    const auto& i = record.traffic[k];
    table.add_row({hms(i.t_s), gbps(busbw_of(i, "all_reduce")), gbps(busbw_of(i, "all_to_all")),
                   slowest(i, &core::GpuTraffic::send_gbps), slowest(i, &core::GpuTraffic::h2d_gbps),
                   slowest(i, &core::GpuTraffic::d2h_gbps), std::to_string(wrong_of(i))});
  }
  return out + table.render(2);
}

}  // namespace gpuvet::report
