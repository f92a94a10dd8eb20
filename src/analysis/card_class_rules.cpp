// Card class against the workload: inference/consumer/workstation cards rented for training
// (fail: the workload was stated), training cards rented for inference, and classes mixed in one
// machine (warn: nothing was stated about them).
#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "analysis/finding_codes.hpp"
#include "analysis/rules.hpp"

namespace gpuvet::analysis {

std::vector<core::Finding> check_card_class(const RuleContext& ctx) {
  std::vector<core::Finding> out;
  const auto& gpus = ctx.machine.gpus;
  // GPUs per class, in CardClass order, for GPUs whose model is known.
  std::vector<std::pair<core::CardClass, std::vector<int>>> classes;
  std::vector<std::string> labels;
  for (size_t p = 0; p < gpus.size(); ++p) {
    const core::GpuModel* model = ctx.models[p];
    if (model == nullptr) continue;
    auto it = std::find_if(classes.begin(), classes.end(), [&](const auto& c) { return c.first == model->card_class; });
    if (it == classes.end()) {
      classes.push_back({model->card_class, {gpus[p].index}});
      labels.push_back(model->display_name);
    } else {
      it->second.push_back(gpus[p].index);
    }
  }
  const std::string workload = ctx.expect.workload.value_or("");
  for (size_t i = 0; i < classes.size(); ++i) {
    const auto& [cls, members] = classes[i];
    const std::string cls_name(core::to_string(cls));
    if (workload == "train" && cls != core::CardClass::training) {
      auto f = make_finding(code::card_class_mismatch, core::Severity::fail, members,
                            fmt::format("{} {} {} ({} card{}) rented for training", describe_gpus(members),
                                        members.size() == 1 ? "is" : "are", labels[i], cls_name,
                                        members.size() == 1 ? "" : "s"));
      f.evidence = {{"card_class", cls_name}, {"workload", workload}};
      out.push_back(std::move(f));
    } else if (workload == "infer" && cls == core::CardClass::training) {
      auto f = make_finding(code::card_class_mismatch, core::Severity::info, members,
                            fmt::format("{} {} training cards ({}) rented for inference: it works, but NVLink and "
                                        "FP64 are paid for and unused",
                                        describe_gpus(members), members.size() == 1 ? "is" : "are", labels[i]));
      f.evidence = {{"card_class", cls_name}, {"workload", workload}};
      f.next_step = "If the workload is inference only, an offer of inference cards (L40S, L4, H20 class) may cost "
                    "less for the same throughput.";
      out.push_back(std::move(f));
    }
  }
  if (classes.size() >= 2) {
    std::vector<int> minority;
    std::vector<std::string> parts;
    // Name the minority; on a tie for the largest group, name everyone.
    size_t largest = 0;
    bool tie = false;
    for (size_t i = 1; i < classes.size(); ++i) {
      if (classes[i].second.size() > classes[largest].second.size()) {
        largest = i;
        tie = false;
      } else if (classes[i].second.size() == classes[largest].second.size()) {
        tie = true;
      }
    }
    for (size_t i = 0; i < classes.size(); ++i) {
      parts.push_back(fmt::format("{} {}", describe_gpus(classes[i].second), core::to_string(classes[i].first)));
      if (tie || i != largest) minority.insert(minority.end(), classes[i].second.begin(), classes[i].second.end());
    }
    auto f = make_finding(code::card_class_mismatch, core::Severity::warn, minority,
                          fmt::format("Card classes are mixed in one machine: {}", fmt::join(parts, "; ")));
    for (const auto& [cls, members] : classes) {
      f.evidence.emplace_back(fmt::format("card_class {}", describe_gpus(members)), std::string(core::to_string(cls)));
    }
    out.push_back(std::move(f));
  }
  return out;
}

}  // namespace gpuvet::analysis
