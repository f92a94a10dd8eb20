// Parameter counts and KV-cache size from a model's architecture numbers.
#include "plan/model.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace gpuvet::plan {

namespace {

double mlp_params(double hidden, double width) { return 3.0 * hidden * width; }  // gate, up, down

}  // namespace

double attention_params_per_layer(const ModelSpec& m) {
  const double h = m.hidden;
  if (m.mla()) {
    const double qk = static_cast<double>(m.qk_nope_head_dim + m.qk_rope_head_dim);
    const double q = m.q_lora_rank > 0 ? h * m.q_lora_rank + static_cast<double>(m.q_lora_rank) * m.heads * qk
                                       : h * m.heads * qk;
    const double kv = h * (m.kv_lora_rank + m.qk_rope_head_dim) +
                      static_cast<double>(m.kv_lora_rank) * m.heads * (m.qk_nope_head_dim + m.v_head_dim);
    const double o = static_cast<double>(m.heads) * m.v_head_dim * h;
    return q + kv + o;
  }
  const double q_width = static_cast<double>(m.heads) * m.head_dim;
  const double kv_width = static_cast<double>(m.kv_heads) * m.head_dim;
  return h * q_width * 2 + h * kv_width * 2;
}

ParamCounts count_params(const ModelSpec& m) {
  ParamCounts c;
  if (m.layers <= 0 || m.hidden <= 0) {
    c.total = c.active = m.stated_params;
    return c;
  }
  const double h = m.hidden;
  c.embedding = static_cast<double>(m.vocab) * h * (m.tied_embeddings ? 1 : 2);
  const double attn = attention_params_per_layer(m);
  const double norms = 2 * h;
  const double dense_mlp = mlp_params(h, m.intermediate);
  double total = c.embedding + h;  // + final norm
  double active = total;
  for (int layer = 0; layer < m.layers; ++layer) {
    total += attn + norms;
    active += attn + norms;
    if (!m.moe() || layer < m.dense_layers) {
      total += dense_mlp;
      active += dense_mlp;
      continue;
    }
    const double expert = mlp_params(h, m.moe_intermediate);
    const double router = h * m.experts;
    total += expert * (m.experts + m.shared_experts) + router;
    c.routed_experts += expert * m.experts;
    active += expert * (m.experts_per_token + m.shared_experts) + router;
  }
  c.total = total;
  c.active = active;
  if (m.stated_params > 0) {  // --params: the count given is the truth (and the architecture is dense)
    c.total = c.active = m.stated_params;
    c.routed_experts = 0;
  }
  c.largest_layer = std::max({static_cast<double>(m.vocab) * h, dense_mlp / 3, attn / 2});
  return c;
}

double kv_bytes_per_token_per_gpu(const ModelSpec& m, int tp, double dtype_bytes) {
  if (m.mla()) {
    // MLA caches one latent vector per token per layer, replicated on every TP rank (vLLM).
    return static_cast<double>(m.layers) * (m.kv_lora_rank + m.qk_rope_head_dim) * dtype_bytes;
  }
  const int heads = std::max(1, m.kv_heads / std::max(1, tp));
  return 2.0 * m.layers * heads * m.head_dim * dtype_bytes;
}

ModelSpec estimate_from_params(double params) {
  // Llama-shaped widths of published dense models (Llama 2/3 config.json files).
  struct Shape {
    double params;
    int hidden;
  };
  static constexpr Shape kShapes[] = {{1.2e9, 2048}, {3.2e9, 3072}, {8e9, 4096},
                                      {13e9, 5120}, {70e9, 8192}, {405e9, 16384}};
  const Shape* best = &kShapes[0];
  for (const auto& s : kShapes) {
    if (std::abs(std::log(params / s.params)) < std::abs(std::log(params / best->params))) best = &s;
  }
  ModelSpec m;
  m.name = fmt::format("{:g}B parameters", params / 1e9);
  m.stated_params = params;
  m.hidden = best->hidden;
  m.heads = best->hidden / 128;
  m.head_dim = 128;
  m.kv_heads = std::min(8, m.heads);
  m.intermediate = static_cast<int>(std::lround(best->hidden * 3.5 / 256.0)) * 256;
  m.vocab = 128256;
  ModelSpec one = m;
  one.layers = 1;
  const double embed = 2.0 * m.vocab * m.hidden;
  const double per_layer = count_params(one).total - embed - m.hidden;
  const double layers = std::clamp((std::min(params, kMaxParams) - embed) / per_layer, 1.0, 1e7);
  m.layers = static_cast<int>(std::lround(layers));
  m.source = "estimated from the parameter count: Llama-3-shaped (hidden from the nearest published dense model, "
             "head_dim 128, 8 KV heads, MLP 3.5 x hidden, 128256-token vocabulary), layers to match the count";
  m.estimated = {"layers", "hidden", "heads", "kv_heads", "head_dim", "intermediate", "vocab"};
  return m;
}

}  // namespace gpuvet::plan
