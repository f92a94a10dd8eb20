// Helpers shared by the rule families: wording, bandwidth arithmetic, cpulists.
#include "analysis/rule_support.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <iterator>

#include <fmt/format.h>

#include "analysis/finding_catalog.hpp"

namespace gpuvet::analysis {

std::vector<const core::GpuModel*> match_models(const core::Machine& machine, const core::Catalog& catalog) {
  std::vector<const core::GpuModel*> out;
  out.reserve(machine.gpus.size());
  for (const auto& gpu : machine.gpus) {
    out.push_back(gpu.name ? catalog.match(*gpu.name) : nullptr);
  }
  return out;
}

core::Finding make_finding(std::string_view code, core::Severity severity, std::vector<int> gpus,
                           std::string message) {
  core::Finding f;
  f.code = std::string(code);
  f.severity = severity;
  std::sort(gpus.begin(), gpus.end());
  gpus.erase(std::unique(gpus.begin(), gpus.end()), gpus.end());
  f.gpus = std::move(gpus);
  f.message = std::move(message);
  if (const FindingInfo* info = find_finding_info(code)) f.next_step = info->next_step;
  return f;
}

namespace {
// Sorted, de-duplicated runs of consecutive indices joined with `sep`; runs of 3+ as "a-b".
std::string join_runs(std::vector<int> indices, std::string_view sep) {
  std::sort(indices.begin(), indices.end());
  indices.erase(std::unique(indices.begin(), indices.end()), indices.end());
  std::string out;
  for (size_t i = 0; i < indices.size();) {
    size_t j = i;
    while (j + 1 < indices.size() && indices[j + 1] == indices[j] + 1) ++j;
    if (!out.empty()) out += sep;
    if (j - i >= 2) {
      out += fmt::format("{}-{}", indices[i], indices[j]);
      i = j + 1;
    } else {
      out += std::to_string(indices[i]);
      ++i;
    }
  }
  return out;
}
}  // namespace

std::string describe_gpus(std::vector<int> indices) {
  std::sort(indices.begin(), indices.end());
  indices.erase(std::unique(indices.begin(), indices.end()), indices.end());
  if (indices.empty()) return "no GPU";
  if (indices.size() == 1) return fmt::format("GPU {}", indices.front());
  return "GPUs " + join_runs(indices, ", ");
}

std::string compact_gpus(std::vector<int> indices) { return "GPU" + join_runs(std::move(indices), ","); }

std::string model_label(const core::Gpu& gpu, const core::GpuModel* model) {
  if (model != nullptr && !model->display_name.empty()) return model->display_name;
  if (gpu.name && !gpu.name->empty()) return *gpu.name;
  return "GPU";
}

std::string format_gbps(double gbps) {
  if (gbps >= 100) return fmt::format("{:.0f}", gbps);
  return fmt::format("{:.3g}", gbps);
}

namespace {
struct PcieChoice {
  core::Reading<int> gen;
  core::Reading<int> width;
  bool from_catalogue = false;  // the machine did not report it: the model's capability is assumed
};

PcieChoice choose_pcie(const core::Gpu& gpu, const core::GpuModel* model) {
  PcieChoice c;
  if (gpu.pcie.gen_max) c.gen = *gpu.pcie.gen_max;
  else if (model != nullptr && model->pcie_gen > 0) {
    c.gen = model->pcie_gen;
    c.from_catalogue = true;
  }
  else if (gpu.pcie.gen_current) c.gen = *gpu.pcie.gen_current;
  else c.gen = core::Reading<int>::absent("PCIe generation not reported");
  if (gpu.pcie.width_max) c.width = *gpu.pcie.width_max;
  else if (gpu.pcie.width_current) c.width = *gpu.pcie.width_current;
  else if (model != nullptr && model->pcie_width > 0) {
    c.width = model->pcie_width;
    c.from_catalogue = true;
  }
  else c.width = core::Reading<int>::absent("PCIe width not reported");
  return c;
}
}  // namespace

core::Reading<double> pcie_gpu_gbps(const core::Gpu& gpu, const core::GpuModel* model) {
  const PcieChoice c = choose_pcie(gpu, model);
  if (!c.gen) return core::Reading<double>::absent(c.gen.reason());
  if (!c.width) return core::Reading<double>::absent(c.width.reason());
  const auto lane = core::pcie_lane_gbps(*c.gen);
  if (!lane) return lane;
  return *lane * *c.width;
}

std::string pcie_label(const core::Gpu& gpu, const core::GpuModel* model) {
  const PcieChoice c = choose_pcie(gpu, model);
  if (!c.gen || !c.width) return "";
  return fmt::format("Gen{} x{}{}", *c.gen, *c.width, c.from_catalogue ? ", assumed from the catalogue" : "");
}

std::optional<std::set<int>> parse_cpulist(std::string_view text) {
  std::set<int> out;
  auto parse_int = [](std::string_view s, int& v) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
    const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    return !s.empty() && ec == std::errc() && ptr == s.data() + s.size() && v >= 0;
  };
  while (!text.empty()) {
    const auto comma = text.find(',');
    const std::string_view part = text.substr(0, comma);
    text = comma == std::string_view::npos ? std::string_view() : text.substr(comma + 1);
    const auto dash = part.find('-');
    int lo = 0;
    int hi = 0;
    if (dash == std::string_view::npos) {
      if (!parse_int(part, lo)) return std::nullopt;
      hi = lo;
    } else if (!parse_int(part.substr(0, dash), lo) || !parse_int(part.substr(dash + 1), hi) || hi < lo) {
      return std::nullopt;
    }
    if (hi - lo > 65536) return std::nullopt;
    for (int c = lo; c <= hi; ++c) out.insert(c);
  }
  if (out.empty()) return std::nullopt;
  return out;
}

bool contains_nocase(std::string_view haystack, std::string_view needle) {
  const auto it = std::search(haystack.begin(), haystack.end(), needle.begin(), needle.end(), [](char a, char b) {
    return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
  });
  return it != haystack.end();
}

namespace {

// A note without the file names it quotes: a fixture named "...-truncated.txt" is not a cut.
std::string without_paths(const std::string& note) {
  std::string out;
  std::size_t i = 0;
  while (i < note.size()) {
    const std::size_t end = std::min(note.find(' ', i), note.size());
    const std::string_view word(note.data() + i, end - i);
    const bool path = word.find('/') != std::string_view::npos || word.find(".txt") != std::string_view::npos ||
                      word.find(".xml") != std::string_view::npos || word.find(".log") != std::string_view::npos;
    if (!path) out.append(word).push_back(' ');
    i = end + 1;
  }
  return out;
}

bool note_trims(const std::string& raw) {
  const std::string note = without_paths(raw);
  for (std::string_view word : {"elided", "trimmed", "omitted", "truncated", "table is cut", "looks cut",
                                "ends in a cut line", "ends inside the header of GPU"}) {
    if (contains_nocase(note, word)) return true;
  }
  return false;
}

}  // namespace

std::vector<std::string> trimming_notes(const core::Machine& m) {
  std::vector<std::string> out;
  std::copy_if(m.notes.begin(), m.notes.end(), std::back_inserter(out), note_trims);
  return out;
}

bool input_trimmed(const core::Machine& m) { return std::any_of(m.notes.begin(), m.notes.end(), note_trims); }

}  // namespace gpuvet::analysis
