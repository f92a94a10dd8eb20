// Helpers over the machine model.
#include "core/machine.hpp"

#include <algorithm>
#include <cctype>
#include <fmt/format.h>

namespace gpuvet::core {

std::string_view to_string(NvLinkRemote remote) {
  switch (remote) {
    case NvLinkRemote::gpu: return "gpu";
    case NvLinkRemote::nvswitch: return "nvswitch";
    case NvLinkRemote::cpu: return "cpu";
    case NvLinkRemote::unknown: return "unknown";
  }
  return "unknown";
}

std::string_view to_string(GpuEventKind kind) {
  switch (kind) {
    case GpuEventKind::xid: return "xid";
    case GpuEventKind::fallen_off_bus: return "fallen_off_bus";
    case GpuEventKind::probe_failed: return "probe_failed";
    case GpuEventKind::device_handle_lost: return "device_handle_lost";
    case GpuEventKind::inforom_corrupted: return "inforom_corrupted";
  }
  return "xid";
}

namespace {
bool parse_hex(std::string_view s, unsigned long& out) {
  if (s.empty() || s.size() > 8) return false;
  out = 0;
  for (char c : s) {
    if (!std::isxdigit(static_cast<unsigned char>(c))) return false;
    out = out * 16 + static_cast<unsigned long>(std::isdigit(static_cast<unsigned char>(c))
                                                    ? c - '0'
                                                    : std::tolower(static_cast<unsigned char>(c)) - 'a' + 10);
  }
  return true;
}
}  // namespace

std::string normalize_pci_bus_id(std::string_view bus_id) {
  // Accepts "dddddddd:bb:dd.f", "dddd:bb:dd.f" and "bb:dd.f".
  std::string_view rest = bus_id;
  unsigned long domain = 0, bus = 0, dev = 0, fn = 0;
  const auto colons = std::count(rest.begin(), rest.end(), ':');
  if (colons == 2) {
    const auto c = rest.find(':');
    if (!parse_hex(rest.substr(0, c), domain)) return std::string(bus_id);
    rest.remove_prefix(c + 1);
  } else if (colons != 1) {
    return std::string(bus_id);
  }
  const auto c = rest.find(':');
  const auto dot = rest.find('.');
  if (c == std::string_view::npos || dot == std::string_view::npos || dot < c) {
    return std::string(bus_id);
  }
  if (!parse_hex(rest.substr(0, c), bus) || !parse_hex(rest.substr(c + 1, dot - c - 1), dev) ||
      !parse_hex(rest.substr(dot + 1), fn)) {
    return std::string(bus_id);
  }
  return fmt::format("{:04x}:{:02x}:{:02x}.{:x}", domain, bus, dev, fn);
}

int position_of_gpu(const Machine& machine, int gpu_index) {
  for (size_t i = 0; i < machine.gpus.size(); ++i) {
    if (machine.gpus[i].index == gpu_index) return static_cast<int>(i);
  }
  return -1;
}

}  // namespace gpuvet::core
