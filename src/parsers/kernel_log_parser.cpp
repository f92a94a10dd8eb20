// Parser of NVRM kernel log lines (see kernel_log_parser.hpp). Lines are matched by the words
// the open and proprietary NVIDIA kernel modules print (R340 to R590 seen in tests/fixtures).
#include "parsers/kernel_log_parser.hpp"

#include <algorithm>
#include <exception>
#include <fmt/format.h>
#include <optional>

#include "parsers/text_lines.hpp"
#include "parsers/topo_common.hpp"

namespace gpuvet::parsers {

namespace {

constexpr const char* kNotInLog = "not in a kernel log";

// The text after "NVRM: ", or nullopt when the line has no NVRM tag.
std::optional<std::string_view> nvrm_text(std::string_view line) {
  const auto at = line.find("NVRM: ");
  if (at == std::string_view::npos) return std::nullopt;
  return trim(line.substr(at + 6));
}

bool is_hex_digit(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

// The first PCI address in `text` ("0000:b3:00.0", "0000:dc:00", "PCI:0000:dc:00"), normalised
// to "0000:dc:00.0" (Xid lines leave out the function: it is 0 for a GPU).
std::optional<std::string> find_bus_id(std::string_view text) {
  for (size_t i = 0; i + 10 <= text.size(); ++i) {
    if (i > 0 && is_hex_digit(text[i - 1])) continue;
    size_t j = i;
    size_t domain = 0;
    while (j < text.size() && is_hex_digit(text[j])) ++j, ++domain;
    if (domain != 4 && domain != 8) continue;
    if (j + 6 > text.size() || text[j] != ':' || !is_hex_digit(text[j + 1]) || !is_hex_digit(text[j + 2]) ||
        text[j + 3] != ':' || !is_hex_digit(text[j + 4]) || !is_hex_digit(text[j + 5])) {
      continue;
    }
    std::string id(text.substr(i, j + 6 - i));
    if (j + 7 < text.size() && text[j + 6] == '.' && is_hex_digit(text[j + 7])) {
      id += text.substr(j + 6, 2);
    } else {
      id += ".0";
    }
    return core::normalize_pci_bus_id(id);
  }
  return std::nullopt;
}

// The whole decimal number at the start of `text` (after spaces), or nullopt.
std::optional<int> leading_number(std::string_view text) {
  text = trim(text);
  size_t n = 0;
  while (n < text.size() && text[n] >= '0' && text[n] <= '9') ++n;
  int value = -1;
  if (n == 0 || n > 6 || !parse_int(text.substr(0, n), value)) return std::nullopt;
  return value;
}

struct Reader {
  std::string file;
  std::vector<core::GpuEvent> events;
  std::vector<std::string> notes;

  void add(core::GpuEventKind kind, std::optional<std::string> bus, int xid, bool referenced, std::string_view text, int line) {
    for (auto& e : events) {
      const bool same_bus = bus ? (e.pci_bus_id.known() && *e.pci_bus_id == *bus) : !e.pci_bus_id.known();
      if (e.kind != kind || !same_bus || e.xid != xid) continue;
      if (referenced) return;  // a later line naming it again is not another occurrence
      if (e.referenced_only) {
        e.referenced_only = false;  // the Xid line itself turns up after a reference to it
        e.text = std::string(text);
        e.where = fmt::format("{}: line {}", file, line);
        return;
      }
      ++e.count;
      return;
    }
    core::GpuEvent e;
    e.kind = kind;
    e.pci_bus_id = bus ? core::Reading<std::string>(*bus) : core::Reading<std::string>::absent("the line names no PCI address");
    e.xid = xid;
    e.referenced_only = referenced;
    e.text = std::string(text);
    e.where = fmt::format("{}: line {}", file, line);
    events.push_back(std::move(e));
  }
};

// "Xid (PCI:0000:dc:00): 45, pid=..., caused by previous Xid 149"; false when not an Xid line.
bool read_xid(std::string_view t, int line, bool last, Reader& r) {
  if (!starts_with(t, "Xid")) return false;
  const auto close = t.find("):");
  if (close == std::string_view::npos) {
    if (last) r.notes.push_back(fmt::format("{}: line {}: the input ends inside an Xid line ({}); it was skipped", r.file, line, quoted(t)));
    return true;
  }
  const auto bus = find_bus_id(t.substr(0, close));
  const auto number = leading_number(t.substr(close + 2));
  if (!number) {
    r.notes.push_back(fmt::format("{}: line {}: an Xid line without its number ({}) was skipped", r.file, line, quoted(t)));
    return true;
  }
  r.add(core::GpuEventKind::xid, bus, *number, false, t, line);
  if (*number == 79) r.add(core::GpuEventKind::fallen_off_bus, bus, 0, false, t, line);
  const auto previous = t.find("previous Xid");
  if (previous != std::string_view::npos) {
    if (const auto earlier = leading_number(t.substr(previous + 12))) r.add(core::GpuEventKind::xid, bus, *earlier, true, t, line);
  }
  return true;
}

core::Result<core::Machine> parse(std::string_view text, const std::string& file) {
  const auto lines = split_lines(text);
  Reader r{file, {}, {}};
  size_t last = lines.size();
  while (last > 0 && trim(lines[last - 1].text).empty()) --last;
  int nvrm_lines = 0;
  for (size_t i = 0; i < last; ++i) {
    const auto t = nvrm_text(lines[i].text);
    if (!t) continue;
    ++nvrm_lines;
    const int n = lines[i].number;
    if (read_xid(*t, n, i + 1 == last, r)) continue;
    if (t->find("fallen off the bus") != std::string_view::npos) {
      // 570+ spreads the message over NVRM lines: the address is on an earlier one.
      auto bus = find_bus_id(*t);
      for (size_t back = i; !bus && back > 0 && i - back < 3; --back) {
        if (const auto p = nvrm_text(lines[back - 1].text)) bus = find_bus_id(*p);
      }
      if (!bus) {
        r.notes.push_back(fmt::format("{}: line {}: a GPU fell off the bus, but the log does not say which one", file, n));
      }
      r.add(core::GpuEventKind::fallen_off_bus, bus, 0, false, *t, n);
    } else if (t->find("probe routine failed") != std::string_view::npos || t->find("RmInitAdapter failed") != std::string_view::npos) {
      r.add(core::GpuEventKind::probe_failed, find_bus_id(*t), 0, false, *t, n);
    }
  }
  if (r.events.empty()) {
    return line_error(file, lines.empty() ? 1 : lines.back().number,
                      "reached the end of the input without an NVRM Xid, \"fallen off the bus\" or probe failure line");
  }
  core::Machine m;
  m.source = fmt::format("kernel log ({})", file);
  m.hostname = core::Absent{kNotInLog};
  m.driver_version = core::Absent{kNotInLog};
  m.cuda_version = core::Absent{kNotInLog};
  m.attached_gpus = core::Absent{"a kernel log does not list the GPUs"};
  m.links = core::Absent{kNotInLog};
  m.nvswitch_present = core::Absent{kNotInLog};
  m.nics = core::Absent{kNotInLog};
  m.numa_nodes = core::Absent{kNotInLog};
  m.notes.push_back(fmt::format("{} is a kernel log ({} NVRM lines): it names GPUs by PCI address and shows what the driver "
                                "reported, not the machine; give nvidia-smi -q of the same machine to name the GPUs",
                                file, nvrm_lines));
  m.notes.insert(m.notes.end(), r.notes.begin(), r.notes.end());
  m.events = std::move(r.events);
  return m;
}

}  // namespace

bool looks_like_kernel_log(std::string_view text) {
  size_t at = 0;
  while ((at = text.find("NVRM: ", at)) != std::string_view::npos) {
    const auto end = text.find('\n', at);
    const auto t = text.substr(at + 6, end == std::string_view::npos ? std::string_view::npos : end - at - 6);
    if (starts_with(t, "Xid") || t.find("fallen off the bus") != std::string_view::npos ||
        t.find("probe routine failed") != std::string_view::npos || t.find("RmInitAdapter failed") != std::string_view::npos ||
        starts_with(t, "The NVIDIA GPU ")) {
      return true;
    }
    at += 6;
  }
  return false;
}

core::Result<core::Machine> parse_kernel_log(std::string_view text, const std::string& file_name) {
  try {
    return parse(text, file_name);
  } catch (const std::exception& e) {
    return core::internal_error(fmt::format("{}: parsing the kernel log failed: {}", file_name, e.what()));
  }
}

}  // namespace gpuvet::parsers
