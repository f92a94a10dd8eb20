// Where a model comes from (plan/): a named preset (profiles/models.yaml, embedded), a Hugging
// Face config.json, or a bare parameter count (model.hpp estimate_from_params). Pure: text in.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/error.hpp"
#include "plan/model.hpp"

namespace gpuvet::plan {

// The embedded presets (profiles/models.yaml), parsed once; validated by tests/plan.
const std::vector<ModelSpec>& model_presets();
// The preset named `name` (case-insensitive), or nullptr.
const ModelSpec* find_preset(std::string_view name);

// Presets in the models.yaml schema. Errors (bad_input) name the file, the entry and the field.
core::Result<std::vector<ModelSpec>> parse_model_presets(std::string_view yaml_text, const std::string& file_name);

// A Hugging Face config.json: num_hidden_layers, hidden_size, num_attention_heads, intermediate_size
// and vocab_size are required; num_key_value_heads (default: heads), head_dim, tie_word_embeddings,
// experts (num_local_experts | n_routed_experts | num_experts), num_experts_per_tok,
// n_shared_experts, moe_intermediate_size, first_k_dense_replace and the MLA ranks are read when
// present. Errors (bad_input) name the file and the field: "config.json: hidden_size: missing".
core::Result<ModelSpec> parse_hf_config(std::string_view json_text, const std::string& file_name);

}  // namespace gpuvet::plan
