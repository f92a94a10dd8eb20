// Offers from a YAML file, and what an acceptance bundle measured.
#include "plan/offer.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <map>
#include <set>

#include <fmt/format.h>

#include "core/text_safety.hpp"

namespace gpuvet::plan {

namespace {

const std::set<std::string> kOfferKeys = {"name", "gpu", "gpus_per_node", "nodes", "interconnect", "nvlink_island",
                                          "nics", "price_per_gpu_hour", "price_per_machine_hour", "currency", "mfu",
                                          "bundle"};

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
  return out;
}

// Field errors carry the path and line; the caller prefixes the file name.
struct FieldError {
  std::string text;
};

std::string where(const std::string& path, const YAML::Node& node) {
  return fmt::format("{} (line {})", path, node.Mark().line + 1);
}

double number(const YAML::Node& node, const std::string& path, double lo, double hi) {
  double v = 0;
  try {
    v = node.as<double>();
  } catch (const YAML::Exception&) {
    throw FieldError{fmt::format("{}: expected a number, found '{}'", where(path, node), node.Scalar())};
  }
  if (!std::isfinite(v)) throw FieldError{fmt::format("{}: expected a finite number", where(path, node))};
  if (v < lo) {
    throw FieldError{lo == 0 ? fmt::format("{}: must not be negative, found {:g}", where(path, node), v)
                             : fmt::format("{}: must be at least {:g}, found {:g}", where(path, node), lo, v)};
  }
  if (v > hi) throw FieldError{fmt::format("{}: must be at most {:g}, found {:g}", where(path, node), hi, v)};
  return v;
}

int integer(const YAML::Node& node, const std::string& path, int lo, int hi) {
  const double v = number(node, path, lo, hi);
  if (v != std::floor(v)) throw FieldError{fmt::format("{}: expected a whole number, found {:g}", where(path, node), v)};
  return static_cast<int>(v);
}

// yaml-cpp keeps every pair of a mapping and `node[key]` finds the first: a key written twice
// (a second price_per_gpu_hour pasted under the first) would be dropped without a word, as the
// spec parser refuses too. Bounded by the nesting checks in parse_offers.
void reject_duplicate_keys(const YAML::Node& node, const std::string& path) {
  if (node.IsSequence()) {
    for (std::size_t i = 0; i < node.size(); ++i) reject_duplicate_keys(node[i], fmt::format("{}[{}]", path, i));
    return;
  }
  if (!node.IsMap()) return;
  std::map<std::string, int> seen;
  for (const auto& entry : node) {
    const std::string key = entry.first.IsScalar() ? entry.first.Scalar() : "(not a scalar)";
    const std::string at = path.empty() ? key : path + "." + key;
    if (const auto first = seen.find(key); first != seen.end()) {
      throw FieldError{fmt::format("{}: written twice (first on line {}): an offer states each field once", where(at, entry.first),
                                   first->second)};
    }
    seen.emplace(key, entry.first.Mark().line + 1);
    reject_duplicate_keys(entry.second, at);
  }
}

// What no offers file needs and a recursive parser must not see: nesting deep enough to exhaust
// the stack (flow brackets, or block indentation).
void check_nesting(std::string_view text) {
  if (core::bracket_depth(text) > core::kMaxNestingDepth) {
    throw FieldError{fmt::format("line 1: brackets nested deeper than {} levels", core::kMaxNestingDepth)};
  }
  constexpr std::size_t kMaxIndent = 256;
  std::size_t line = 1, indent = 0;
  bool at_start = true;
  for (const char c : text) {
    if (c == '\n') {
      ++line;
      indent = 0;
      at_start = true;
    } else if (at_start && (c == ' ' || c == '\t')) {
      if (++indent > kMaxIndent) throw FieldError{fmt::format("line {}: indented deeper than {} columns", line, kMaxIndent)};
    } else {
      at_start = false;
    }
  }
}

Offer parse_one(const YAML::Node& node, const std::string& path, const core::Catalog& catalog) {
  if (!node.IsMap()) throw FieldError{where(path, node) + ": expected a mapping (name: ..., gpu: ...)"};
  for (const auto& kv : node) {
    const auto key = kv.first.as<std::string>();
    if (kOfferKeys.count(key) == 0) {
      throw FieldError{fmt::format("{}.{}: unknown field (known: name, gpu, gpus_per_node, nodes, interconnect, "
                                   "nvlink_island, nics, price_per_gpu_hour, price_per_machine_hour, currency, mfu, bundle)",
                                   path, key)};
    }
  }
  Offer o;
  if (!node["name"]) throw FieldError{path + ".name: missing"};
  o.name = node["name"].as<std::string>();
  if (!node["gpu"]) throw FieldError{path + ".gpu: missing (a catalogue id such as h100-sxm5-80gb)"};
  const auto gpu = node["gpu"].as<std::string>();
  const core::GpuModel* model = find_gpu(catalog, gpu);
  if (model == nullptr) {
    throw FieldError{fmt::format("{}: unknown GPU model '{}' (gpuvet's catalogue ids: see profiles/gpus.yaml, "
                                 "e.g. h100-sxm5-80gb, a100-sxm4-80gb, l40s-48gb)",
                                 where(path + ".gpu", node["gpu"]), gpu)};
  }
  o.gpu = *model;
  if (node["gpus_per_node"]) o.gpus_per_node = integer(node["gpus_per_node"], path + ".gpus_per_node", 1, 64);
  if (node["nodes"]) o.nodes = integer(node["nodes"], path + ".nodes", 1, 100000);
  if (node["interconnect"]) {
    bool any_mesh = false;
    const auto text = node["interconnect"].as<std::string>();
    if (!core::parse_interconnect_claim(text, o.interconnect, any_mesh)) {
      throw FieldError{fmt::format("{}: unknown interconnect '{}' (nvswitch, nvlink, pcie, or a class name such as "
                                   "nvlink_partial)",
                                   where(path + ".interconnect", node["interconnect"]), text)};
    }
    if (any_mesh) o.interconnect = core::InterconnectClass::nvlink_direct_full_mesh;
  } else {
    o.interconnect = o.gpu.form_factor == "sxm" ? core::InterconnectClass::nvswitch_full_mesh
                                                : core::InterconnectClass::pcie_only;
  }
  if (node["nvlink_island"]) o.nvlink_island = integer(node["nvlink_island"], path + ".nvlink_island", 1, o.gpus_per_node);
  if (const auto nics = node["nics"]) {
    if (!nics.IsMap()) throw FieldError{where(path + ".nics", nics) + ": expected {count: N, gbit_s: R}"};
    if (nics["count"]) o.nics_per_node = integer(nics["count"], path + ".nics.count", 0, 64);
    if (nics["gbit_s"]) o.nic_gbit_s = number(nics["gbit_s"], path + ".nics.gbit_s", 0, 3200);
  }
  if (o.nodes > 1 && (o.nics_per_node == 0 || o.nic_gbit_s <= 0)) {
    throw FieldError{fmt::format("{}.nics: needed when nodes > 1 ({} nodes): the NICs carry every byte between the nodes, "
                                 "e.g. nics: {{count: 8, gbit_s: 400}}",
                                 path, o.nodes)};
  }
  if (node["price_per_gpu_hour"]) {
    o.price_per_gpu_hour = number(node["price_per_gpu_hour"], path + ".price_per_gpu_hour", 0, kMaxPricePerGpuHour);
  }
  if (node["price_per_machine_hour"]) {
    o.price_per_machine_hour = number(node["price_per_machine_hour"], path + ".price_per_machine_hour", 0, kMaxPricePerMachineHour);
  }
  if (o.price_per_gpu_hour && o.price_per_machine_hour) {
    throw FieldError{path + ": give price_per_gpu_hour or price_per_machine_hour, not both"};
  }
  if (node["currency"]) {
    const auto c = node["currency"].as<std::string>();
    if (c.empty() || c.size() > 8 || !std::all_of(c.begin(), c.end(), [](unsigned char ch) { return std::isalpha(ch); })) {
      throw FieldError{fmt::format("{}: expected a currency label such as USD or EUR, found '{}'",
                                   where(path + ".currency", node["currency"]), c)};
    }
    o.currency = c;
  }
  if (node["mfu"]) o.mfu = number(node["mfu"], path + ".mfu", 0.01, 1.0);
  if (node["bundle"]) o.bundle = node["bundle"].as<std::string>();
  return o;
}

}  // namespace

std::optional<double> Offer::gpu_hour_price() const {
  if (price_per_gpu_hour) return price_per_gpu_hour;
  if (price_per_machine_hour) return *price_per_machine_hour / gpus_per_node;
  return std::nullopt;
}

core::Result<Price> parse_price(std::string_view text) {
  const auto bad = [&](std::string_view why) {
    return core::usage_error(fmt::format("{}: {} (expected AMOUNT/gpu-h or AMOUNT/machine-h, e.g. 2.49/gpu-h, "
                                         "19.92/machine-h, EUR 2.49/gpu-h)", text, why));
  };
  Price p;
  std::string_view amount = text;
  if (const auto slash = text.rfind('/'); slash != std::string_view::npos) {
    const std::string unit = lower(text.substr(slash + 1));
    if (unit == "gpu-h" || unit == "gpu-hour" || unit == "gpuh") {
      p.per_machine = false;
    } else if (unit == "machine-h" || unit == "machine-hour" || unit == "node-h") {
      p.per_machine = true;
    } else {
      return bad(fmt::format("unknown unit '{}'", text.substr(slash + 1)));
    }
    amount = text.substr(0, slash);
  }
  // Currency: a symbol or letters before or after the number, spaces allowed between.
  std::string a(amount);
  std::string currency;
  const auto take_symbol = [&](std::string_view symbol, const char* name) {
    if (a.rfind(symbol, 0) == 0) {
      currency = name;
      a = a.substr(symbol.size());
    }
  };
  take_symbol("$", "USD");
  take_symbol("\xe2\x82\xac", "EUR");  // euro sign, UTF-8
  take_symbol("\xc2\xa3", "GBP");       // pound sign, UTF-8
  std::size_t i = 0;
  while (i < a.size() && std::isalpha(static_cast<unsigned char>(a[i]))) ++i;
  if (i > 0) currency = a.substr(0, i);
  std::size_t j = a.size();
  while (j > i && std::isalpha(static_cast<unsigned char>(a[j - 1]))) --j;
  if (j < a.size()) {
    if (!currency.empty()) return bad("two currencies");
    currency = a.substr(j);
  }
  std::string number = a.substr(i, j - i);
  number.erase(0, number.find_first_not_of(' '));
  number.erase(number.find_last_not_of(' ') + 1);
  // Decimal digits with at most one point: no sign, exponent, hex, inf or nan (std::stod takes
  // "0x10" as 16 and "1e308" as a price that prints as "inf USD").
  if (!number.empty() && number.front() == '-') return bad("a price must not be negative");
  const auto digits = std::count_if(number.begin(), number.end(), [](unsigned char c) { return std::isdigit(c); });
  const auto points = std::count(number.begin(), number.end(), '.');
  if (digits == 0 || points > 1 || static_cast<std::size_t>(digits + points) != number.size()) {
    return bad("not a decimal number (digits with at most one '.')");
  }
  double v = 0;
  const auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), v, std::chars_format::fixed);
  if (ec != std::errc() || end != number.data() + number.size() || !std::isfinite(v)) return bad("not a number");
  if (!(v > 0)) return bad("a price must be more than 0");
  const double ceiling = p.per_machine ? kMaxPricePerMachineHour : kMaxPricePerGpuHour;
  if (v > ceiling) return bad(fmt::format("more than {:g} per {}-hour", ceiling, p.per_machine ? "machine" : "GPU"));
  if (currency.size() > 8) return bad("currency label longer than 8 letters");
  p.amount = v;
  if (!currency.empty()) {
    std::transform(currency.begin(), currency.end(), currency.begin(), [](unsigned char c) { return std::toupper(c); });
    p.currency = currency;
  }
  return p;
}

void apply_price(Offer& offer, const Price& price) {
  offer.price_per_gpu_hour.reset();
  offer.price_per_machine_hour.reset();
  (price.per_machine ? offer.price_per_machine_hour : offer.price_per_gpu_hour) = price.amount;
  offer.currency = price.currency;
}

const core::GpuModel* find_gpu(const core::Catalog& catalog, std::string_view id_or_name) {
  if (const auto* m = catalog.by_id(lower(id_or_name))) return m;
  for (const auto& m : catalog.models()) {
    if (lower(m.display_name) == lower(id_or_name)) return &m;
  }
  return nullptr;
}

core::Result<std::vector<Offer>> parse_offers(std::string_view yaml_text, const std::string& file_name,
                                              const core::Catalog& catalog) {
  try {
    check_nesting(yaml_text);
    const YAML::Node root = YAML::Load(std::string(yaml_text));
    reject_duplicate_keys(root, "");
    const YAML::Node list = root["offers"];
    if (!list || !list.IsSequence() || list.size() == 0) {
      return core::input_error(file_name + ": expected a top-level 'offers:' list with at least one offer");
    }
    std::vector<Offer> out;
    std::set<std::string> names;
    for (std::size_t i = 0; i < list.size(); ++i) {
      const std::string path = fmt::format("offers[{}]", i);
      Offer o = parse_one(list[i], path, catalog);
      if (!names.insert(o.name).second) throw FieldError{fmt::format("{}.name: duplicate offer name '{}'", path, o.name)};
      o.source = fmt::format("{}: {}", file_name, path);
      out.push_back(std::move(o));
    }
    return out;
  } catch (const FieldError& e) {
    return core::input_error(file_name + ": " + e.text);
  } catch (const YAML::Exception& e) {
    return core::input_error(file_name + ": " + e.what());
  }
}

}  // namespace gpuvet::plan
