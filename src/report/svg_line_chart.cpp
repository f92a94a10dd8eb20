// Line chart as inline SVG: time on x (round steps of seconds, minutes or hours), values on y
// from zero in 1-2-5 steps, one polyline per series, shaded spans (throttled periods), event
// markers (XID, ECC), the failing GPU's series emphasised, a legend that wraps.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "report/chart_axis.hpp"
#include "report/html_escape.hpp"
#include "report/svg_charts.hpp"

namespace gpuvet::report {

namespace {

constexpr const char* kPalette[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728",
                                    "#9467bd", "#8c564b", "#e377c2", "#7f7f7f"};
constexpr int kLegendRow = 14;

// Legend entries laid out left to right, wrapping at `right`: (x, row) per name.
std::vector<std::pair<double, int>> legend_layout(const std::vector<std::string>& labels, double left, double right) {
  std::vector<std::pair<double, int>> out;
  double x = left;
  int row = 0;
  for (const auto& label : labels) {
    const double w = 6.5 * static_cast<double>(label.size()) + 16;
    if (x > left && x + w > right) {
      x = left;
      ++row;
    }
    out.emplace_back(x, row);
    x += w;
  }
  return out;
}

}  // namespace

std::optional<int> gpu_of_label(std::string_view label) {
  if (label.rfind("GPU", 0) == 0) label.remove_prefix(3);
  while (!label.empty() && label.front() == ' ') label.remove_prefix(1);
  if (label.empty() || label.size() > 4) return std::nullopt;
  int v = 0;
  for (char c : label) {
    if (std::isdigit(static_cast<unsigned char>(c)) == 0) return std::nullopt;
    v = v * 10 + (c - '0');
  }
  return v;
}

std::string svg_line_chart(const accept::SeriesData& s, int width, int height, const std::vector<int>& failing_gpus) {
  constexpr int kLeft = 56;
  constexpr int kRight = 16;
  constexpr int kTop = 28;
  constexpr int kBottom = 40;
  double t0 = std::numeric_limits<double>::max();
  double t1 = std::numeric_limits<double>::lowest();
  double v0 = 0;  // values start at zero so a drop reads as a drop
  double v1 = std::numeric_limits<double>::lowest();
  for (const auto& line : s.points) {
    for (const auto& [t, v] : line) {
      t0 = std::min(t0, t);
      t1 = std::max(t1, t);
      v0 = std::min(v0, v);
      v1 = std::max(v1, v);
    }
  }
  const bool empty = t1 < t0;
  if (empty) {
    t0 = 0;
    t1 = 1;
    v1 = 1;
  }
  const Axis x_axis = time_axis(std::min(t0, 0.0) >= 0 && t0 < (t1 - t0) / 4 ? 0.0 : t0, t1);
  const Axis y_axis = value_axis(v0, v1 > v0 ? v1 : v0 + 1);
  auto is_failing = [&](size_t i) {
    if (i >= s.names.size()) return false;
    const auto gpu = gpu_of_label(s.names[i]);
    return gpu && std::find(failing_gpus.begin(), failing_gpus.end(), *gpu) != failing_gpus.end();
  };
  std::vector<std::string> labels;
  bool any_failing = false;
  for (size_t i = 0; i < s.names.size(); ++i) {
    labels.push_back(s.names[i] + (is_failing(i) ? " (failing)" : ""));
    any_failing = any_failing || is_failing(i);
  }
  const auto legend = legend_layout(labels, kLeft, width - kRight);
  const int legend_rows = legend.empty() ? 1 : legend.back().second + 1;
  height += (legend_rows - 1) * kLegendRow;
  const double plot_w = width - kLeft - kRight;
  const double plot_h = height - kTop - kBottom - (legend_rows - 1) * kLegendRow;
  auto x_of = [&](double t) { return kLeft + (t - x_axis.lo) / (x_axis.hi - x_axis.lo) * plot_w; };
  auto y_of = [&](double v) { return kTop + plot_h - (v - y_axis.lo) / (y_axis.hi - y_axis.lo) * plot_h; };

  std::string out = fmt::format(
      "<svg class=\"linechart\" width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\" "
      "role=\"img\" aria-label=\"{2}\">\n",
      width, height, xml_escape(s.title));
  out += fmt::format("<text x=\"0\" y=\"16\" font-weight=\"bold\">{} ({})</text>\n", xml_escape(s.title), xml_escape(s.unit));
  for (const auto& [a, b] : s.spans) {
    out += fmt::format("<rect class=\"span\" x=\"{:.1f}\" y=\"{}\" width=\"{:.1f}\" height=\"{:.1f}\" fill=\"#f4cccc\"/>\n",
                       x_of(a), kTop, std::max(1.0, x_of(b) - x_of(a)), plot_h);
  }
  for (double v : y_axis.ticks) {
    out += fmt::format("<line class=\"grid\" x1=\"{0}\" y1=\"{1:.1f}\" x2=\"{2:.1f}\" y2=\"{1:.1f}\" stroke=\"#eeeeee\"/>\n", kLeft,
                       y_of(v), kLeft + plot_w);
    out += fmt::format("<text class=\"ytick\" x=\"{}\" y=\"{:.1f}\" text-anchor=\"end\" font-size=\"10\">{}</text>\n", kLeft - 4,
                       y_of(v) + 3, value_label(v, y_axis.step));
  }
  for (double t : x_axis.ticks) {
    out += fmt::format("<text class=\"xtick\" x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\" font-size=\"10\">{}</text>\n",
                       x_of(t), kTop + plot_h + 14, time_label(t, x_axis.step));
  }
  out += fmt::format("<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2:.1f}\" stroke=\"#333\"/>\n", kLeft, kTop, kTop + plot_h);
  out += fmt::format("<line x1=\"{0}\" y1=\"{1:.1f}\" x2=\"{2:.1f}\" y2=\"{1:.1f}\" stroke=\"#333\"/>\n", kLeft, kTop + plot_h,
                     kLeft + plot_w);
  if (empty) {
    out += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\">no samples</text>\n", kLeft + plot_w / 2,
                       kTop + plot_h / 2);
  }
  // Failing series last, so they are drawn on top.
  for (int pass = 0; pass < 2; ++pass) {
    for (size_t i = 0; i < s.points.size(); ++i) {
      if (s.points[i].empty() || is_failing(i) != (pass == 1)) continue;
      std::string points;
      for (const auto& [t, v] : s.points[i]) points += fmt::format("{:.1f},{:.1f} ", x_of(t), y_of(v));
      points.pop_back();
      out += fmt::format("<polyline class=\"series{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"{}\"{} points=\"{}\"/>\n",
                         pass == 1 ? " failing" : "", kPalette[i % std::size(kPalette)], pass == 1 ? 3.5 : 1.5,
                         any_failing && pass == 0 ? " stroke-opacity=\"0.45\"" : "", points);
    }
  }
  for (const auto& [t, label] : s.events) {
    out += fmt::format("<line class=\"event\" x1=\"{0:.1f}\" y1=\"{1}\" x2=\"{0:.1f}\" y2=\"{2:.1f}\" stroke=\"#cc0000\" "
                       "stroke-dasharray=\"3,2\"><title>{3}</title></line>\n",
                       x_of(t), kTop, kTop + plot_h, xml_escape(label));
    const bool right_half = x_of(t) > kLeft + plot_w / 2;
    out += fmt::format("<text x=\"{:.1f}\" y=\"{}\" font-size=\"10\" fill=\"#cc0000\"{}>{}</text>\n",
                       x_of(t) + (right_half ? -2 : 2), kTop + 10, right_half ? " text-anchor=\"end\"" : "", xml_escape(label));
  }
  const double legend_top = kTop + plot_h + 30;
  for (size_t i = 0; i < labels.size(); ++i) {
    out += fmt::format("<text class=\"legend{}\" x=\"{:.0f}\" y=\"{:.0f}\" font-size=\"10\" fill=\"{}\"{}>{}</text>\n",
                       is_failing(i) ? " failing" : "", legend[i].first, legend_top + legend[i].second * kLegendRow,
                       kPalette[i % std::size(kPalette)], is_failing(i) ? " font-weight=\"bold\"" : "", xml_escape(labels[i]));
  }
  out += "</svg>\n";
  return out;
}

}  // namespace gpuvet::report
