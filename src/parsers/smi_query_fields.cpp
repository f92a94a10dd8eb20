// Field mapping for nvidia-smi -q in both forms: a table of (text path, XML path, shape, Gpu field)
// that turns a parsed Node tree into a core::Machine (clocks event reasons: smi_query_clock_reasons).
#include "parsers/smi_query_fields.hpp"

#include <array>
#include <fmt/format.h>
#include <limits>
#include <optional>
#include <string>
#include <variant>

#include "parsers/smi_query_clock_reasons.hpp"

namespace gpuvet::parsers::smi_query {
namespace {

template <class T>
using Ref = core::Reading<T>& (*)(core::Gpu&);
using FieldRef = std::variant<Ref<std::string>, Ref<int>, Ref<std::uint64_t>, Ref<double>, Ref<bool>>;

// How a value is written, which also fixes the type it decodes to.
enum class Shape { text, bus_id, integer, link_width, mib, mhz, watts, enabled, yes_no };

using Paths = std::array<std::string_view, 3>;  // alternatives, newest driver first; "" = unused

struct GpuField {
  std::string_view name;
  Paths text;
  Paths xml;
  Shape shape;
  FieldRef field;
  std::string_view na_reason = {};  // replaces the reason when the value is "N/A"
};

const std::array<GpuField, 30>& gpu_fields() {
  using core::Gpu;
  static const std::array<GpuField, 30> kFields = {{
      {"name", {"Product Name"}, {"product_name"}, Shape::text,
       [](Gpu& g) -> core::Reading<std::string>& { return g.name; }},
      {"uuid", {"GPU UUID"}, {"uuid"}, Shape::text,
       [](Gpu& g) -> core::Reading<std::string>& { return g.uuid; }},
      {"serial", {"Serial Number"}, {"serial"}, Shape::text,
       [](Gpu& g) -> core::Reading<std::string>& { return g.serial; }},
      {"board_part_number", {"Board Part Number"}, {"board_part_number"}, Shape::text,
       [](Gpu& g) -> core::Reading<std::string>& { return g.board_part_number; }},
      {"vbios", {"VBIOS Version"}, {"vbios_version"}, Shape::text,
       [](Gpu& g) -> core::Reading<std::string>& { return g.vbios; }},
      {"inforom_image", {"Inforom Version/Image Version"}, {"inforom_version/img_version"}, Shape::text,
       [](Gpu& g) -> core::Reading<std::string>& { return g.inforom_image; }},
      {"architecture", {"Product Architecture"}, {"product_architecture"}, Shape::text,
       [](Gpu& g) -> core::Reading<std::string>& { return g.architecture; }},
      {"compute_capability", {"Compute Capability", "CUDA Compute Capability"}, {"compute_cap", "compute_capability"},
       Shape::text, [](Gpu& g) -> core::Reading<std::string>& { return g.compute_capability; }},
      {"memory_total_mib", {"FB Memory Usage/Total"}, {"fb_memory_usage/total"}, Shape::mib,
       [](Gpu& g) -> core::Reading<std::uint64_t>& { return g.memory_total_mib; }},
      {"pci_bus_id", {"PCI/Bus Id"}, {"pci/pci_bus_id"}, Shape::bus_id,
       [](Gpu& g) -> core::Reading<std::string>& { return g.pci_bus_id; }},
      {"pcie.gen_current", {"PCI/GPU Link Info/PCIe Generation/Current"},
       {"pci/pci_gpu_link_info/pcie_gen/current_link_gen"}, Shape::integer,
       [](Gpu& g) -> core::Reading<int>& { return g.pcie.gen_current; }},
      {"pcie.gen_max", {"PCI/GPU Link Info/PCIe Generation/Max"}, {"pci/pci_gpu_link_info/pcie_gen/max_link_gen"},
       Shape::integer, [](Gpu& g) -> core::Reading<int>& { return g.pcie.gen_max; }},
      {"pcie.width_current", {"PCI/GPU Link Info/Link Width/Current"},
       {"pci/pci_gpu_link_info/link_widths/current_link_width"}, Shape::link_width,
       [](Gpu& g) -> core::Reading<int>& { return g.pcie.width_current; }},
      {"pcie.width_max", {"PCI/GPU Link Info/Link Width/Max"}, {"pci/pci_gpu_link_info/link_widths/max_link_width"},
       Shape::link_width, [](Gpu& g) -> core::Reading<int>& { return g.pcie.width_max; }},
      {"pcie.replays", {"PCI/Replays Since Reset"}, {"pci/replay_counter"}, Shape::integer,
       [](Gpu& g) -> core::Reading<int>& { return g.pcie.replays; }},
      // Drivers before ~510 print "Power Readings/Power Limit" (XML power_readings/power_limit).
      {"power_limit_w",
       {"GPU Power Readings/Current Power Limit", "Power Readings/Current Power Limit", "Power Readings/Power Limit"},
       {"gpu_power_readings/current_power_limit", "power_readings/current_power_limit", "power_readings/power_limit"},
       Shape::watts, [](Gpu& g) -> core::Reading<double>& { return g.power_limit_w; }},
      {"max_sm_clock_mhz", {"Max Clocks/SM"}, {"max_clocks/sm_clock"}, Shape::mhz,
       [](Gpu& g) -> core::Reading<int>& { return g.max_sm_clock_mhz; }},
      {"max_mem_clock_mhz", {"Max Clocks/Memory"}, {"max_clocks/mem_clock"}, Shape::mhz,
       [](Gpu& g) -> core::Reading<int>& { return g.max_mem_clock_mhz; }},
      {"ecc_enabled", {"ECC Mode/Current"}, {"ecc_mode/current_ecc"}, Shape::enabled,
       [](Gpu& g) -> core::Reading<bool>& { return g.ecc_enabled; }},
      {"mig_enabled", {"MIG Mode/Current"}, {"mig_mode/current_mig"}, Shape::enabled,
       [](Gpu& g) -> core::Reading<bool>& { return g.mig_enabled; }, "MIG not supported"},
      {"performance_state", {"Performance State"}, {"performance_state"}, Shape::text,
       [](Gpu& g) -> core::Reading<std::string>& { return g.performance_state; }},
      {"virtualization_mode", {"GPU Virtualization Mode/Virtualization Mode"},
       {"gpu_virtualization_mode/virtualization_mode"}, Shape::text,
       [](Gpu& g) -> core::Reading<std::string>& { return g.virtualization_mode; }},
      {"fabric_state", {"Fabric/State"}, {"fabric/state"}, Shape::text,
       [](Gpu& g) -> core::Reading<std::string>& { return g.fabric_state; }},
      {"memory_health.remapped_rows_correctable", {"Remapped Rows/Correctable Error"},
       {"remapped_rows/remapped_row_corr"}, Shape::integer,
       [](Gpu& g) -> core::Reading<int>& { return g.memory_health.remapped_rows_correctable; }},
      {"memory_health.remapped_rows_uncorrectable", {"Remapped Rows/Uncorrectable Error"},
       {"remapped_rows/remapped_row_unc"}, Shape::integer,
       [](Gpu& g) -> core::Reading<int>& { return g.memory_health.remapped_rows_uncorrectable; }},
      {"memory_health.remap_pending", {"Remapped Rows/Pending"}, {"remapped_rows/remapped_row_pending"}, Shape::yes_no,
       [](Gpu& g) -> core::Reading<bool>& { return g.memory_health.remap_pending; }},
      {"memory_health.remap_failure", {"Remapped Rows/Remapping Failure Occurred"},
       {"remapped_rows/remapped_row_failure"}, Shape::yes_no,
       [](Gpu& g) -> core::Reading<bool>& { return g.memory_health.remap_failure; }},
      {"memory_health.retired_pages_sbe", {"Retired Pages/Single Bit ECC"},
       {"retired_pages/multiple_single_bit_retirement/retired_count"}, Shape::integer,
       [](Gpu& g) -> core::Reading<int>& { return g.memory_health.retired_pages_sbe; }},
      {"memory_health.retired_pages_dbe", {"Retired Pages/Double Bit ECC"},
       {"retired_pages/double_bit_retirement/retired_count"}, Shape::integer,
       [](Gpu& g) -> core::Reading<int>& { return g.memory_health.retired_pages_dbe; }},
      // "Pending Page Blacklist" was renamed "Pending Page Retirement" in later drivers.
      {"memory_health.retired_pages_pending",
       {"Retired Pages/Pending Page Blacklist", "Retired Pages/Pending Page Retirement", "Retired Pages/Pending"},
       {"retired_pages/pending_blacklist", "retired_pages/pending_retirement"}, Shape::yes_no,
       [](Gpu& g) -> core::Reading<bool>& { return g.memory_health.retired_pages_pending; }},
  }};
  return kFields;
}

std::string_view expected_shape(Shape shape) {
  switch (shape) {
    case Shape::text: return "text";
    case Shape::bus_id: return "a PCI bus id 'dddddddd:bb:dd.f'";
    case Shape::integer: return "'<n>'";
    case Shape::link_width: return "'<n>x'";
    case Shape::mib: return "'<n> MiB'";
    case Shape::mhz: return "'<n> MHz'";
    case Shape::watts: return "'<x> W'";
    case Shape::enabled: return "'Enabled' or 'Disabled'";
    case Shape::yes_no: return "'Yes' or 'No'";
  }
  return "a value";
}

using Decoded = std::variant<std::string, long long, double, bool>;

std::optional<Decoded> decode(Shape shape, std::string_view value) {
  switch (shape) {
    case Shape::text: return Decoded{std::string(value)};
    case Shape::bus_id: return Decoded{core::normalize_pci_bus_id(value)};  // kept as printed if odd
    case Shape::integer:
      if (auto n = parse_integer(value)) return Decoded{*n};
      return std::nullopt;
    case Shape::link_width:
      if (!value.empty() && value.back() == 'x') {
        if (auto n = parse_integer(value.substr(0, value.size() - 1))) return Decoded{*n};
      }
      return std::nullopt;
    case Shape::mib:
      if (auto n = parse_integer_with_unit(value, "MiB")) return Decoded{*n};
      return std::nullopt;
    case Shape::mhz:
      if (auto n = parse_integer_with_unit(value, "MHz")) return Decoded{*n};
      return std::nullopt;
    case Shape::watts:
      if (auto x = parse_decimal_with_unit(value, "W")) return Decoded{*x};
      return std::nullopt;
    case Shape::enabled:
      if (value == "Enabled") return Decoded{true};
      if (value == "Disabled") return Decoded{false};
      return std::nullopt;
    case Shape::yes_no:
      if (value == "Yes") return Decoded{true};
      if (value == "No") return Decoded{false};
      return std::nullopt;
  }
  return std::nullopt;
}

// Stores a decoded value into the field; false when it does not fit (negative count, overflow).
bool store(const FieldRef& ref, core::Gpu& gpu, Decoded&& value) {
  if (auto* f = std::get_if<Ref<std::string>>(&ref)) {
    auto* s = std::get_if<std::string>(&value);
    if (s != nullptr) (*f)(gpu) = std::move(*s);
    return s != nullptr;
  }
  if (auto* f = std::get_if<Ref<int>>(&ref)) {
    auto* n = std::get_if<long long>(&value);
    if (n == nullptr || *n < 0 || *n > std::numeric_limits<int>::max()) return false;
    (*f)(gpu) = static_cast<int>(*n);
    return true;
  }
  if (auto* f = std::get_if<Ref<std::uint64_t>>(&ref)) {
    auto* n = std::get_if<long long>(&value);
    if (n == nullptr || *n < 0) return false;
    (*f)(gpu) = static_cast<std::uint64_t>(*n);
    return true;
  }
  if (auto* f = std::get_if<Ref<double>>(&ref)) {
    auto* x = std::get_if<double>(&value);
    if (x != nullptr) (*f)(gpu) = *x;
    return x != nullptr;
  }
  auto* f = std::get_if<Ref<bool>>(&ref);
  auto* b = std::get_if<bool>(&value);
  if (f != nullptr && b != nullptr) (*f)(gpu) = *b;
  return f != nullptr && b != nullptr;
}

void set_absent(const FieldRef& ref, core::Gpu& gpu, const std::string& reason) {
  std::visit([&](auto f) { f(gpu) = core::Absent{reason}; }, ref);
}

struct Context {
  Form form;
  const std::string& file_name;
  std::string gpu_label;  // "GPU 0 (00000000:18:00.0)"
};

core::Error error_at(const Context& ctx, int line, const std::string& what) {
  return core::input_error(fmt::format("{}: line {}: {}: {}", ctx.file_name, line, ctx.gpu_label, what));
}

// Reads one table row into gpu. Missing -> absent (reason from a parent printed as "N/A", if any).
std::optional<core::Error> read_field(const GpuField& row, const Node& gpu_node, const Context& ctx, core::Gpu& gpu) {
  const Paths& paths = ctx.form == Form::text ? row.text : row.xml;
  const Node* found = nullptr;
  std::string_view used_path;
  for (auto path : paths) {
    if (path.empty()) continue;
    found = gpu_node.find(path);
    used_path = path;
    if (found != nullptr && found->has_value) break;
    found = nullptr;
  }
  if (found == nullptr) {
    std::string reason(kNotInOutput);
    for (auto path : paths) {
      if (path.empty()) continue;
      const Node* parent = gpu_node.deepest_on(path);
      if (parent != &gpu_node && parent->has_value && is_absence_text(parent->value)) reason = parent->value;
    }
    set_absent(row.field, gpu, reason);
    return std::nullopt;
  }
  if (is_absence_text(found->value)) {
    std::string reason = found->value.empty() ? std::string("empty value") : found->value;
    if (!row.na_reason.empty() && found->value == "N/A") reason = std::string(row.na_reason);
    set_absent(row.field, gpu, reason);
    return std::nullopt;
  }
  auto decoded = decode(row.shape, found->value);
  if (!decoded || !store(row.field, gpu, std::move(*decoded))) {
    return error_at(ctx, found->line,
                    fmt::format("{}: expected {}, found '{}'", used_path, expected_shape(row.shape), found->value));
  }
  return std::nullopt;
}

core::Result<core::Gpu> read_gpu(const GpuSection& section, int index, Form form, const std::string& file_name) {
  Context ctx{form, file_name, fmt::format("GPU {} ({})", index, section.header_bus_id)};
  const Node& node = *section.node;
  if (!section.filtered && node.find(form == Form::text ? "Product Name" : "product_name") == nullptr) {
    return error_at(ctx, node.line,
                    form == Form::text ? "expected a 'Product Name' line in the GPU section"
                                       : "expected a <product_name> element in <gpu>");
  }
  core::Gpu gpu;
  gpu.index = index;
  for (const auto& row : gpu_fields()) {
    if (auto error = read_field(row, node, ctx, gpu)) return *error;
  }
  if (!gpu.pci_bus_id.known() && !section.header_bus_id.empty()) {
    gpu.pci_bus_id = core::normalize_pci_bus_id(section.header_bus_id);
  }
  read_clocks_event_reasons(node, form, gpu);
  gpu.numa_node = core::Absent{std::string(kNotInSmiQ)};
  gpu.cpu_affinity = core::Absent{std::string(kNotInSmiQ)};
  gpu.nvlinks = core::Absent{std::string(kNotInSmiQ)};
  return gpu;
}

core::Reading<std::string> read_text(const Node& root, std::string_view path) {
  const Node* n = root.find(path);
  if (n == nullptr || !n->has_value) return core::Absent{std::string(kNotInOutput)};
  if (is_absence_text(n->value)) return core::Absent{n->value.empty() ? std::string("empty value") : n->value};
  return n->value;
}

}  // namespace

core::Result<core::Machine> build_machine(const Node& root, const std::vector<GpuSection>& gpus, Form form,
                                          const std::string& file_name) {
  core::Machine machine;
  machine.source = fmt::format("{} ({})", form == Form::text ? "nvidia-smi -q" : "nvidia-smi -q -x", file_name);
  const bool text = form == Form::text;
  machine.driver_version = read_text(root, text ? "Driver Version" : "driver_version");
  machine.cuda_version = read_text(root, text ? "CUDA Version" : "cuda_version");
  const std::string_view attached_path = text ? "Attached GPUs" : "attached_gpus";
  if (const Node* n = root.find(attached_path); n != nullptr && n->has_value && !is_absence_text(n->value)) {
    const auto count = parse_integer(n->value);
    if (!count || *count < 0 || *count > 4096) {
      return core::input_error(fmt::format("{}: line {}: {}: expected a GPU count, found '{}'", file_name, n->line,
                                           attached_path, n->value));
    }
    machine.attached_gpus = static_cast<int>(*count);
  } else {
    machine.attached_gpus = core::Absent{n != nullptr && n->has_value ? n->value : std::string(kNotInOutput)};
  }
  for (const auto& section : gpus) {
    auto gpu = read_gpu(section, static_cast<int>(machine.gpus.size()), form, file_name);
    if (!gpu) return gpu.error();
    machine.gpus.push_back(std::move(gpu).value());
  }
  if (machine.attached_gpus.known() && *machine.attached_gpus != static_cast<int>(machine.gpus.size())) {
    machine.notes.push_back(fmt::format(
        "{}: attached GPUs is {} but the output has {} GPU section(s); the others were left out of the input "
        "(trimmed paste, or nvidia-smi -i)",
        file_name, *machine.attached_gpus, machine.gpus.size()));
  }
  machine.hostname = core::Absent{std::string(kNotInSmiQ)};
  machine.links = core::Absent{std::string(kNotInSmiQ)};
  machine.nvswitch_present = core::Absent{std::string(kNotInSmiQ)};
  machine.nics = core::Absent{std::string(kNotInSmiQ)};
  machine.numa_nodes = core::Absent{std::string(kNotInSmiQ)};
  return machine;
}

std::vector<FieldPaths> field_table() {
  std::vector<FieldPaths> out;
  for (const auto& row : gpu_fields()) {
    out.push_back({std::string(row.name), std::string(row.text[0]), std::string(row.xml[0])});
  }
  out.push_back({"idle, clocks_event_reasons", "Clocks Event Reasons/* (or Clocks Throttle Reasons/*)",
                 "clocks_event_reasons/clocks_event_reason_* (or clocks_throttle_reasons/...)"});
  return out;
}

}  // namespace gpuvet::parsers::smi_query
