// Repeated GPU sections in one nvidia-smi -q output (see smi_query_duplicates.hpp).
#include "parsers/smi_query_duplicates.hpp"

#include <fmt/format.h>
#include <map>
#include <optional>

#include "parsers/topo_common.hpp"

namespace gpuvet::parsers::smi_query {

namespace {

template <class T>
std::string shown(const core::Reading<T>& r) {
  if (!r.known()) return "n/a (" + r.reason() + ")";
  return fmt::format("{}", *r);
}

// The fields two copies of one GPU must share, as text: (what, first copy, second copy).
struct Difference {
  std::string what;
  std::string first;
  std::string second;
};

std::optional<Difference> first_difference(const core::Gpu& a, const core::Gpu& b) {
  const std::pair<const char*, std::pair<std::string, std::string>> fields[] = {
      {"name", {shown(a.name), shown(b.name)}},
      {"UUID", {shown(a.uuid), shown(b.uuid)}},
      {"serial", {shown(a.serial), shown(b.serial)}},
      {"board part number", {shown(a.board_part_number), shown(b.board_part_number)}},
      {"VBIOS", {shown(a.vbios), shown(b.vbios)}},
      {"InfoROM image", {shown(a.inforom_image), shown(b.inforom_image)}},
      {"memory (MiB)", {shown(a.memory_total_mib), shown(b.memory_total_mib)}},
      {"max PCIe generation", {shown(a.pcie.gen_max), shown(b.pcie.gen_max)}},
      {"max PCIe width", {shown(a.pcie.width_max), shown(b.pcie.width_max)}},
      {"ECC mode", {shown(a.ecc_enabled), shown(b.ecc_enabled)}},
      {"MIG mode", {shown(a.mig_enabled), shown(b.mig_enabled)}},
      {"virtualization mode", {shown(a.virtualization_mode), shown(b.virtualization_mode)}},
      {"power limit (W)", {shown(a.power_limit_w), shown(b.power_limit_w)}},
      {"remapped rows (correctable)", {shown(a.memory_health.remapped_rows_correctable), shown(b.memory_health.remapped_rows_correctable)}},
      {"remapped rows (uncorrectable)",
       {shown(a.memory_health.remapped_rows_uncorrectable), shown(b.memory_health.remapped_rows_uncorrectable)}},
      {"remap pending", {shown(a.memory_health.remap_pending), shown(b.memory_health.remap_pending)}},
      {"remap failure", {shown(a.memory_health.remap_failure), shown(b.memory_health.remap_failure)}},
      {"retired pages (SBE)", {shown(a.memory_health.retired_pages_sbe), shown(b.memory_health.retired_pages_sbe)}},
      {"retired pages (DBE)", {shown(a.memory_health.retired_pages_dbe), shown(b.memory_health.retired_pages_dbe)}},
      {"retired pages pending", {shown(a.memory_health.retired_pages_pending), shown(b.memory_health.retired_pages_pending)}},
  };
  for (const auto& [what, values] : fields) {
    if (values.first != values.second) return Difference{what, values.first, values.second};
  }
  return std::nullopt;
}

// What names a GPU within one output: its bus id, else its UUID; empty when neither is known.
std::string key_of(const core::Gpu& g, const GpuSection& s) {
  if (g.pci_bus_id.known()) return "bus id " + core::normalize_pci_bus_id(*g.pci_bus_id);
  if (!s.header_bus_id.empty()) return "bus id " + core::normalize_pci_bus_id(s.header_bus_id);
  if (g.uuid.known()) return "UUID " + *g.uuid;
  return {};
}

std::optional<core::Error> check_attached(const core::Machine& m, const Node& root, Form form, const std::string& file_name) {
  if (!m.attached_gpus.known() || static_cast<int>(m.gpus.size()) <= *m.attached_gpus) return std::nullopt;
  const Node* n = root.find(form == Form::text ? "Attached GPUs" : "attached_gpus");
  return core::input_error(fmt::format(
      "{}: line {}: Attached GPUs is {} but the file has {} different GPU sections (bus ids): outputs of several machines "
      "in one file? Give one nvidia-smi -q output per file",
      file_name, n != nullptr ? n->line : 1, *m.attached_gpus, m.gpus.size()));
}

}  // namespace

core::Result<core::Machine> fold_repeated_gpus(core::Machine built, const Node& root, const std::vector<GpuSection>& sections,
                                               Form form, const std::string& file_name) {
  std::map<std::string, size_t> first_of;  // key -> position of its first section
  std::vector<GpuSection> kept;
  size_t repeats = 0;
  int first_repeat_line = 0;
  for (size_t i = 0; i < built.gpus.size() && i < sections.size(); ++i) {
    const auto key = key_of(built.gpus[i], sections[i]);
    const auto [it, fresh] = key.empty() ? std::pair{first_of.end(), true} : first_of.emplace(key, i);
    if (fresh) {
      kept.push_back(sections[i]);
      continue;
    }
    const auto& first = sections[it->second];
    if (const auto d = first_difference(built.gpus[it->second], built.gpus[i])) {
      return core::input_error(fmt::format(
          "{}: line {}: the GPU with {} is listed again (first on line {}) with a different {}: {} on line {}, {} on line {}; "
          "give one nvidia-smi -q output per file",
          file_name, sections[i].node->line, key, first.node->line, d->what, quoted(d->first),
          first.node->line, quoted(d->second), sections[i].node->line));
    }
    if (repeats++ == 0) first_repeat_line = sections[i].node->line;
  }
  if (repeats == 0) {
    if (auto err = check_attached(built, root, form, file_name)) return *err;
    return built;
  }
  auto result = build_machine(root, kept, form, file_name);
  if (!result) return result.error();
  core::Machine rebuilt = std::move(result).value();
  if (auto err = check_attached(rebuilt, root, form, file_name)) return *err;
  rebuilt.notes.push_back(fmt::format(
      "{}: {} GPU section(s) from line {} on repeat GPUs listed earlier (same bus id, same content): folded into {} GPU(s); "
      "the output was pasted more than once",
      file_name, repeats, first_repeat_line, kept.size()));
  return rebuilt;
}

}  // namespace gpuvet::parsers::smi_query
