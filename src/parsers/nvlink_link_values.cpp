// Per-link values of nvidia-smi nvlink -e, -ec and -R (see nvlink_link_values.hpp).
#include "parsers/nvlink_link_values.hpp"

#include <cctype>
#include <charconv>

#include "core/machine.hpp"
#include "parsers/text_lines.hpp"
#include "parsers/topo_common.hpp"

namespace gpuvet::parsers {

namespace {

bool contains_nocase(std::string_view text, std::string_view word) {
  if (word.size() > text.size()) return false;
  for (size_t i = 0; i + word.size() <= text.size(); ++i) {
    bool same = true;
    for (size_t j = 0; j < word.size() && same; ++j) {
      same = std::tolower(static_cast<unsigned char>(text[i + j])) == std::tolower(static_cast<unsigned char>(word[j]));
    }
    if (same) return true;
  }
  return false;
}

}  // namespace

bool is_error_counter(std::string_view name) {
  const bool fec = name.size() >= 3 && std::tolower(static_cast<unsigned char>(name[0])) == 'f' &&
                   std::tolower(static_cast<unsigned char>(name[1])) == 'e' && std::tolower(static_cast<unsigned char>(name[2])) == 'c';
  if (fec || contains_nocase(name, "symbol")) return false;
  return contains_nocase(name, "error") || contains_nocase(name, "discard") || contains_nocase(name, "failed");
}

bool counter_saturated(std::uint64_t value) {
  return value == 0xffffULL || value == 0xffffffffULL || value == 0xffffffffffffffffULL;
}

std::optional<LinkValue> read_link_value(std::string_view rest) {
  LinkValue v;
  if (starts_with(rest, "Remote Device ")) {
    auto r = rest.substr(14);
    const auto link_at = r.rfind(": Link ");
    if (link_at == std::string_view::npos) return std::nullopt;
    const auto bus = trim(r.substr(0, link_at));
    const auto norm = core::normalize_pci_bus_id(bus);
    int port = -1;
    if (!is_normal_bus_id(norm) || !parse_int(trim(r.substr(link_at + 7)), port) || port < 0) return std::nullopt;
    v.kind = LinkValueKind::remote;
    v.remote_bus_id = norm;
    v.remote_link = port;
    return v;
  }
  const auto colon = rest.rfind(':');
  if (colon == std::string_view::npos || colon == 0) return std::nullopt;
  const auto name = trim(rest.substr(0, colon));
  const auto value = trim(rest.substr(colon + 1));
  if (name.empty() || !std::isalpha(static_cast<unsigned char>(name[0])) || value.empty()) return std::nullopt;
  v.name = std::string(name);
  std::uint64_t n = 0;
  const auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
  if (ec == std::errc() && ptr == value.data() + value.size() && is_error_counter(name)) {
    v.kind = LinkValueKind::counter;
    v.value = n;
    return v;
  }
  v.kind = LinkValueKind::other;
  return v;
}

}  // namespace gpuvet::parsers
