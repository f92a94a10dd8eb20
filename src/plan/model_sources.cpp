// Model presets (profiles/models.yaml) and Hugging Face config.json files -> ModelSpec. Both go
// through one reader of config.json keys, so a preset and the config it cites read alike.
#include "plan/model_sources.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <nlohmann/json.hpp>
#include <utility>

#include <fmt/format.h>

#include "core/text_safety.hpp"

namespace gpuvet::plan {

namespace data {
const std::vector<std::pair<std::string_view, std::string_view>>& embedded_files();
}  // namespace data

namespace {

using nlohmann::json;

struct FieldError {
  std::string text;
};

int positive(const json& obj, const std::string& key, bool required, int fallback, const std::string& why) {
  if (!obj.contains(key) || obj[key].is_null()) {
    if (required) throw FieldError{fmt::format("{}: missing ({})", key, why)};
    return fallback;
  }
  const json& v = obj[key];
  if (!v.is_number_integer() || v.get<long long>() < 0 || v.get<long long>() > 100'000'000) {
    throw FieldError{fmt::format("{}: expected a non-negative whole number, found {}", key, v.dump())};
  }
  if (required && v.get<long long>() == 0) throw FieldError{key + ": must be positive, found 0"};
  return static_cast<int>(v.get<long long>());
}

ModelSpec from_fields(const json& c, std::string name, std::string source) {
  if (!c.is_object()) throw FieldError{"expected a JSON object of config keys"};
  ModelSpec m;
  m.name = std::move(name);
  m.source = std::move(source);
  m.layers = positive(c, "num_hidden_layers", true, 0, "the number of transformer layers");
  m.hidden = positive(c, "hidden_size", true, 0, "the model width");
  m.heads = positive(c, "num_attention_heads", true, 0, "attention heads");
  m.kv_heads = positive(c, "num_key_value_heads", false, m.heads, "");
  if (m.kv_heads == 0 || m.kv_heads > m.heads) {
    throw FieldError{fmt::format("num_key_value_heads: must be 1..num_attention_heads ({}), found {}", m.heads, m.kv_heads)};
  }
  if (m.heads % m.kv_heads != 0) {
    throw FieldError{fmt::format("num_key_value_heads ({}) must divide num_attention_heads ({}): each KV head serves a "
                                 "whole group of query heads",
                                 m.kv_heads, m.heads)};
  }
  // head_dim 0 would make attention and the KV cache free: a plan that fits any context.
  if (!c.contains("head_dim") || c["head_dim"].is_null()) {
    if (m.heads > m.hidden) {
      throw FieldError{fmt::format("num_attention_heads ({}) is more than hidden_size ({}): a head would have 0 dimensions "
                                   "(give head_dim if the model's heads are not hidden_size / num_attention_heads wide)",
                                   m.heads, m.hidden)};
    }
    if (m.hidden % m.heads != 0) {
      throw FieldError{fmt::format("num_attention_heads ({}) does not divide hidden_size ({}) and no head_dim is given",
                                   m.heads, m.hidden)};
    }
  }
  m.head_dim = positive(c, "head_dim", false, m.hidden / m.heads, "");
  if (m.head_dim == 0) throw FieldError{"head_dim: must be positive, found 0"};
  m.intermediate = positive(c, "intermediate_size", true, 0, "the MLP width");
  m.vocab = positive(c, "vocab_size", true, 0, "the vocabulary size");
  if (c.contains("tie_word_embeddings")) {
    if (!c["tie_word_embeddings"].is_boolean()) throw FieldError{"tie_word_embeddings: expected true or false"};
    m.tied_embeddings = c["tie_word_embeddings"].get<bool>();
  }
  for (const char* key : {"num_local_experts", "n_routed_experts", "num_experts"}) {
    if (m.experts == 0) m.experts = positive(c, key, false, 0, "");
  }
  if (m.experts > 0) {
    m.experts_per_token = positive(c, "num_experts_per_tok", true, 0, "routed experts per token of an MoE model");
    if (m.experts_per_token > m.experts) throw FieldError{"num_experts_per_tok: more than the experts"};
    m.shared_experts = positive(c, "n_shared_experts", false, 0, "");
    m.moe_intermediate = positive(c, "moe_intermediate_size", false, m.intermediate, "");
    if (m.moe_intermediate == 0) throw FieldError{"moe_intermediate_size: must be positive, found 0"};
    m.dense_layers = positive(c, "first_k_dense_replace", false, 0, "");
  }
  m.kv_lora_rank = positive(c, "kv_lora_rank", false, 0, "");
  if (m.kv_lora_rank > 0) {
    m.q_lora_rank = positive(c, "q_lora_rank", false, 0, "");
    m.qk_nope_head_dim = positive(c, "qk_nope_head_dim", true, 0, "MLA models");
    m.qk_rope_head_dim = positive(c, "qk_rope_head_dim", true, 0, "MLA models");
    m.v_head_dim = positive(c, "v_head_dim", true, 0, "MLA models");
  }
  return m;
}

json yaml_to_json(const YAML::Node& node) {
  json out = json::object();
  for (const auto& kv : node) {
    const auto key = kv.first.as<std::string>();
    const auto text = kv.second.as<std::string>();
    if (text == "true" || text == "false") {
      out[key] = text == "true";
      continue;
    }
    try {
      std::size_t used = 0;
      const long long v = std::stoll(text, &used);
      out[key] = used == text.size() ? json(v) : json(text);
    } catch (const std::exception&) {
      out[key] = text;
    }
  }
  return out;
}

}  // namespace

core::Result<std::vector<ModelSpec>> parse_model_presets(std::string_view yaml_text, const std::string& file_name) {
  std::vector<ModelSpec> out;
  std::size_t i = 0;
  try {
    const YAML::Node root = YAML::Load(std::string(yaml_text));
    const YAML::Node models = root["models"];
    if (!models || !models.IsSequence()) return core::input_error(file_name + ": expected a top-level 'models:' list");
    for (i = 0; i < models.size(); ++i) {
      const json fields = yaml_to_json(models[i]);
      if (!fields.contains("name") || !fields.contains("source")) throw FieldError{"name and source are required"};
      out.push_back(from_fields(fields, fields["name"].get<std::string>(), fields["source"].get<std::string>()));
    }
  } catch (const FieldError& e) {
    return core::input_error(fmt::format("{}: models[{}].{}", file_name, i, e.text));
  } catch (const std::exception& e) {
    return core::input_error(file_name + ": " + e.what());
  }
  return out;
}

const std::vector<ModelSpec>& model_presets() {
  static const std::vector<ModelSpec> presets = [] {
    for (const auto& [path, text] : data::embedded_files()) {
      if (path == "models.yaml") {
        auto parsed = parse_model_presets(text, "profiles/models.yaml");
        if (parsed) return std::move(parsed).value();
      }
    }
    return std::vector<ModelSpec>();  // unreachable when tests/plan passes
  }();
  return presets;
}

const ModelSpec* find_preset(std::string_view name) {
  std::string key(name);
  std::transform(key.begin(), key.end(), key.begin(), [](unsigned char c) { return std::tolower(c); });
  for (const auto& m : model_presets()) {
    if (m.name == key) return &m;
  }
  return nullptr;
}

core::Result<ModelSpec> parse_hf_config(std::string_view json_text, const std::string& file_name) {
  if (core::bracket_depth(json_text) > core::kMaxNestingDepth) {
    return core::input_error(file_name + ": nested deeper than gpuvet reads");
  }
  const json config = json::parse(json_text, nullptr, false);
  if (config.is_discarded()) return core::input_error(file_name + ": not valid JSON");
  try {
    return from_fields(config, file_name, "Hugging Face config " + file_name);
  } catch (const FieldError& e) {
    return core::input_error(file_name + ": " + e.text);
  }
}

}  // namespace gpuvet::plan
