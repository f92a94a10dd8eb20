// Private helpers shared by the topo -m, nvlink -s, format-detection and merge code: quoting
// untrusted text for error messages, line-numbered input errors, and "all unknown" GPUs.
#pragma once

#include <optional>
#include <string>
#include <vector>
#include <string_view>

#include "core/error.hpp"
#include "core/machine.hpp"

namespace gpuvet::parsers {

// `text` in double quotes, with control and non-ASCII bytes as \xNN and long text cut at
// 40 characters, so that binary garbage never ends up raw in a message.
std::string quoted(std::string_view text);

// bad_input Error "<file>: line <n>: <what>".
core::Error line_error(const std::string& file_name, int line, const std::string& what);

// Whole decimal number (optional leading '-'); false on anything else or overflow.
bool parse_int(std::string_view text, int& out);

// The node ids of a list such as "0,3-9,11-17" (a cpulist), in the order printed; nullopt when the
// text is not such a list (empty, "N/A", a range running backwards, more than 4096 ids).
std::optional<std::vector<int>> parse_id_list(std::string_view text);

// True for a PCI address in the form normalize_pci_bus_id gives ("0000:18:00.0").
bool is_normal_bus_id(std::string_view id);

// A Gpu with this index and every other field absent with `reason`.
core::Gpu unknown_gpu(int index, const std::string& reason);

// `line` without the residue of ANSI escapes whose ESC byte was lost in copying: "[4m", "[0m",
// "[1;32m" (nvidia-smi underlines the topo header on a terminal).
std::string strip_escape_residue(std::string_view line);

// True for a `nvidia-smi topo -m` header line: first cell "GPU0", then "GPU1", or a line that
// also has "CPU Affinity" (a one-GPU machine). Used by the topo parser and by detect_format.
bool is_topo_header(std::string_view line);

// "GPU N: NAME (UUID: ...)" as nvidia-smi nvlink -s / -L print it; index and the rest.
bool is_nvlink_gpu_line(std::string_view line, int& index, std::string& rest);

}  // namespace gpuvet::parsers
