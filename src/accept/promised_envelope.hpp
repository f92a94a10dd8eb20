// What the machine the spec promises would deliver: the `auto` targets of the bandwidth and
// collectives clauses come from the spec (GPU model, count, PCIe, interconnect), not from the
// machine delivered, so a box of another class cannot pass against its own smaller envelope.
// Pure: spec + catalogue in, numbers and their arithmetic out (analysis/ envelopes).
#pragma once

#include <string>
#include <string_view>

#include "core/gpu_model.hpp"
#include "core/reading.hpp"
#include "spec/spec.hpp"

namespace gpuvet::accept {

// Below these shares of the promised envelope an `auto` clause fails: the fail lines the judge
// uses against a machine's own envelope (analysis/bandwidth_rules.cpp: copies 70 %;
// analysis/collective_rules.cpp: busbw 80 %), so a healthy machine of the promised class passes.
inline constexpr double kPromisedCopyFailShare = 0.70;
inline constexpr double kPromisedBusbwFailShare = 0.80;

struct PromisedEnvelope {
  core::Reading<double> gbps;
  std::string basis;  // "promised H100 SXM5 80GB, PCIe Gen5 x16 = ..." or why there is none
};

// Host<->device copy of one GPU of the promised model over the promised PCIe link.
PromisedEnvelope promised_host_copy(const spec::Spec& spec, const core::Catalog& catalog);
// Peer copy between two GPUs of the promised machine: defined where the promise fixes every pair
// (NVSwitch full mesh, NVLink direct full mesh); absent for partial meshes and PCIe machines.
PromisedEnvelope promised_peer_copy(const spec::Spec& spec, const core::Catalog& catalog);
// Large-message busbw of `op` on `ranks` GPUs of the promised machine (one node).
PromisedEnvelope promised_busbw(const spec::Spec& spec, const core::Catalog& catalog, std::string_view op, int ranks);

}  // namespace gpuvet::accept
