// Parses an acceptance spec with yaml-cpp. Every error names the line; unknown keys are errors
// so a typo never silently drops a promise. yaml-cpp exceptions stop here.
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/duration.hpp"
#include "core/text_safety.hpp"
#include "spec/spec.hpp"

namespace gpuvet::spec {

namespace {

// Templates are ~2 KiB and ~4 levels deep; these bounds leave room and keep parsers safe.
constexpr std::size_t kMaxSpecBytes = 1u << 20;
constexpr std::size_t kMaxIndent = 256;

const char* const kCollectives[] = {"all_reduce", "all_gather", "reduce_scatter", "broadcast",
                                    "reduce",     "alltoall",   "sendrecv"};

struct SpecError {
  std::string message;
};

int line_of(const YAML::Node& node) { return node.Mark().line + 1; }

[[noreturn]] void fail(const YAML::Node& at, const std::string& key, const std::string& what) {
  throw SpecError{fmt::format("line {}: {}: {}", line_of(at), key, what)};
}

std::string scalar_text(const YAML::Node& node) { return node.IsScalar() ? node.Scalar() : "(not a scalar)"; }

// The entries of a mapping, checking every key against `allowed`.
void check_keys(const YAML::Node& map, const std::string& path, const std::vector<std::string>& allowed) {
  if (!map.IsMap()) fail(map, path, "expected a mapping of keys (key: value)");
  for (const auto& entry : map) {
    const std::string key = entry.first.Scalar();
    if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
      fail(entry.first, path.empty() ? key : path + "." + key,
           fmt::format("unknown key (expected one of: {})", fmt::join(allowed, ", ")));
    }
  }
}


double number(const YAML::Node& v, const std::string& key, double min, double max, const char* what) {
  double out = 0;
  if (!v.IsScalar() || !YAML::convert<double>::decode(v, out) || !std::isfinite(out) || out < min || out > max) {
    fail(v, key, fmt::format("expected {}, got '{}'", what, scalar_text(v)));
  }
  return out;
}

int whole(const YAML::Node& v, const std::string& key, int min, int max) {
  int out = 0;
  if (!v.IsScalar() || !YAML::convert<int>::decode(v, out) || out < min || out > max) {
    fail(v, key, fmt::format("expected a whole number from {} to {}, got '{}'", min, max, scalar_text(v)));
  }
  return out;
}

std::string text(const YAML::Node& v, const std::string& key) {
  if (!v.IsScalar() || v.Scalar().empty()) fail(v, key, "expected a non-empty string");
  return v.Scalar();
}

bool boolean(const YAML::Node& v, const std::string& key) {
  bool out = false;
  if (!v.IsScalar() || !YAML::convert<bool>::decode(v, out)) {
    fail(v, key, fmt::format("expected true or false, got '{}'", scalar_text(v)));
  }
  return out;
}

Floor floor_value(const YAML::Node& v, const std::string& key) {
  if (v.IsScalar() && v.Scalar() == "auto") return std::nullopt;
  return number(v, key, 1e-9, 1e6, "a bandwidth in GB/s above 0, or auto (the envelope decides)");
}

template <class T>
Field<T> field(T value, const YAML::Node& v) {
  return Field<T>{std::move(value), line_of(v), {}};
}

void parse_gpu(const YAML::Node& gpu, Spec& spec, const core::Catalog& catalog) {
  check_keys(gpu, "gpu", {"model", "count", "memory_gib", "same_batch", "healthy"});
  if (auto v = gpu["model"]) {
    auto id = text(v, "gpu.model");
    if (catalog.by_id(id) == nullptr) {
      std::vector<std::string> ids;
      for (const auto& m : catalog.models()) ids.push_back(m.id);
      fail(v, "gpu.model", fmt::format("'{}' is not a catalogue id (one of: {})", id, fmt::join(ids, ", ")));
    }
    spec.gpu_model = field(id, v);
  }
  if (auto v = gpu["count"]) spec.gpu_count = field(whole(v, "gpu.count", 1, 1024), v);
  if (auto v = gpu["memory_gib"]) spec.memory_gib = field(number(v, "gpu.memory_gib", 1e-3, 1e6, "GiB above 0"), v);
  if (auto v = gpu["healthy"]) spec.healthy = field(boolean(v, "gpu.healthy"), v);
  if (auto v = gpu["same_batch"]) {
    if (!v.IsSequence()) fail(v, "gpu.same_batch", "expected a list of attributes, e.g. [model, vbios]");
    std::vector<std::string> attrs;
    for (const auto& item : v) {
      auto a = text(item, "gpu.same_batch");
      if (std::find(std::begin(kBatchAttributes), std::end(kBatchAttributes), a) == std::end(kBatchAttributes)) {
        fail(item, "gpu.same_batch",
             fmt::format("unknown attribute '{}' (one of: {})", a, fmt::join(kBatchAttributes, ", ")));
      }
      attrs.push_back(a);
    }
    spec.same_batch = field(attrs, v);
  }
}

void parse_collectives(const YAML::Node& node, Spec& spec) {
  std::vector<std::string> allowed(std::begin(kCollectives), std::end(kCollectives));
  allowed.push_back("scaling_efficiency");
  check_keys(node, "collectives", allowed);
  for (const auto& entry : node) {
    const std::string op = entry.first.Scalar();
    const auto key = "collectives." + op;
    if (op == "scaling_efficiency") {
      spec.scaling_efficiency = field(number(entry.second, key, 1e-6, 1, "a fraction in (0, 1]"), entry.second);
      continue;
    }
    if (!entry.second.IsMap()) fail(entry.second, key, "expected GPU counts and floors, e.g. {2: auto, all: 360}");
    for (const auto& size : entry.second) {
      const std::string n = size.first.Scalar();
      const int gpus = n == "all" ? 0 : whole(size.first, key, 2, 1024);
      spec.busbw.push_back({op, gpus, floor_value(size.second, key + "." + n), line_of(size.first)});
    }
  }
}

// burnin.traffic: one word (all_reduce, all_to_all, copies, all, none) or a list of the first three.
std::vector<core::TrafficKind> traffic_kinds(const YAML::Node& v) {
  constexpr const char* kExpected = "expected all_reduce, all_to_all, copies, all or none, or a list such as [all_reduce, copies]";
  std::string words;
  if (v.IsSequence() && v.size() > 0) {
    for (const auto& item : v) {
      if (!item.IsScalar() || item.Scalar() == "all" || item.Scalar() == "none") {
        fail(item, "burnin.traffic", fmt::format("{}, got '{}' in the list", kExpected, scalar_text(item)));
      }
      words += (words.empty() ? "" : ",") + item.Scalar();
    }
  } else if (v.IsScalar()) {
    words = v.Scalar();
  } else {
    fail(v, "burnin.traffic", kExpected);
  }
  const auto kinds = core::parse_traffic_kinds(words);
  if (!kinds) fail(v, "burnin.traffic", fmt::format("{}, got '{}'", kExpected, words));
  return *kinds;
}

void parse_burnin(const YAML::Node& node, Spec& spec) {
  check_keys(node, "burnin",
             {"duration", "throttle_max_fraction", "ecc_uncorrectable_max", "xid_max", "nvlink_errors_max", "traffic",
              "traffic_share", "busbw_hot_min_fraction"});
  BurninLimits limits;
  const auto d = node["duration"];
  if (!d) fail(node, "burnin.duration", "required (e.g. 4h, 30m)");
  auto seconds = d.IsScalar() ? core::parse_duration(d.Scalar()) : std::nullopt;
  if (!seconds || *seconds < kMinBurninS || *seconds > core::kMaxDurationS) {
    fail(d, "burnin.duration",
         fmt::format("expected a duration from {} to {} days, like 4h, 30m or 1h30m, got '{}'",
                     core::format_duration(kMinBurninS), core::kMaxDurationS / 86400, scalar_text(d)));
  }
  limits.duration_s = *seconds;
  if (auto v = node["throttle_max_fraction"]) limits.throttle_max_fraction = number(v, "burnin.throttle_max_fraction", 0, 1, "a fraction from 0 to 1");
  if (auto v = node["ecc_uncorrectable_max"]) limits.ecc_uncorrectable_max = whole(v, "burnin.ecc_uncorrectable_max", 0, 1000000);
  if (auto v = node["xid_max"]) limits.xid_max = whole(v, "burnin.xid_max", 0, 1000000);
  if (auto v = node["nvlink_errors_max"]) limits.nvlink_errors_max = whole(v, "burnin.nvlink_errors_max", 0, 1000000000);
  if (auto v = node["traffic"]) limits.traffic.kinds = traffic_kinds(v);
  if (auto v = node["traffic_share"]) {
    if (!limits.traffic.on()) fail(v, "burnin.traffic_share", "needs burnin.traffic (all_reduce, all_to_all, copies or all)");
    limits.traffic.share = number(v, "burnin.traffic_share", 0.01, 1, "a share of the time from 0.01 to 1");
  }
  if (auto v = node["busbw_hot_min_fraction"]) {
    if (!limits.traffic.loads_nvlink()) fail(v, "burnin.busbw_hot_min_fraction", "needs collective traffic (burnin.traffic: all_reduce, all_to_all or all)");
    limits.busbw_hot_min_fraction = number(v, "burnin.busbw_hot_min_fraction", 0.01, 1, "a fraction in (0, 1]");
  }
  spec.burnin = field(limits, node);
}

// yaml-cpp keeps every pair of a mapping and `node[key]` finds the first: a key written twice
// would drop the second promise without a word. Bounded by the depth check in parse_spec.
void reject_duplicate_keys(const YAML::Node& node, const std::string& path) {
  if (node.IsSequence()) {
    for (const auto& item : node) reject_duplicate_keys(item, path);
    return;
  }
  if (!node.IsMap()) return;
  std::map<std::string, int> seen;
  for (const auto& entry : node) {
    const std::string key = entry.first.IsScalar() ? entry.first.Scalar() : "(not a scalar)";
    const std::string where = path.empty() ? key : path + "." + key;
    if (const auto first = seen.find(key); first != seen.end()) {
      fail(entry.first, where, fmt::format("written twice (first on line {}): a spec states each promise once", first->second));
    }
    seen.emplace(key, line_of(entry.first));
    reject_duplicate_keys(entry.second, where);
  }
}

// Where documents start, at most two. yaml-cpp 0.7's LoadAll never ends on some inputs (a stray
// ",": jbeder/yaml-cpp#1040, found by fuzz/spec_fuzzer), so documents are counted in a bounded loop.
class DocumentStarts final : public YAML::EventHandler {
 public:
  std::vector<YAML::Mark> marks;
  void OnDocumentStart(const YAML::Mark& mark) override { marks.push_back(mark); }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
  void OnAlias(const YAML::Mark&, YAML::anchor_t) override {}
  void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t, const std::string&) override {}
  void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {}
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {}
  void OnMapEnd() override {}
};

// The 1-based line where a second document starts, if the text has one.
std::optional<int> second_document_line(const std::string& text) {
  std::istringstream in(text);
  YAML::Parser parser(in);
  DocumentStarts starts;
  for (int i = 0; i < 2 && parser.HandleNextDocument(starts); ++i) {
  }
  if (starts.marks.size() < 2) return std::nullopt;
  return std::max(1, starts.marks[1].line + 1);
}

// What no spec needs and a parser must not see: bytes that are not text, and nesting deep
// enough to exhaust the stack of a recursive parser.
void check_text(std::string_view yaml_text) {
  if (yaml_text.size() > kMaxSpecBytes) {
    throw SpecError{fmt::format("line 1: {} bytes; a spec is at most {} bytes", yaml_text.size(), kMaxSpecBytes)};
  }
  if (const auto line = core::first_invalid_utf8_line(yaml_text)) {
    throw SpecError{fmt::format("line {}: not valid UTF-8 text (a spec is UTF-8)", *line)};
  }
  if (core::bracket_depth(yaml_text) > core::kMaxNestingDepth) {
    throw SpecError{fmt::format("line 1: brackets nested deeper than {} levels", core::kMaxNestingDepth)};
  }
  std::size_t line = 1;
  std::size_t indent = 0;
  bool at_start = true;
  for (const char c : yaml_text) {
    if (c == '\n') {
      ++line;
      indent = 0;
      at_start = true;
    } else if (at_start && (c == ' ' || c == '\t')) {
      if (++indent > kMaxIndent) throw SpecError{fmt::format("line {}: indented deeper than {} columns", line, kMaxIndent)};
    } else {
      at_start = false;
    }
  }
}

void parse_document(const YAML::Node& root, Spec& spec, const core::Catalog& catalog) {
  if (!root || root.IsNull()) throw SpecError{"line 1: the spec is empty (start from `gpuvet spec init --template NAME`)"};
  check_keys(root, "", {"spec_version", "name", "description", "gpu", "pcie", "interconnect", "numa", "workload",
                        "nics", "bandwidth", "vram", "collectives", "burnin"});
  if (auto v = root["spec_version"]) {
    if (whole(v, "spec_version", 1, 1000) != kSpecVersion) fail(v, "spec_version", fmt::format("this gpuvet reads version {}", kSpecVersion));
  }
  if (auto v = root["name"]) spec.name = text(v, "name");
  if (auto v = root["description"]) spec.description = text(v, "description");
  if (auto v = root["gpu"]) parse_gpu(v, spec, catalog);
  if (auto v = root["pcie"]) {
    check_keys(v, "pcie", {"gen", "width"});
    if (auto g = v["gen"]) spec.pcie_gen = field(whole(g, "pcie.gen", 1, 7), g);
    if (auto w = v["width"]) {
      const int width = whole(w, "pcie.width", 1, 32);
      if ((width & (width - 1)) != 0) fail(w, "pcie.width", fmt::format("expected 1, 2, 4, 8, 16 or 32, got {}", width));
      spec.pcie_width = field(width, w);
    }
  }
  if (auto v = root["interconnect"]) {
    InterconnectClaim claim;
    claim.text = text(v, "interconnect");
    if (!core::parse_interconnect_claim(claim.text, claim.cls, claim.any_nvlink_mesh)) {
      fail(v, "interconnect", fmt::format("expected nvswitch, nvlink, pcie, nvswitch_full_mesh, nvlink_direct_full_mesh, "
                                          "nvlink_partial or pcie_only, got '{}'", claim.text));
    }
    spec.interconnect = field(claim, v);
  }
  if (auto v = root["numa"]) {
    check_keys(v, "numa", {"nodes", "gpus_per_node"});
    NumaLayout layout;
    if (!v["nodes"]) fail(v, "numa.nodes", "required (NUMA nodes that hold GPUs)");
    layout.nodes = whole(v["nodes"], "numa.nodes", 1, 64);
    if (auto g = v["gpus_per_node"]) layout.gpus_per_node = whole(g, "numa.gpus_per_node", 1, 1024);
    spec.numa = field(layout, v);
  }
  if (auto v = root["workload"]) {
    const auto w = text(v, "workload");
    if (w != "train" && w != "infer") fail(v, "workload", fmt::format("expected train or infer, got '{}'", w));
    spec.workload = field(w == "train" ? Workload::train : Workload::infer, v);
  }
  if (auto v = root["nics"]) {
    check_keys(v, "nics", {"count", "min_rate_gbit_s"});
    NicRequirement nics;
    if (!v["count"]) fail(v, "nics.count", "required");
    nics.count = whole(v["count"], "nics.count", 0, 1024);
    if (auto r = v["min_rate_gbit_s"]) nics.min_rate_gbit_s = number(r, "nics.min_rate_gbit_s", 1e-3, 1e5, "Gb/s above 0");
    spec.nics = field(nics, v);
  }
  if (auto v = root["bandwidth"]) {
    check_keys(v, "bandwidth", {"h2d_gbps", "p2p_gbps"});
    if (auto f = v["h2d_gbps"]) spec.h2d_gbps = field(floor_value(f, "bandwidth.h2d_gbps"), f);
    if (auto f = v["p2p_gbps"]) spec.p2p_gbps = field(floor_value(f, "bandwidth.p2p_gbps"), f);
  }
  if (auto v = root["vram"]) {
    check_keys(v, "vram", {"min_fraction"});
    const auto f = v["min_fraction"];
    spec.vram_min_fraction = f ? field(number(f, "vram.min_fraction", 1e-6, 1, "a fraction in (0, 1]"), f)
                               : Field<double>{0.95, line_of(v), "default"};
  }
  if (auto v = root["collectives"]) parse_collectives(v, spec);
  if (auto v = root["burnin"]) parse_burnin(v, spec);
}

}  // namespace

std::string_view to_string(Workload workload) { return workload == Workload::train ? "train" : "infer"; }

core::Result<Spec> parse_spec(std::string_view yaml_text, const std::string& file_name, const core::Catalog& catalog) {
  Spec spec;
  spec.file_name = file_name;
  try {
    check_text(yaml_text);
    const std::string text(yaml_text);
    if (const auto line = second_document_line(text)) {
      // Without a `---` line, yaml-cpp saw documents in what is only broken text (a stray ",").
      const bool separator = text.rfind("---", 0) == 0 || text.find("\n---") != std::string::npos;
      throw SpecError{separator ? fmt::format("line {}: a second YAML document: a spec is one document (remove the `---` "
                                              "and what follows, or split it into two files)",
                                              *line)
                                : fmt::format("line {}: not valid YAML (text outside any key, such as a stray `,`)", *line)};
    }
    const YAML::Node root = YAML::Load(text);
    reject_duplicate_keys(root, "");
    parse_document(root, spec, catalog);
  } catch (const SpecError& e) {
    return core::input_error(file_name + ": " + e.message);
  } catch (const YAML::Exception& e) {
    return core::input_error(fmt::format("{}: line {}: not valid YAML: {}", file_name, e.mark.line + 1, e.msg));
  }
  apply_defaults(spec, catalog);
  return spec;
}

}  // namespace gpuvet::spec
