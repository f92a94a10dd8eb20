// Parsing of single sysfs attribute values (PCIe link speed and width, NUMA node, cpulists,
// InfiniBand port rate and state). Pure functions on text, plus one reader that names the file.
#pragma once

#include <string>
#include <string_view>

#include "core/reading.hpp"
#include "platform/fs_root.hpp"

namespace gpuvet::sysfs {

// Without leading/trailing whitespace (every sysfs attribute ends in '\n').
std::string_view trim(std::string_view text);

// "32.0 GT/s PCIe" (kernel >= 5.x), "8 GT/s" / "8.0 GT/s" (older kernels) -> PCIe generation:
// 2.5->1, 5->2, 8->3, 16->4, 32->5, 64->6. Absent for "Unknown", "Unknown speed" and garbage.
core::Reading<int> parse_link_speed_gen(std::string_view text);
// "16" -> 16. Absent for garbage and for 0, which the kernel prints when the link is down.
core::Reading<int> parse_link_width(std::string_view text);
// "0" -> 0. "-1" means the firmware gave no NUMA affinity for the device: absent.
core::Reading<int> parse_numa_node(std::string_view text);
// "0-47,96-143" -> itself. Empty is a valid (known, empty) list; anything but digits, ',' and
// '-' is absent.
core::Reading<std::string> parse_cpulist(std::string_view text);
// "400 Gb/sec (4X NDR)" -> 400.
core::Reading<double> parse_ib_rate_gbit_s(std::string_view text);
// "4: ACTIVE" -> "ACTIVE".
core::Reading<std::string> parse_ib_state(std::string_view text);
// "0000:18:00.0" exactly as the kernel names PCI functions (4-digit domain, lowercase hex).
bool is_pci_bus_id(std::string_view text);

// Reads DIR/NAME and parses it; the reason of an absence names the file and what was in it.
template <class T, class Parse>
core::Reading<T> read_attribute(const platform::FsRoot& root, const std::string& dir,
                                const std::string& name, Parse parse) {
  const std::string path = dir + "/" + name;
  const auto text = root.read(path);
  if (!text) return core::Reading<T>::absent(path + " not readable");
  core::Reading<T> value = parse(trim(*text));
  if (!value) return core::Reading<T>::absent(path + ": " + value.reason());
  return value;
}

}  // namespace gpuvet::sysfs
