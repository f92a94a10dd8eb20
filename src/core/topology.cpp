// Conversions between topo -m cells and Link values, and the link matrix.
#include "core/topology.hpp"

#include <charconv>
#include <stdexcept>

namespace gpuvet::core {

std::string_view to_string(LinkKind kind) {
  switch (kind) {
    case LinkKind::self: return "X";
    case LinkKind::nvlink: return "NV";
    case LinkKind::pix: return "PIX";
    case LinkKind::pxb: return "PXB";
    case LinkKind::phb: return "PHB";
    case LinkKind::node: return "NODE";
    case LinkKind::sys: return "SYS";
  }
  return "?";
}

std::string to_string(const Link& link) {
  if (link.kind == LinkKind::nvlink) return "NV" + std::to_string(link.nvlink_count);
  return std::string(to_string(link.kind));
}

std::optional<Link> parse_link(std::string_view cell) {
  if (cell == "X") return Link{LinkKind::self, 0};
  if (cell == "PIX") return Link{LinkKind::pix, 0};
  if (cell == "PXB") return Link{LinkKind::pxb, 0};
  if (cell == "PHB") return Link{LinkKind::phb, 0};
  if (cell == "NODE") return Link{LinkKind::node, 0};
  if (cell == "SYS" || cell == "SOC") return Link{LinkKind::sys, 0};
  if (cell.size() > 2 && cell.substr(0, 2) == "NV") {
    int count = 0;
    const auto digits = cell.substr(2);
    const auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), count);
    if (ec == std::errc() && ptr == digits.data() + digits.size() && count > 0) {
      return Link{LinkKind::nvlink, count};
    }
  }
  return std::nullopt;
}

std::string_view describe(LinkKind kind) {
  switch (kind) {
    case LinkKind::self: return "self";
    case LinkKind::nvlink: return "bonded set of NVLinks";
    case LinkKind::pix: return "at most one PCIe bridge";
    case LinkKind::pxb: return "several PCIe bridges, no host bridge";
    case LinkKind::phb: return "through a PCIe host bridge (CPU)";
    case LinkKind::node: return "across host bridges within one NUMA node";
    case LinkKind::sys: return "across the inter-socket link (QPI/UPI/xGMI)";
  }
  return "?";
}

LinkMatrix::LinkMatrix(int size) : size_(size), cells_(static_cast<size_t>(size * size)) {
  for (int i = 0; i < size; ++i) set(i, i, Link{LinkKind::self, 0});
}

const Link& LinkMatrix::at(int a, int b) const {
  if (a < 0 || b < 0 || a >= size_ || b >= size_) throw std::out_of_range("LinkMatrix::at");
  return cells_[static_cast<size_t>(a * size_ + b)];
}

void LinkMatrix::set(int a, int b, Link link) {
  if (a < 0 || b < 0 || a >= size_ || b >= size_) throw std::out_of_range("LinkMatrix::set");
  cells_[static_cast<size_t>(a * size_ + b)] = link;
}

void LinkMatrix::set_symmetric(int a, int b, Link link) {
  set(a, b, link);
  set(b, a, link);
}

LinkMatrix LinkMatrix::without(int index) const {
  LinkMatrix out(size_ - 1);
  for (int a = 0, oa = 0; a < size_; ++a) {
    if (a == index) continue;
    for (int b = 0, ob = 0; b < size_; ++b) {
      if (b == index) continue;
      out.set(oa, ob, at(a, b));
      ++ob;
    }
    ++oa;
  }
  return out;
}

}  // namespace gpuvet::core
