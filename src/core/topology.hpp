// The pairwise connection between two devices, in nvidia-smi topo -m vocabulary
// (X, NV#, PIX, PXB, PHB, NODE, SYS), and the GPU x GPU matrix of them.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpuvet::core {

// Ordered from closest to farthest PCIe path; nvlink is a separate fabric.
enum class LinkKind { self, nvlink, pix, pxb, phb, node, sys };

struct Link {
  LinkKind kind = LinkKind::sys;
  int nvlink_count = 0;  // bonded NVLinks when kind == nvlink ("NV12" -> 12)

  bool operator==(const Link&) const = default;
  [[nodiscard]] bool is_nvlink() const { return kind == LinkKind::nvlink; }
};

// "X", "NV12", "PIX", ... exactly as nvidia-smi topo -m prints it.
std::string to_string(const Link& link);
std::string_view to_string(LinkKind kind);
// Parses one topo -m cell; accepts the legacy "SOC" for SYS. nullopt for anything else.
std::optional<Link> parse_link(std::string_view cell);
// What the label means, as the nvidia-smi legend words it (shortened).
std::string_view describe(LinkKind kind);

// Square matrix over GPU indices. cell(i, i) is self.
class LinkMatrix {
 public:
  LinkMatrix() = default;
  explicit LinkMatrix(int size);

  [[nodiscard]] int size() const { return size_; }
  [[nodiscard]] const Link& at(int a, int b) const;
  void set(int a, int b, Link link);           // sets one direction
  void set_symmetric(int a, int b, Link link);  // sets both
  // Removes row and column `index` (a GPU that is not there).
  [[nodiscard]] LinkMatrix without(int index) const;
  bool operator==(const LinkMatrix&) const = default;

 private:
  int size_ = 0;
  std::vector<Link> cells_;
};

}  // namespace gpuvet::core
