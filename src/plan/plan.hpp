// gpuvet plan's model: model + job + offers -> per offer the memory per GPU, the layout, time
// per step, communication share, days, cost and throughput, ranked with a reason, plus warnings
// as findings (codes plan_* in analysis/finding_catalog.cpp). Pure; rendered by report/plan_*.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/finding.hpp"
#include "plan/job.hpp"
#include "plan/memory.hpp"
#include "plan/model.hpp"
#include "plan/offer.hpp"
#include "plan/step_time.hpp"

namespace gpuvet::plan {

inline constexpr const char* kPlanSchema = "gpuvet.plan/1";

struct OfferPlan {
  Offer offer;
  double capacity_gib = 0;            // per GPU: measured, else reported by a healthy card, else as sold
  std::string capacity_source;
  bool fits = false;
  Layout layout;                      // the layout the run is planned on
  MemoryBreakdown memory;             // per GPU, of that layout
  std::optional<Layout> smallest_fit; // least sharded layout that fits (none: nothing fits)
  std::optional<int> nodes_to_fit;    // when nothing fits: the fewest such nodes (up to 64) that would
  double peak_tflops = 0;
  std::string peak_source;
  double utilisation = 0;
  std::string utilisation_source;
  double memory_gbps = 0;             // HBM bandwidth used for decode
  StepTime step;
  double tokens_per_step = 0;         // training
  std::optional<InferThroughput> infer;
  std::optional<double> days;
  std::optional<double> gpu_hours;
  std::optional<double> price_per_gpu_hour;
  std::optional<double> cost;
  std::optional<double> cost_per_million_tokens;
  std::vector<core::Finding> findings;
  int rank = 0;                       // 1 = best
  std::string reason;
};

struct Plan {
  ModelSpec model;
  ParamCounts params;
  Job job;
  double kv_bytes_per_token = 0;      // whole model, tp 1, at the job's KV dtype (inference)
  std::vector<OfferPlan> offers;      // ranked, best first
  std::string currency = "USD";       // the label of every price and cost (the priced offers share it)
  std::vector<std::string> assumptions;
};

Plan make_plan(const ModelSpec& model, const Job& job, const std::vector<Offer>& offers);

// Orders plans (fitting first; by cost per run when every fitting offer has a price, else by
// days or, for inference, tokens/s per GPU) and writes rank and reason.
void rank_offers(std::vector<OfferPlan>& plans, Workload workload, const std::string& currency = "USD");

// "2 x 8x H100 SXM5 80GB, NVSwitch full mesh, 8x 400 Gb/s NICs per node"
std::string offer_summary(const Offer& offer);

// Rule-of-thumb warnings for one planned offer (plan_rules.cpp).
std::vector<core::Finding> plan_findings(const Plan& plan, const OfferPlan& offer);

}  // namespace gpuvet::plan
