// A transformer as the planner sees it (plan/): the architecture numbers that set parameters,
// FLOPs, activations and KV cache, where each came from, and the derived counts. Pure.
#pragma once

#include <string>
#include <vector>

namespace gpuvet::plan {

struct ModelSpec {
  std::string name;            // "llama-3-70b", a config.json path, or "70e9 parameters"
  std::string source;          // where the architecture numbers come from
  int layers = 0;
  int hidden = 0;
  int heads = 0;
  int kv_heads = 0;
  int head_dim = 0;            // hidden / heads unless the config says otherwise
  int intermediate = 0;        // dense MLP width (gated: 3 matrices)
  int vocab = 0;
  bool tied_embeddings = false;
  // Mixture of experts (0 experts = dense). The first `dense_layers` layers keep a dense MLP.
  int experts = 0;
  int experts_per_token = 0;
  int shared_experts = 0;
  int moe_intermediate = 0;
  int dense_layers = 0;
  // Multi-head latent attention (DeepSeek-V2/V3); kv_lora_rank 0 = ordinary (GQA/MHA) attention.
  int q_lora_rank = 0;
  int kv_lora_rank = 0;
  int qk_nope_head_dim = 0;
  int qk_rope_head_dim = 0;
  int v_head_dim = 0;
  // With --params only: the parameter count given, and which numbers were estimated from it.
  double stated_params = 0;
  std::vector<std::string> estimated;  // field names filled in by estimate, e.g. "layers"

  [[nodiscard]] bool moe() const { return experts > 0; }
  [[nodiscard]] bool mla() const { return kv_lora_rank > 0; }
  // Layers whose MLP is a mixture of experts (0 for a dense model).
  [[nodiscard]] int moe_layers() const { return moe() ? layers - dense_layers : 0; }
};

struct ParamCounts {
  double total = 0;       // every weight (all experts)
  double active = 0;      // weights one token passes through (routed top-k + shared)
  double routed_experts = 0;  // the routed experts' weights, all MoE layers (split by expert parallelism)
  double embedding = 0;   // input embedding (+ output head when untied)
  double largest_layer = 0;  // the largest single weight matrix (DeepSpeed's ZeRO-3 estimate)
};

// From the architecture; with stated_params set (and no architecture), total = active = stated.
ParamCounts count_params(const ModelSpec& m);

// Attention parameters of one layer (q, k, v, o; MLA's low-rank projections).
double attention_params_per_layer(const ModelSpec& m);

// KV cache bytes per token of one tensor-parallel rank, as vLLM allocates it
// (vllm/v1/kv_cache_interface.py page_size_bytes): 2 (K and V; 1 for MLA's latent) x layers x
// max(1, kv_heads / tp) x head_dim x dtype bytes; MLA caches kv_lora_rank + rope dims once.
double kv_bytes_per_token_per_gpu(const ModelSpec& m, int tp, double dtype_bytes);

// Most parameters gpuvet plans for (a quadrillion: 2,000x the largest published model); callers
// refuse more before estimating.
inline constexpr double kMaxParams = 1e15;

// A Llama-shaped architecture for `params` total parameters (every field listed in estimated):
// hidden from the nearest published dense model, layers to match the count, GQA with 8 KV heads.
// `params` is clamped to 1..kMaxParams for the layer count, so every conversion stays in range.
ModelSpec estimate_from_params(double params);

}  // namespace gpuvet::plan
