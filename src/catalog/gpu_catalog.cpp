// Parses the GPU catalogue (profiles/gpus.yaml schema) into core::Catalog, and serves the
// embedded copy. yaml-cpp exceptions stop here; callers see core::Result.
#include "catalog/gpu_catalog.hpp"

#include <yaml-cpp/yaml.h>

#include <regex>
#include <set>
#include <type_traits>
#include <utility>
#include <vector>

namespace gpuvet::catalog {
namespace data {
const std::vector<std::pair<std::string_view, std::string_view>>& embedded_files();
}  // namespace data

namespace {

const std::set<std::string> kKnownKeys = {
    "id", "display_name", "name_patterns", "nvml_name", "architecture", "compute_capability",
    "form_factor", "card_class", "memory_gib", "memory_reported_mib", "memory_type",
    "memory_bandwidth_gbps", "nvlink_generation", "nvlink_links", "nvlink_link_gbps", "pcie_gen",
    "pcie_width", "tdp_w", "fp64_tflops", "fp32_tflops", "tf32_tflops", "bf16_tflops",
    "fp8_tflops", "vbios", "board_part_number", "max_sm_clock_mhz", "max_mem_clock_mhz", "source"};

constexpr const char* kNotInCatalogue = "not in the catalogue";

// Reads the fields of one model; throws std::string naming the field on a bad value.
class ModelReader {
 public:
  explicit ModelReader(const YAML::Node& node) : node_(node) {}

  std::string text(const char* key) const {
    const YAML::Node v = node_[key];
    if (!v || v.IsNull()) throw std::string(key) + ": required";
    if (!v.IsScalar() || v.Scalar().empty()) throw std::string(key) + ": expected a non-empty string";
    return v.Scalar();
  }
  std::string optional_text(const char* key) const {
    const YAML::Node v = node_[key];
    if (!v || v.IsNull()) return {};
    if (!v.IsScalar()) throw std::string(key) + ": expected a string";
    return v.Scalar();
  }
  template <class T>
  T number(const char* key) const {
    const YAML::Node v = node_[key];
    if (!v || v.IsNull()) throw std::string(key) + ": required";
    return convert<T>(key, v);
  }
  template <class T>
  T number_or(const char* key, T fallback) const {
    const YAML::Node v = node_[key];
    if (!v || v.IsNull()) return fallback;
    return convert<T>(key, v);
  }
  template <class T>
  core::Reading<T> reading(const char* key) const {
    const YAML::Node v = node_[key];
    if (!v || v.IsNull()) return core::Reading<T>::absent(kNotInCatalogue);
    return convert<T>(key, v);
  }

 private:
  template <class T>
  static T convert(const char* key, const YAML::Node& v) {
    T out{};
    if (!v.IsScalar() || !YAML::convert<T>::decode(v, out)) {
      throw std::string(key) + ": expected a number, got '" + (v.IsScalar() ? v.Scalar() : "?") + "'";
    }
    if constexpr (std::is_signed_v<T>) {
      if (out < T{}) throw std::string(key) + ": must not be negative";
    }
    return out;
  }
  const YAML::Node& node_;
};

core::CardClass parse_card_class(const std::string& text) {
  if (text == "training") return core::CardClass::training;
  if (text == "inference") return core::CardClass::inference;
  if (text == "workstation") return core::CardClass::workstation;
  if (text == "consumer") return core::CardClass::consumer;
  throw std::string("card_class: expected training, inference, workstation or consumer, got '") + text + "'";
}

core::GpuModel parse_model(const YAML::Node& node) {
  if (!node.IsMap()) throw std::string("expected a mapping");
  for (const auto& kv : node) {
    const auto key = kv.first.as<std::string>();
    if (!kKnownKeys.count(key)) throw "unknown field '" + key + "'";
  }
  const ModelReader r(node);
  core::GpuModel m;
  m.id = r.text("id");
  try {
    m.display_name = r.text("display_name");
    const YAML::Node patterns = node["name_patterns"];
    if (!patterns || !patterns.IsSequence() || patterns.size() == 0) {
      throw std::string("name_patterns: expected a non-empty list of regexes");
    }
    for (const auto& p : patterns) {
      if (!p.IsScalar() || p.Scalar().empty()) throw std::string("name_patterns: expected strings");
      try {
        const std::regex re(p.Scalar(), std::regex::ECMAScript | std::regex::icase);
      } catch (const std::regex_error& e) {
        throw "name_patterns: '" + p.Scalar() + "' is not a valid regex: " + e.what();
      }
      m.name_patterns.push_back(p.Scalar());
    }
    m.nvml_name = r.text("nvml_name");
    m.architecture = r.text("architecture");
    m.compute_capability = r.text("compute_capability");
    m.form_factor = r.text("form_factor");
    m.card_class = parse_card_class(r.text("card_class"));
    m.memory_gib = r.number<double>("memory_gib");
    m.memory_reported_mib = r.reading<std::uint64_t>("memory_reported_mib");
    m.memory_type = r.text("memory_type");
    m.memory_bandwidth_gbps = r.reading<double>("memory_bandwidth_gbps");
    m.nvlink_generation = r.number_or<int>("nvlink_generation", 0);
    m.nvlink_links = r.number_or<int>("nvlink_links", 0);
    m.nvlink_link_gbps = r.reading<double>("nvlink_link_gbps");
    if ((m.nvlink_generation == 0) != (m.nvlink_links == 0)) {
      throw std::string("nvlink_generation and nvlink_links: give both or neither");
    }
    if (m.nvlink_generation == 0 && m.nvlink_link_gbps.known()) {
      throw std::string("nvlink_link_gbps: given without nvlink_generation");
    }
    if (m.nvlink_generation == 0) m.nvlink_link_gbps = core::Reading<double>::absent("no NVLink");
    m.pcie_gen = r.number<int>("pcie_gen");
    m.pcie_width = r.number_or<int>("pcie_width", 16);
    m.tdp_w = r.reading<double>("tdp_w");
    m.fp64_tflops = r.reading<double>("fp64_tflops");
    m.fp32_tflops = r.reading<double>("fp32_tflops");
    m.tf32_tflops = r.reading<double>("tf32_tflops");
    m.bf16_tflops = r.reading<double>("bf16_tflops");
    m.fp8_tflops = r.reading<double>("fp8_tflops");
    m.vbios = r.optional_text("vbios");
    m.board_part_number = r.optional_text("board_part_number");
    m.max_sm_clock_mhz = r.reading<int>("max_sm_clock_mhz");
    m.max_mem_clock_mhz = r.reading<int>("max_mem_clock_mhz");
    m.source = r.text("source");
  } catch (const std::string& what) {
    throw "model '" + m.id + "': " + what;
  }
  return m;
}

}  // namespace

core::Result<core::Catalog> parse_catalog(std::string_view yaml_text, const std::string& file_name) {
  try {
    const YAML::Node root = YAML::Load(std::string(yaml_text));
    const YAML::Node models = root["models"];
    if (!models || !models.IsSequence()) {
      return core::input_error(file_name + ": expected a top-level 'models:' list");
    }
    std::vector<core::GpuModel> out;
    std::set<std::string> ids;
    for (std::size_t i = 0; i < models.size(); ++i) {
      try {
        core::GpuModel model = parse_model(models[i]);
        if (!ids.insert(model.id).second) throw "duplicate id '" + model.id + "'";
        out.push_back(std::move(model));
      } catch (const std::string& what) {
        return core::input_error(file_name + ": models[" + std::to_string(i) + "]: " + what);
      }
    }
    return core::Catalog(std::move(out));
  } catch (const YAML::Exception& e) {
    return core::input_error(file_name + ": " + e.what());
  }
}

const core::Catalog& gpu_catalog() {
  static const core::Catalog catalog = [] {
    for (const auto& [path, text] : data::embedded_files()) {
      if (path == "gpus.yaml") {
        auto parsed = parse_catalog(text, "profiles/gpus.yaml");
        if (parsed) return std::move(parsed).value();
      }
    }
    return core::Catalog();  // unreachable when the catalogue test passes
  }();
  return catalog;
}

}  // namespace gpuvet::catalog
