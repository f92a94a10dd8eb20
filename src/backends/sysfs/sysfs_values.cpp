// Parsers for the handful of sysfs attribute formats gpuvet reads; see sysfs_values.hpp.
#include "backends/sysfs/sysfs_values.hpp"

#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <utility>

namespace gpuvet::sysfs {

namespace {

std::string quoted(std::string_view text) { return "'" + std::string(text) + "'"; }

// Leading decimal number ("32.0" of "32.0 GT/s PCIe") and the text after it.
bool leading_number(std::string_view text, double& value, std::string_view& rest) {
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || ptr == text.data()) return false;
  rest = trim(std::string_view(ptr, static_cast<size_t>(end - ptr)));
  return true;
}

bool whole_int(std::string_view text, int& value) {
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  return ec == std::errc() && ptr == end && !text.empty();
}

bool starts_with(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

}  // namespace

std::string_view trim(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) text.remove_prefix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.remove_suffix(1);
  return text;
}

core::Reading<int> parse_link_speed_gen(std::string_view text) {
  text = trim(text);
  double gt_s = 0;
  std::string_view rest;
  if (!leading_number(text, gt_s, rest) || !starts_with(rest, "GT/s")) {
    return core::Reading<int>::absent("link speed " + quoted(text) + " is not 'N GT/s'");
  }
  static constexpr std::array<std::pair<double, int>, 6> kGenerations{
      {{2.5, 1}, {5.0, 2}, {8.0, 3}, {16.0, 4}, {32.0, 5}, {64.0, 6}}};
  for (const auto& [rate, gen] : kGenerations) {
    if (std::fabs(gt_s - rate) < 0.01) return gen;
  }
  return core::Reading<int>::absent("link speed " + quoted(text) + " is no PCIe generation");
}

core::Reading<int> parse_link_width(std::string_view text) {
  text = trim(text);
  int width = 0;
  if (!whole_int(text, width) || width < 0 || width > 32) {
    return core::Reading<int>::absent("link width " + quoted(text) + " is not a lane count");
  }
  if (width == 0) return core::Reading<int>::absent("link width 0 (link down)");
  return width;
}

core::Reading<int> parse_numa_node(std::string_view text) {
  text = trim(text);
  int node = 0;
  if (!whole_int(text, node) || node < -1) {
    return core::Reading<int>::absent("NUMA node " + quoted(text) + " is not a number");
  }
  if (node == -1) return core::Reading<int>::absent("numa_node is -1: firmware gives no NUMA affinity");
  return node;
}

core::Reading<std::string> parse_cpulist(std::string_view text) {
  text = trim(text);
  for (char c : text) {
    if (!std::isdigit(static_cast<unsigned char>(c)) && c != ',' && c != '-') {
      return core::Reading<std::string>::absent("cpulist " + quoted(text) + " is malformed");
    }
  }
  return std::string(text);
}

core::Reading<double> parse_ib_rate_gbit_s(std::string_view text) {
  text = trim(text);
  double rate = 0;
  std::string_view rest;
  if (!leading_number(text, rate, rest) || !starts_with(rest, "Gb/sec") || rate <= 0) {
    return core::Reading<double>::absent("port rate " + quoted(text) + " is not 'N Gb/sec'");
  }
  return rate;
}

core::Reading<std::string> parse_ib_state(std::string_view text) {
  text = trim(text);
  const auto colon = text.find(':');
  int code = 0;
  const auto name = colon == std::string_view::npos ? std::string_view() : trim(text.substr(colon + 1));
  bool ok = colon != std::string_view::npos && whole_int(text.substr(0, colon), code) && !name.empty();
  for (char c : name) ok = ok && (std::isupper(static_cast<unsigned char>(c)) || c == '_');
  if (!ok) return core::Reading<std::string>::absent("port state " + quoted(text) + " is not 'N: NAME'");
  return std::string(name);
}

bool is_pci_bus_id(std::string_view text) {
  // dddd:bb:dd.f
  if (text.size() != 12 || text[4] != ':' || text[7] != ':' || text[10] != '.') return false;
  for (size_t i = 0; i < text.size(); ++i) {
    if (i == 4 || i == 7 || i == 10) continue;
    const auto c = static_cast<unsigned char>(text[i]);
    if (!std::isdigit(c) && !(c >= 'a' && c <= 'f')) return false;
  }
  return true;
}

}  // namespace gpuvet::sysfs
