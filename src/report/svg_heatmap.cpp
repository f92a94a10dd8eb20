// Heatmap as inline SVG: a labelled grid, each cell showing its value and coloured by how close
// it comes to the expected value (or to the largest value when there is no expectation); the
// rows and columns of failing GPUs outlined in red.
#include <algorithm>

#include <fmt/format.h>

#include "report/html_escape.hpp"
#include "report/svg_charts.hpp"

namespace gpuvet::report {

namespace {

const char* colour_for(double ratio) {
  if (ratio < 0.70) return "#e06666";
  if (ratio < 0.85) return "#f6b26b";
  return "#93c47d";
}

}  // namespace

std::string svg_heatmap(const accept::HeatmapData& h, const std::vector<int>& failing_gpus) {
  constexpr int kCell = 56;
  constexpr int kLabel = 64;
  constexpr int kTop = 40;
  const int rows = static_cast<int>(h.values.size());
  int cols = static_cast<int>(h.col_labels.size());
  for (const auto& row : h.values) cols = std::max(cols, static_cast<int>(row.size()));
  double max_value = 0;
  for (const auto& row : h.values) {
    for (const auto& v : row) {
      if (v) max_value = std::max(max_value, *v);
    }
  }
  const double reference = h.expected && *h.expected > 0 ? *h.expected : max_value;
  auto failing = [&](const std::vector<std::string>& labels, int i) {
    if (i >= static_cast<int>(labels.size())) return false;
    const auto gpu = gpu_of_label(labels[static_cast<size_t>(i)]);
    return gpu && std::find(failing_gpus.begin(), failing_gpus.end(), *gpu) != failing_gpus.end();
  };
  auto label_style = [](bool bad) { return bad ? std::string(" class=\"failing\" fill=\"#cc0000\" font-weight=\"bold\"") : std::string(); };
  const std::string caption = h.expected ? fmt::format("colour: % of expected {:.1f} {} (green >= 85 %, amber >= 70 %, red below)",
                                                       *h.expected, h.unit)
                                          : std::string("colour: % of the largest value (no expected value)");
  // Wide enough for the title and the caption too (about 6.5 px per character at 11-12 px), so no text is clipped.
  const int text_width = static_cast<int>(6.5 * static_cast<double>(std::max(caption.size(), h.title.size() + h.unit.size() + 3)));
  const int width = std::max(kLabel + cols * kCell + 8, text_width);
  const int height = kTop + rows * kCell + 28;
  std::string out = fmt::format(
      "<svg class=\"heatmap\" width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\" "
      "role=\"img\" aria-label=\"{2}\">\n",
      width, height, xml_escape(h.title));
  out += fmt::format("<text x=\"0\" y=\"16\" font-weight=\"bold\">{} ({})</text>\n", xml_escape(h.title), xml_escape(h.unit));
  for (int c = 0; c < cols; ++c) {
    const std::string label = c < static_cast<int>(h.col_labels.size()) ? h.col_labels[c] : "";
    out += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" font-size=\"11\"{}>{}</text>\n",
                       kLabel + c * kCell + kCell / 2, kTop - 6, label_style(failing(h.col_labels, c)), xml_escape(label));
  }
  for (int r = 0; r < rows; ++r) {
    const std::string label = r < static_cast<int>(h.row_labels.size()) ? h.row_labels[r] : "";
    const int y = kTop + r * kCell;
    out += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"end\" font-size=\"11\"{}>{}</text>\n", kLabel - 6,
                       y + kCell / 2 + 4, label_style(failing(h.row_labels, r)), xml_escape(label));
    for (int c = 0; c < cols; ++c) {
      const int x = kLabel + c * kCell;
      const auto& row = h.values[r];
      const std::optional<double> v = c < static_cast<int>(row.size()) ? row[c] : std::nullopt;
      const char* fill = v && reference > 0 ? colour_for(*v / reference) : "#dddddd";
      out += fmt::format("<rect class=\"cell\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\" stroke=\"#ffffff\"/>\n",
                         x, y, kCell, kCell, fill);
      out += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" font-size=\"11\">{}</text>\n", x + kCell / 2,
                         y + kCell / 2 + 4, v ? fmt::format("{:.1f}", *v) : std::string("n/a"));
    }
  }
  // Outlines over the cells: the failing GPU's row and column.
  for (int r = 0; r < rows; ++r) {
    if (failing(h.row_labels, r)) {
      out += fmt::format("<rect class=\"failing\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#cc0000\" "
                         "stroke-width=\"3\"/>\n", kLabel, kTop + r * kCell, cols * kCell, kCell);
    }
  }
  for (int c = 0; c < cols; ++c) {
    if (failing(h.col_labels, c)) {
      out += fmt::format("<rect class=\"failing\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#cc0000\" "
                         "stroke-width=\"3\"/>\n", kLabel + c * kCell, kTop, kCell, rows * kCell);
    }
  }
  out += fmt::format("<text x=\"0\" y=\"{}\" font-size=\"11\">{}</text>\n", height - 8, xml_escape(caption));
  out += "</svg>\n";
  return out;
}

}  // namespace gpuvet::report
