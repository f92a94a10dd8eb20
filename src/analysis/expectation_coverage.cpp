// Which of the user's stated expectations the machine picture cannot decide. Those make the
// verdict incomplete instead of letting an unchecked promise pass (fail-closed).
#include <fmt/format.h>

#include "analysis/rules.hpp"

namespace gpuvet::analysis {

std::vector<std::string> unverified_expectations(const RuleContext& ctx) {
  std::vector<std::string> out;
  const auto& m = ctx.machine;
  if (ctx.expect.interconnect && ctx.interconnect.cls == core::InterconnectClass::unknown) {
    out.push_back(fmt::format("--expect {}: the interconnect class could not be determined ({})",
                              core::to_string(*ctx.expect.interconnect), ctx.interconnect.reasoning));
  } else if (ctx.expect.interconnect && ctx.interconnect.inferred) {
    out.push_back(fmt::format("--expect {}: the interconnect is only inferred ({})",
                              core::to_string(*ctx.expect.interconnect), ctx.interconnect.reasoning));
  }
  if (ctx.expect.gpu_count && input_trimmed(m)) {
    out.push_back(fmt::format("--expect-gpus {}: the input was trimmed and does not list every GPU",
                              *ctx.expect.gpu_count));
  }
  if (ctx.expect.memory_gib) {
    for (const auto& gpu : m.gpus) {
      if (!gpu.memory_total_mib) {
        out.push_back(fmt::format("--expect-memory {}: GPU {} memory not reported ({})", *ctx.expect.memory_gib,
                                  gpu.index, gpu.memory_total_mib.reason()));
        break;
      }
    }
    if (m.gpus.empty()) out.push_back("--expect-memory: no GPU reported");
  }
  if (ctx.expect.workload) {
    for (size_t p = 0; p < m.gpus.size(); ++p) {
      if (p >= ctx.models.size() || ctx.models[p] == nullptr) {
        out.push_back(fmt::format("--workload {}: GPU {} model {} (card class unknown)", *ctx.expect.workload,
                                  m.gpus[p].index,
                                  m.gpus[p].name ? "\"" + *m.gpus[p].name + "\" is not in the catalogue"
                                                 : "not reported"));
        break;
      }
    }
  }
  if (ctx.expect.model_id) {
    for (const auto& gpu : m.gpus) {
      if (!gpu.name) {
        out.push_back(fmt::format("--expect-model {}: GPU {} name not reported ({})", *ctx.expect.model_id, gpu.index,
                                  gpu.name.reason()));
        break;
      }
    }
    if (m.gpus.empty()) out.push_back("--expect-model: no GPU reported");
    if (input_trimmed(m)) out.push_back("--expect-model: the input was trimmed and does not list every GPU");
  }
  if (ctx.expect.same_batch) {
    const auto unreported = [&](const char* what, auto reading_of) {
      for (const auto& gpu : m.gpus) {
        const auto& reading = reading_of(gpu);
        if (!reading) {
          out.push_back(fmt::format("--expect-same-batch: {} of GPU {} not reported ({})", what, gpu.index,
                                    reading.reason()));
          return;
        }
      }
    };
    unreported("VBIOS", [](const core::Gpu& g) -> const auto& { return g.vbios; });
    unreported("board part number", [](const core::Gpu& g) -> const auto& { return g.board_part_number; });
    unreported("memory size", [](const core::Gpu& g) -> const auto& { return g.memory_total_mib; });
    if (m.gpus.empty()) out.push_back("--expect-same-batch: no GPU reported");
    if (input_trimmed(m)) out.push_back("--expect-same-batch: the input was trimmed and does not list every GPU");
  }
  return out;
}

}  // namespace gpuvet::analysis
