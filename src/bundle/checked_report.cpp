// A report.json read back from a bundle: schema, parse, plausible numbers.
#include "bundle/checked_report.hpp"

#include <fmt/format.h>

#include <cmath>

#include "accept/accept_json.hpp"
#include "accept/compare.hpp"
#include "parsers/bandwidth_plausibility.hpp"

namespace gpuvet::bundle {

namespace {

// Longest time a report's charts, spans, events or stages may cover: 10 years in seconds.
constexpr double kMaxSeconds = 10 * 366 * 86400.0;

// A field that failed, with its path and why.
struct Implausible {
  std::string field;
  std::string why;
};

// Why `value` cannot be a `unit` reading; "" when it can.
std::string why_not(double value, std::string_view unit) {
  if (unit == "GB/s") {
    if (auto why = parsers::implausible_gbps(value)) return fmt::format("{:g} {}", value, *why);
    return "";
  }
  if (auto why = parsers::implausible_non_negative(value)) return fmt::format("{:g} {}", value, *why);
  const double ceiling = unit_ceiling(unit);
  if (value > ceiling) {
    return fmt::format("{:g} is above {:g}{}{}, more than any machine shows (a corrupt or edited report)", value, ceiling,
                       unit.empty() ? "" : " ", unit);
  }
  if (unit.empty() && value != std::floor(value)) return fmt::format("{:g} is not a whole number (it counts GPUs or ports)", value);
  return "";
}

void check(std::optional<Implausible>& out, double value, std::string_view unit, const std::string& field) {
  if (out) return;
  if (auto why = why_not(value, unit); !why.empty()) out = Implausible{field, std::move(why)};
}

void check_seconds(std::optional<Implausible>& out, double value, const std::string& field) {
  if (out) return;
  if (auto why = parsers::implausible_non_negative(value)) {
    out = Implausible{field, fmt::format("{:g} {}", value, *why)};
  } else if (value > kMaxSeconds) {
    out = Implausible{field, fmt::format("{:g} s is more than 10 years", value)};
  }
}

void check_gpu(std::optional<Implausible>& out, int gpu, const std::string& field) {
  if (!out && (gpu < 0 || gpu >= kMaxReportGpus)) {
    out = Implausible{field, fmt::format("GPU index {} is outside 0..{}", gpu, kMaxReportGpus - 1)};
  }
}

void check_findings(std::optional<Implausible>& out, const std::vector<core::Finding>& findings, const std::string& path) {
  for (std::size_t f = 0; f < findings.size(); ++f) {
    for (std::size_t g = 0; g < findings[f].gpus.size(); ++g) {
      check_gpu(out, findings[f].gpus[g], fmt::format("{}[{}].gpus[{}]", path, f, g));
    }
  }
}

void check_stage(std::optional<Implausible>& out, const accept::StageRecord& s, const std::string& path) {
  check_seconds(out, s.seconds, path + ".seconds");
  for (std::size_t i = 0; i < s.clauses.size(); ++i) {
    const auto& c = s.clauses[i];
    const std::string at = fmt::format("{}.clauses[{}]", path, i);
    if (c.measured) check(out, *c.measured, c.unit, fmt::format("{}.measured ({})", at, c.id));
    if (c.target) check(out, *c.target, c.unit, fmt::format("{}.target ({})", at, c.id));
  }
  check_findings(out, s.findings, path + ".findings");
  for (std::size_t i = 0; i < s.heatmaps.size(); ++i) {
    const auto& h = s.heatmaps[i];
    const std::string at = fmt::format("{}.heatmaps[{}]", path, i);
    for (std::size_t r = 0; r < h.values.size(); ++r) {
      for (std::size_t col = 0; col < h.values[r].size(); ++col) {
        if (h.values[r][col]) check(out, *h.values[r][col], h.unit, fmt::format("{}.values[{}][{}]", at, r, col));
      }
    }
    if (h.expected) check(out, *h.expected, h.unit, at + ".expected");
  }
  for (std::size_t i = 0; i < s.series.size(); ++i) {
    const auto& series = s.series[i];
    const std::string at = fmt::format("{}.series[{}]", path, i);
    for (std::size_t l = 0; l < series.points.size(); ++l) {
      for (std::size_t p = 0; p < series.points[l].size(); ++p) {
        const std::string point = fmt::format("{}.lines[{}].points[{}]", at, l, p);
        check_seconds(out, series.points[l][p].first, point + "[0]");
        check(out, series.points[l][p].second, series.unit, point + "[1]");
      }
    }
    for (std::size_t p = 0; p < series.spans.size(); ++p) {
      check_seconds(out, series.spans[p].first, fmt::format("{}.spans[{}][0]", at, p));
      check_seconds(out, series.spans[p].second, fmt::format("{}.spans[{}][1]", at, p));
    }
    for (std::size_t e = 0; e < series.events.size(); ++e) {
      check_seconds(out, series.events[e].first, fmt::format("{}.events[{}].t_s", at, e));
    }
  }
  if (!s.steady_state) return;
  for (std::size_t i = 0; i < s.steady_state->size(); ++i) {
    const auto& g = (*s.steady_state)[i];
    const std::string at = fmt::format("{}.steady_state[{}]", path, i);
    check_gpu(out, g.gpu, at + ".gpu");
    for (std::size_t j = 0; j < i && !out; ++j) {
      if ((*s.steady_state)[j].gpu == g.gpu) out = Implausible{at + ".gpu", fmt::format("GPU {} is listed twice", g.gpu)};
    }
    if (g.median_temp_c) check(out, *g.median_temp_c, "\xc2\xb0""C", at + ".median_temp_c");
    if (g.median_power_w) check(out, *g.median_power_w, "W", at + ".median_power_w");
    if (g.median_sm_clock_mhz) check(out, *g.median_sm_clock_mhz, "MHz", at + ".median_sm_clock_mhz");
    // Under the burn-in's full load a GPU draws power and clocks its SMs: 0 is no measurement.
    if (!out && g.median_sm_clock_mhz && !(*g.median_sm_clock_mhz > 0)) {
      out = Implausible{at + ".median_sm_clock_mhz", fmt::format("{:g} MHz: a GPU under load clocks above 0", *g.median_sm_clock_mhz)};
    }
    if (!out && g.median_power_w && !(*g.median_power_w > 0)) {
      out = Implausible{at + ".median_power_w", fmt::format("{:g} W: a GPU under load draws power", *g.median_power_w)};
    }
  }
}

}  // namespace

double unit_ceiling(std::string_view unit) {
  struct Ceiling {
    std::string_view unit;
    double max;
  };
  static constexpr Ceiling kCeilings[] = {{"GB/s", parsers::kMaxPlausibleGbps},
                                          {"GiB", 16384},
                                          {"TFLOP/s", 100000},
                                          {"\xc2\xb0""C", 200},
                                          {"MHz", 100000},
                                          {"W", 100000},
                                          {"%", 1000},
                                          {"h", 100000},
                                          {"", 1000000}};
  for (const auto& c : kCeilings) {
    if (c.unit == unit) return c.max;
  }
  return 1e12;
}

std::optional<core::Error> check_report_numbers(const accept::AcceptReport& report, const std::string& file_name) {
  std::optional<Implausible> out;
  for (std::size_t i = 0; i < report.stages.size(); ++i) check_stage(out, report.stages[i], fmt::format("stages[{}]", i));
  check_findings(out, report.other_findings, "other_findings");
  if (report.identity) {
    for (std::size_t i = 0; i < report.identity->gpus.size(); ++i) {
      check_gpu(out, report.identity->gpus[i].index, fmt::format("identity.gpus[{}].index", i));
    }
  }
  if (!out) return std::nullopt;
  return core::input_error(fmt::format("{}: {}: {}; gpuvet does not believe it", file_name, out->field, out->why));
}

core::Result<accept::AcceptReport> parse_checked_report(std::string_view text, const std::string& file_name) {
  if (auto e = accept::check_report_schema(text, file_name)) return *e;
  auto report = accept::parse_report_json(text, file_name);
  if (!report) return report.error();
  if (auto e = check_report_numbers(*report, file_name)) return *e;
  return report;
}

}  // namespace gpuvet::bundle
