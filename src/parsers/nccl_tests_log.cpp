// Rank lines and failure lines of nccl-tests logs (see nccl_tests_log.hpp). Forms from
// NVIDIA/nccl-tests src/common.cu (2018: "#   Rank  0 on HOST device  0 [0x00] NAME") and
// src/util.cu (2022+: "#  Rank  0 Group  0 Pid 123 on HOST device  0 [0x21] NAME"; 2.16+ prints
// the bus id as [0000:2d:00]).
#include "parsers/nccl_tests_log.hpp"

#include <cstdlib>

#include "core/machine.hpp"
#include "parsers/benchmark_log_lines.hpp"
#include "parsers/text_lines.hpp"

namespace gpuvet::parsers {

namespace {

bool contains(std::string_view t, std::string_view s) { return t.find(s) != std::string_view::npos; }

std::optional<int> small_int(const std::string& s) {
  if (s.empty() || s.size() > 7) return std::nullopt;
  for (const char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
  }
  return std::atoi(s.c_str());
}

}  // namespace

std::string nccl_bus_id(std::string_view b) {
  if (b.size() < 3 || b.front() != '[' || b.back() != ']') return {};
  const auto id = b.substr(1, b.size() - 2);
  if (starts_with(id, "0x")) {
    const auto hex = id.substr(2);
    if (hex.empty() || hex.size() > 2 || hex.find_first_not_of("0123456789abcdefABCDEF") != std::string_view::npos) return {};
    const auto value = std::strtoul(std::string(hex).c_str(), nullptr, 16);
    if (value == 0) return {};
    return core::normalize_pci_bus_id("0000:" + std::string(hex) + ":00.0");
  }
  if (id.find_first_not_of("0123456789abcdefABCDEF:") != std::string_view::npos) return {};
  const std::string full = std::string(id) + ".0";
  const auto normal = core::normalize_pci_bus_id(full);
  return normal.size() == 12 ? normal : std::string();
}

std::optional<core::RankDevice> read_nccl_rank_line(std::string_view after_hash, bool* cut) {
  *cut = false;
  const auto c = split_ws(after_hash);
  if (c.size() < 2 || c[0] != "Rank") return std::nullopt;
  const auto rank = small_int(c[1]);
  if (!rank) return std::nullopt;
  core::RankDevice r;
  r.rank = *rank;
  size_t i = 2;
  if (i + 1 < c.size() && c[i] == "Group") i += 2;
  if (i + 1 < c.size() && c[i] == "Pid") i += 2;
  if (i >= c.size() || c[i] != "on") {
    // Cut before the host ("Rank 15 Group  0 Pid  58433 o"): the rank number is all there is.
    if (i + 1 >= c.size()) {
      *cut = true;
      return r;
    }
    return std::nullopt;
  }
  if (i + 1 >= c.size()) {
    *cut = true;
    return r;
  }
  r.host = c[i + 1];
  i += 2;
  if (i + 1 >= c.size() || c[i] != "device") {
    *cut = true;
    return r;
  }
  if (const auto d = small_int(c[i + 1])) r.device = *d;
  i += 2;
  if (i >= c.size() || c[i].empty() || c[i].front() != '[') {
    *cut = true;
    return r;
  }
  r.bus_id = nccl_bus_id(c[i]);
  const auto close = after_hash.find(']');
  r.name = close == std::string_view::npos ? std::string() : std::string(trim(after_hash.substr(close + 1)));
  if (r.name.empty()) *cut = true;
  return r;
}

bool is_nccl_debug_line(std::string_view t) {
  return contains(t, "NCCL INFO") || contains(t, "NCCL WARN") || contains(t, "NCCL TRACE");
}

bool is_nccl_warn_line(std::string_view t) { return contains(t, "NCCL WARN"); }

bool is_nccl_failure_line(std::string_view t) {
  if (is_nccl_debug_line(t) || (!t.empty() && t[0] == '#')) return false;
  for (const char* s : {"NCCL failure", "Test failure", "CUDA failure", "unhandled system error", "unhandled cuda error",
                        "MPI_ABORT", "ncclInternalError", "ncclSystemError", "ncclUnhandledCudaError"}) {
    if (contains(t, s)) return true;
  }
  return is_crash_line(t);
}

std::optional<long long> nccl_out_of_bounds(std::string_view t) {
  const auto at = t.find("Out of bounds values");
  if (at == std::string_view::npos) return std::nullopt;
  const auto colon = t.find(':', at);
  if (colon == std::string_view::npos) return std::nullopt;
  const auto c = split_ws(t.substr(colon + 1));
  if (c.size() < 2 || c[1] != "FAILED") return std::nullopt;
  const auto n = std::strtoll(c[0].c_str(), nullptr, 10);
  return n > 0 ? std::optional<long long>(n) : std::nullopt;
}

}  // namespace gpuvet::parsers
