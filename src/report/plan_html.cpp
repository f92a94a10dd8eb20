// gpuvet plan as Markdown and as a self-contained HTML page with the step-time bar chart.
#include <fmt/format.h>

#include <algorithm>
#include <string_view>
#include <utility>
#include <vector>

#include "report/html_escape.hpp"
#include "report/plan_report.hpp"

namespace gpuvet::report {

namespace {

struct Segment {
  const char* name;
  const char* colour;
};
constexpr Segment kSegments[] = {{"compute", "#4e79a7"},
                                 {"pipeline bubble", "#bab0ac"},
                                 {"tensor-parallel comm", "#f28e2b"},
                                 {"pipeline comm", "#edc948"},
                                 {"expert-parallel all-to-all", "#b07aa1"},
                                 {"data-parallel comm (exposed)", "#e15759"}};

std::vector<double> segments(const plan::OfferPlan& o) {
  return {o.step.compute, o.step.bubble, o.step.tp_comm, o.step.pp_comm, o.step.ep_comm, o.step.dp_exposed};
}

std::vector<std::vector<std::string>> rows(const plan::Plan& p) {
  const bool train = p.job.workload == plan::Workload::train;
  std::vector<std::vector<std::string>> out;
  out.push_back(train ? std::vector<std::string>{"#", "Offer", "Fits", "Layout", "GiB/GPU", "Comm", "Days",
                                                 "Cost " + p.currency, "Per M tokens", "Why"}
                      : std::vector<std::string>{"#", "Offer", "Fits", "Layout", "GiB/GPU", "Comm", "Tok/s/GPU",
                                                 p.currency + " per M tokens", "Why"});
  for (const auto& o : p.offers) {
    std::vector<std::string> r = {std::to_string(o.rank), o.offer.name, o.fits ? "yes" : "no",
                                  plan::describe(o.layout, p.job.workload),
                                  fmt::format("{:.1f} / {:.1f}", o.memory.total(), o.capacity_gib),
                                  plan_percent(o.step.comm_share_overlapped())};
    if (train) {
      r.push_back(o.days ? fmt::format("{:.1f}", *o.days) : "n/a");
      r.push_back(plan_money(o.cost));
    } else {
      r.push_back(o.infer ? fmt::format("{:.0f}", o.infer->decode_tokens_per_s_per_gpu) : "n/a");
    }
    r.push_back(plan_money(o.cost_per_million_tokens));
    r.push_back(o.reason);
    out.push_back(r);
  }
  return out;
}

std::string title(const plan::Plan& p) {
  return fmt::format("gpuvet plan: {} ({:.1f}B), {}", p.model.name, p.params.total / 1e9, plan::to_string(p.job.workload));
}

}  // namespace

// Text is laid out at 7 px per character of 12 px sans-serif (Chromium draws about 6.5), so labels
// keep their room; an offer name longer than kMaxNameChars is shortened with "..." and shown whole
// in its tooltip. The legend wraps at the picture's width.
constexpr double kCharPx = 7.0;
constexpr std::size_t kMaxNameChars = 40;

std::string svg_step_breakdown(const plan::Plan& p) {
  const int bar_area = 490, total_w = 90, bar_h = 22, gap = 10, top = 10, legend_row = 22;
  std::size_t name_chars = 0;
  for (const auto& o : p.offers) name_chars = std::max(name_chars, std::min(o.offer.name.size(), kMaxNameChars));
  const int label_w = std::max(120, static_cast<int>(kCharPx * static_cast<double>(name_chars)) + 16);
  const int width = label_w + bar_area + total_w;
  std::vector<std::pair<int, int>> legend_at;
  int lx = 10, ly = 0;
  for (const auto& seg : kSegments) {
    const int item_w = 16 + static_cast<int>(kCharPx * static_cast<double>(std::string_view(seg.name).size())) + 14;
    if (lx > 10 && lx + item_w > width) {
      lx = 10;
      ly += legend_row;
    }
    legend_at.emplace_back(lx, ly);
    lx += item_w;
  }
  const int height = top + static_cast<int>(p.offers.size()) * (bar_h + gap) + ly + legend_row + 20;
  double longest = 0;
  for (const auto& o : p.offers) {
    const auto s = segments(o);
    double sum = 0;
    for (double v : s) sum += v;
    longest = std::max(longest, sum);
  }
  const double scale = longest > 0 ? bar_area / longest : 0;
  std::string out = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" viewBox=\"0 0 {} {}\" role=\"img\" "
      "aria-label=\"step time per offer\" font-family=\"sans-serif\" font-size=\"12\">\n",
      width, height, width, height);
  int y = top;
  for (const auto& o : p.offers) {
    std::string name = o.offer.name;
    if (name.size() > kMaxNameChars) {
      std::size_t cut = kMaxNameChars - 3;
      while (cut > 0 && (static_cast<unsigned char>(name[cut]) & 0xC0) == 0x80) --cut;  // not inside a UTF-8 character
      name = name.substr(0, cut) + "...";
    }
    out += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"end\"><title>{}</title>{}</text>\n", label_w - 8, y + 15,
                       xml_escape(o.offer.name), xml_escape(name));
    double x = label_w;
    double sum = 0;
    const auto s = segments(o);
    for (std::size_t i = 0; i < s.size(); ++i) {
      if (s[i] <= 0) continue;
      const double w = s[i] * scale;
      out += fmt::format("<rect x=\"{:.1f}\" y=\"{}\" width=\"{:.1f}\" height=\"{}\" fill=\"{}\"><title>{}: {:.3g} s</title></rect>\n",
                         x, y, w, bar_h, kSegments[i].colour, kSegments[i].name, s[i]);
      x += w;
      sum += s[i];
    }
    out += fmt::format("<text x=\"{:.1f}\" y=\"{}\">{:.3g} s</text>\n", x + 6, y + 15, sum);
    y += bar_h + gap;
  }
  for (std::size_t i = 0; i < legend_at.size(); ++i) {
    const auto [x, row] = legend_at[i];
    out += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"12\" height=\"12\" fill=\"{}\"/><text x=\"{}\" y=\"{}\">{}</text>\n", x,
                       y + row + 6, kSegments[i].colour, x + 16, y + row + 16, kSegments[i].name);
  }
  out += "</svg>\n";
  return out;
}

std::string render_plan_markdown(const plan::Plan& p) {
  std::string out = "# " + title(p) + "\n\n" + p.model.source + "\n\n";
  const auto table = rows(p);
  for (std::size_t i = 0; i < table.size(); ++i) {
    std::string line = "|";
    for (const auto& cell : table[i]) {
      std::string c = cell;
      std::replace(c.begin(), c.end(), '|', '/');
      line += " " + c + " |";
    }
    out += line + "\n";
    if (i == 0) {
      out += "|";
      for (std::size_t k = 0; k < table[0].size(); ++k) out += "---|";
      out += "\n";
    }
  }
  for (const auto& o : p.offers) {
    out += fmt::format("\n## {}. {}\n\n{}\n\n", o.rank, o.offer.name, plan::offer_summary(o.offer));
    for (const auto& b : o.step.basis) out += "- " + b + "\n";
    for (const auto& f : o.findings) out += fmt::format("- **{}** `{}`: {}\n", core::to_string(f.severity), f.code, f.message);
  }
  out += "\n## Assumptions\n\n";
  for (const auto& a : p.assumptions) out += "- " + a + "\n";
  return out;
}

std::string render_plan_html(const plan::Plan& p) {
  std::string out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n<title>" + xml_escape(title(p)) +
                    "</title>\n<style>body{font-family:sans-serif;margin:24px;color:#222}table{border-collapse:collapse}"
                    "td,th{border:1px solid #ccc;padding:4px 8px;text-align:left;vertical-align:top}"
                    "th{background:#f4f4f4}.no{color:#b00}td{overflow-wrap:anywhere}svg{max-width:100%;height:auto}</style>\n</head>\n<body>\n";
  out += "<h1>" + xml_escape(title(p)) + "</h1>\n<p>" + xml_escape(p.model.source) + "</p>\n<table>\n";
  const auto table = rows(p);
  for (std::size_t i = 0; i < table.size(); ++i) {
    out += "<tr>";
    for (const auto& cell : table[i]) out += (i == 0 ? "<th>" : "<td>") + xml_escape(cell) + (i == 0 ? "</th>" : "</td>");
    out += "</tr>\n";
  }
  out += "</table>\n<h2>Time per step</h2>\n" + svg_step_breakdown(p);
  for (const auto& o : p.offers) {
    out += fmt::format("<h2>{}. {}</h2>\n<p>{}</p>\n<ul>\n", o.rank, xml_escape(o.offer.name),
                       xml_escape(plan::offer_summary(o.offer)));
    for (const auto& b : o.step.basis) out += "<li>" + xml_escape(b) + "</li>\n";
    for (const auto& f : o.findings) {
      out += fmt::format("<li class=\"no\">{} <code>{}</code>: {}</li>\n", core::to_string(f.severity), f.code,
                         xml_escape(f.message));
    }
    out += "</ul>\n";
  }
  out += "<h2>Assumptions</h2>\n<ul>\n";
  for (const auto& a : p.assumptions) out += "<li>" + xml_escape(a) + "</li>\n";
  out += "</ul>\n</body>\n</html>\n";
  return out;
}

}  // namespace gpuvet::report
