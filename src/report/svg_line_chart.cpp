// Line chart as inline SVG: time on x (seconds, labelled in minutes past an hour), one polyline
// per series, shaded spans (throttled periods) and event markers (XID, ECC).
#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "report/html_escape.hpp"
#include "report/svg_charts.hpp"

namespace gpuvet::report {

namespace {

constexpr const char* kPalette[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728",
                                    "#9467bd", "#8c564b", "#e377c2", "#7f7f7f"};

std::string time_label(double seconds) {
  if (seconds >= 3600) return fmt::format("{:.1f} h", seconds / 3600);
  if (seconds >= 60) return fmt::format("{:.0f} min", seconds / 60);
  return fmt::format("{:.0f} s", seconds);
}

}  // namespace

std::string svg_line_chart(const accept::SeriesData& s, int width, int height) {
  constexpr int kLeft = 56;
  constexpr int kRight = 12;
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
  if (t1 <= t0) t1 = t0 + 1;
  if (v1 <= v0) v1 = v0 + 1;
  const double plot_w = width - kLeft - kRight;
  const double plot_h = height - kTop - kBottom;
  auto x_of = [&](double t) { return kLeft + (t - t0) / (t1 - t0) * plot_w; };
  auto y_of = [&](double v) { return kTop + plot_h - (v - v0) / (v1 - v0) * plot_h; };

  std::string out = fmt::format(
      "<svg class=\"linechart\" width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\" "
      "role=\"img\" aria-label=\"{2}\">\n",
      width, height, xml_escape(s.title));
  out += fmt::format("<text x=\"0\" y=\"16\" font-weight=\"bold\">{} ({})</text>\n", xml_escape(s.title), xml_escape(s.unit));
  for (const auto& [a, b] : s.spans) {
    out += fmt::format("<rect class=\"span\" x=\"{:.1f}\" y=\"{}\" width=\"{:.1f}\" height=\"{:.1f}\" fill=\"#f4cccc\"/>\n",
                       x_of(a), kTop, std::max(1.0, x_of(b) - x_of(a)), plot_h);
  }
  out += fmt::format("<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2:.1f}\" stroke=\"#333\"/>\n", kLeft, kTop, kTop + plot_h);
  out += fmt::format("<line x1=\"{0}\" y1=\"{1:.1f}\" x2=\"{2:.1f}\" y2=\"{1:.1f}\" stroke=\"#333\"/>\n", kLeft, kTop + plot_h,
                     kLeft + plot_w);
  for (int i = 0; i <= 4; ++i) {
    const double v = v0 + (v1 - v0) * i / 4;
    const double t = t0 + (t1 - t0) * i / 4;
    out += fmt::format("<text x=\"{}\" y=\"{:.1f}\" text-anchor=\"end\" font-size=\"10\">{:.4g}</text>\n", kLeft - 4,
                       y_of(v) + 3, v);
    out += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\" font-size=\"10\">{}</text>\n", x_of(t),
                       kTop + plot_h + 14, time_label(t));
  }
  if (empty) {
    out += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\">no samples</text>\n", kLeft + plot_w / 2,
                       kTop + plot_h / 2);
  }
  for (size_t i = 0; i < s.points.size(); ++i) {
    if (s.points[i].empty()) continue;
    std::string points;
    for (const auto& [t, v] : s.points[i]) points += fmt::format("{:.1f},{:.1f} ", x_of(t), y_of(v));
    points.pop_back();
    out += fmt::format("<polyline class=\"series\" fill=\"none\" stroke=\"{}\" stroke-width=\"1.5\" points=\"{}\"/>\n",
                       kPalette[i % std::size(kPalette)], points);
  }
  for (const auto& [t, label] : s.events) {
    out += fmt::format("<line class=\"event\" x1=\"{0:.1f}\" y1=\"{1}\" x2=\"{0:.1f}\" y2=\"{2:.1f}\" stroke=\"#cc0000\" "
                       "stroke-dasharray=\"3,2\"><title>{3}</title></line>\n",
                       x_of(t), kTop, kTop + plot_h, xml_escape(label));
    out += fmt::format("<text x=\"{:.1f}\" y=\"{}\" font-size=\"10\" fill=\"#cc0000\">{}</text>\n", x_of(t) + 2, kTop + 10,
                       xml_escape(label));
  }
  double legend_x = kLeft;
  for (size_t i = 0; i < s.names.size(); ++i) {
    out += fmt::format("<text x=\"{:.0f}\" y=\"{}\" font-size=\"10\" fill=\"{}\">{}</text>\n", legend_x, height - 6,
                       kPalette[i % std::size(kPalette)], xml_escape(s.names[i]));
    legend_x += 8.0 * static_cast<double>(s.names[i].size()) + 16;
  }
  out += "</svg>\n";
  return out;
}

}  // namespace gpuvet::report
