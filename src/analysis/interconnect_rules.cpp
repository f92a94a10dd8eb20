// Interconnect findings: the class itself (always, as info) and a mismatch with the claim.
#include <fmt/format.h>

#include "analysis/finding_codes.hpp"
#include "analysis/rules.hpp"

namespace gpuvet::analysis {
namespace {

std::string_view class_words(core::InterconnectClass cls) {
  switch (cls) {
    case core::InterconnectClass::nvswitch_full_mesh: return "an NVSwitch full mesh";
    case core::InterconnectClass::nvlink_direct_full_mesh: return "a direct NVLink full mesh";
    case core::InterconnectClass::nvlink_partial: return "partial NVLink (not every GPU pair)";
    case core::InterconnectClass::pcie_only: return "PCIe only";
    case core::InterconnectClass::unknown: return "unknown";
  }
  return "unknown";
}

std::vector<int> all_gpu_indices(const RuleContext& ctx) {
  std::vector<int> out;
  for (const auto& gpu : ctx.machine.gpus) out.push_back(gpu.index);
  if (out.empty() && ctx.machine.links) {
    for (int i = 0; i < ctx.machine.links->size(); ++i) out.push_back(i);
  }
  return out;
}

}  // namespace

std::vector<core::Finding> check_interconnect(const RuleContext& ctx) {
  std::vector<core::Finding> out;
  const bool any_gpu = !ctx.machine.gpus.empty() || (ctx.machine.links && ctx.machine.links->size() > 0);
  if (!any_gpu) return out;
  const core::InterconnectSummary& ic = ctx.interconnect;
  auto cls_finding = make_finding(code::interconnect_class, core::Severity::info, all_gpu_indices(ctx), ic.headline);
  cls_finding.evidence = {
      {"class", std::string(core::to_string(ic.cls))},
      {"reasoning", ic.reasoning},
      {"gpu_bandwidth_gbps",
       ic.gpu_bandwidth_gbps ? format_gbps(*ic.gpu_bandwidth_gbps) : "n/a: " + ic.gpu_bandwidth_gbps.reason()},
  };
  out.push_back(std::move(cls_finding));

  // An unknown class cannot be compared with the claim; interconnect_class says what was missing.
  const auto& expected = ctx.expect.interconnect;
  // Neither can an inferred one: the claim stays unverified (expectation_coverage.cpp).
  if (!expected || ic.cls == core::InterconnectClass::unknown || ic.inferred) return out;
  const bool full_mesh = ic.cls == core::InterconnectClass::nvswitch_full_mesh ||
                         ic.cls == core::InterconnectClass::nvlink_direct_full_mesh;
  const bool ok = ctx.expect.interconnect_any_nvlink_mesh ? full_mesh : ic.cls == *expected;
  if (ok) return out;
  const std::string claim = ctx.expect.interconnect_any_nvlink_mesh ? std::string("an NVLink full mesh")
                                                                     : std::string(class_words(*expected));
  auto f = make_finding(code::interconnect_not_as_claimed, core::Severity::fail, all_gpu_indices(ctx),
                        fmt::format("Expected {}, found {}: {}", claim, class_words(ic.cls), ic.headline));
  f.evidence = {
      {"expected", ctx.expect.interconnect_any_nvlink_mesh ? std::string("nvlink (any full mesh)")
                                                           : std::string(core::to_string(*expected))},
      {"found", std::string(core::to_string(ic.cls))},
      {"reasoning", ic.reasoning},
  };
  out.push_back(std::move(f));
  return out;
}

}  // namespace gpuvet::analysis
