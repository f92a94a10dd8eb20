// Parser of the default `nvidia-smi` table (the view everyone pastes first), its "MIG devices"
// table and the warnings nvidia-smi prints above it. Pure text -> core::Machine.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.hpp"
#include "core/machine.hpp"
#include "parsers/text_lines.hpp"

namespace gpuvet::parsers {

// True for a "| NVIDIA-SMI ... Driver Version:" banner, a "| GPU  Name" column header, a
// "| MIG devices:" box, or nvidia-smi's "Unable to determine the device handle for GPU" /
// "infoROM is corrupted at gpu" warnings. Used by detect_format after topo -m.
bool looks_like_smi_table(const std::vector<Line>& lines);

// Reads driver and CUDA version, and per GPU: index, name (nvidia-smi cuts long names with
// "..."; the cut name is kept and a note says so), PCI bus id, power cap (W), memory total (MiB),
// ECC mode (enabled when the Volatile Uncorr. ECC cell is a count, disabled when "Off"), and MIG
// mode. Rows of the "MIG devices" table mark their GPUs MIG-enabled (a fragment with only that
// table gives just those GPUs). "Unable to determine the device handle for GPU <bus>: ..." and
// "infoROM is corrupted at gpu <bus>" become core::GpuEvents. The table shows no UUID, serial,
// VBIOS, PCIe link, NUMA node, NVLink or memory health: those stay absent. A table cut by the end
// of the input keeps the complete GPU blocks and says so in a note. Errors name file and line.
core::Result<core::Machine> parse_smi_table(std::string_view text, const std::string& file_name);

// The warning nvidia-smi prints above any of its views ("WARNING: infoROM is corrupted at gpu
// <bus>", "Unable to determine the device handle for GPU <bus>: ...") as an event; nullopt for
// any other line. Used by this parser and the nvidia-smi -q text parser.
std::optional<core::GpuEvent> read_smi_warning(std::string_view line, int number, const std::string& file_name);

}  // namespace gpuvet::parsers
