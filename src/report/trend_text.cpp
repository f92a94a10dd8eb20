// The facts, the per-GPU table and the to-do list of a trend report, shared by its renderers.
#include "report/trend_text.hpp"

#include <algorithm>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace gpuvet::report {

namespace {

std::string hours(double seconds) { return fmt::format("{:.1f} h", seconds / 3600); }

template <class T>
std::string or_na(const std::optional<T>& v, const char* format) {
  return v ? fmt::format(fmt::runtime(format), *v) : std::string("n/a");
}

std::string signed_c(const std::optional<double>& v) { return v ? fmt::format("{:+.1f} °C", *v) : std::string("n/a"); }

}  // namespace

std::string bucket_text(double bucket_s) {
  if (bucket_s >= 3600) return fmt::format("{:g} h", bucket_s / 3600);
  return fmt::format("{:g} min", bucket_s / 60);
}

std::vector<std::pair<std::string, std::string>> trend_facts(const TrendReport& r) {
  const auto& h = r.history;
  std::vector<std::pair<std::string, std::string>> out;
  out.emplace_back("Database", r.database);
  out.emplace_back("Period", fmt::format("{} to {} (last {} of the history asked)", trend_utc(h.from_unix_ms), trend_utc(h.to_unix_ms),
                                         r.since));
  out.emplace_back("Points", fmt::format("one per GPU and {}", bucket_text(h.bucket_s)));
  out.emplace_back("Host", r.run.hostname.empty() ? std::string("n/a") : r.run.hostname);
  out.emplace_back("Source", r.run.source);
  out.emplace_back("Sampling interval", fmt::format("{:g} s", r.run.interval_s));
  out.emplace_back("Alerts judged", trend_judged_text(r));
  if (r.baseline) {
    out.emplace_back("Baseline", fmt::format("{} (acceptance finished {}, host {})", r.baseline->label,
                                             r.baseline->finished_utc.empty() ? "n/a" : r.baseline->finished_utc,
                                             r.baseline->hostname.empty() ? "n/a" : r.baseline->hostname));
  } else {
    out.emplace_back("Baseline", "none (give the acceptance bundle with --baseline DIR to compare with it)");
  }
  return out;
}

std::string no_standout_text(const TrendReport& r) {
  std::string text = "No card stood out from its peers at the same load";
  if (r.baseline) text += " or drifted from its acceptance burn-in";
  return text + (r.assessment.unverified.empty() ? "." : " (but see Not verified).");
}

std::vector<std::string> what_to_do(const TrendReport& r) {
  std::vector<std::string> out;
  std::set<std::string> seen;
  for (const auto& f : trend_findings(r)) {
    std::vector<std::string> gpus;
    for (int g : f.gpus) gpus.push_back(std::to_string(g));
    const std::string who = gpus.empty() ? std::string("Machine") : (gpus.size() == 1 ? "GPU " : "GPUs ") + fmt::format("{}", fmt::join(gpus, ", "));
    std::string line = fmt::format("{} ({}): {}", who, f.code, f.next_step);
    if (seen.insert(line).second) out.push_back(std::move(line));
  }
  return out;
}

StandingRows standing_rows(const TrendReport& r) {
  StandingRows t;
  t.header = {"GPU", "Sampled", "At peers' load", "Temp vs peers", "SM clock vs peers", "Under load", "Temp under load",
              "SM clock under load"};
  if (r.baseline) {
    t.header.emplace_back("Temp at acceptance");
    t.header.emplace_back("SM clock at acceptance");
  }
  t.header.emplace_back("NVLink errors");
  t.header.emplace_back("ECC corrected");
  t.header.emplace_back("ECC uncorrected");
  for (const auto& g : r.history.gpus) {
    const auto s = std::find_if(r.assessment.gpus.begin(), r.assessment.gpus.end(), [&](const core::TrendStanding& x) { return x.gpu == g.gpu; });
    double sampled = 0;
    for (const auto& p : g.points) sampled += static_cast<double>(p.samples) * r.history.interval_s;
    std::vector<std::string> row = {fmt::format("GPU {}", g.gpu), hours(sampled)};
    if (s != r.assessment.gpus.end()) {
      row.push_back(hours(s->comparable_s));
      row.push_back(signed_c(s->temp_above_peers_c));
      row.push_back(s->clock_below_peers_share ? fmt::format("{:+.1f} %", -*s->clock_below_peers_share * 100) : "n/a");
      row.push_back(hours(s->busy_s));
      row.push_back(or_na(s->busy_temp_c, "{:.1f} °C"));
      row.push_back(or_na(s->busy_sm_clock_mhz, "{:.0f} MHz"));
      if (r.baseline) {
        row.push_back(s->baseline ? or_na(s->baseline->temp_c, "{:.1f} °C") : "n/a");
        row.push_back(s->baseline ? or_na(s->baseline->sm_clock_mhz, "{:.0f} MHz") : "n/a");
      }
    } else {
      row.resize(t.header.size() - 3, "n/a");
    }
    row.push_back(or_na(period_total(g, &core::TrendPoint::nvlink_errors), "{}"));
    row.push_back(or_na(period_total(g, &core::TrendPoint::ecc_corrected), "{}"));
    row.push_back(or_na(period_total(g, &core::TrendPoint::ecc_uncorrected), "{}"));
    t.rows.push_back(std::move(row));
  }
  return t;
}

std::string standing_legend(const TrendReport&) {
  return std::string(
      "Sampled: time covered by samples in the period. At peers' load: time the GPU ran at the same load as the others "
      "(their median utilization busy, the GPU within a few points of it); temperature and SM clock vs peers are medians "
      "over that time. Under load: time at high utilization, compared with the acceptance burn-in. Error counts: growth "
      "over the period (n/a: the counter was never read twice, e.g. where only minute rollups are left).");
}

}  // namespace gpuvet::report
