// The GPU model against the one the buyer says was sold (--expect-model): an H800 delivered for
// an H100 order fails, naming the GPUs and both models. Silent without that expectation; a GPU
// whose name is not reported is left to unverified_expectations (the verdict is then incomplete).
#include <map>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "analysis/finding_codes.hpp"
#include "analysis/rules.hpp"

namespace gpuvet::analysis {

std::vector<core::Finding> check_model_claim(const RuleContext& ctx) {
  if (!ctx.expect.model_id) return {};
  const core::GpuModel* sold = ctx.catalog.by_id(*ctx.expect.model_id);
  const std::string sold_name = sold != nullptr ? sold->display_name : *ctx.expect.model_id;
  // Delivered model label -> GPUs. A reported name that no catalogue pattern matches cannot be the
  // model sold (its patterns would have matched), so it counts as another model under its own name.
  std::map<std::string, std::vector<int>> others;
  for (size_t p = 0; p < ctx.machine.gpus.size(); ++p) {
    const auto& gpu = ctx.machine.gpus[p];
    const core::GpuModel* model = p < ctx.models.size() ? ctx.models[p] : nullptr;
    if (model != nullptr && sold != nullptr && model->id == sold->id) continue;
    if (model == nullptr && !gpu.name) continue;  // unknown: unverified, not failed
    others[model_label(gpu, model)].push_back(gpu.index);
  }
  std::vector<core::Finding> out;
  for (const auto& [label, gpus] : others) {
    auto f = make_finding(code::model_not_as_claimed, core::Severity::fail, gpus,
                          fmt::format("{} {} {}, not the {} that was sold (--expect-model)", describe_gpus(gpus),
                                      gpus.size() == 1 ? "is" : "are", label, sold_name));
    f.evidence = {{"expected_model", sold_name}, {"found_model", label}, {"gpus", fmt::format("{}", gpus.size())}};
    out.push_back(std::move(f));
  }
  return out;
}

}  // namespace gpuvet::analysis
