// Efficiencies of NCCL collectives on NVSwitch machines, from published healthy-machine numbers.
#include "analysis/collective_envelope.hpp"

#include <fmt/format.h>

#include "analysis/rule_support.hpp"

namespace gpuvet::analysis {

namespace {

struct Efficiency {
  double nvls_all_reduce;  // NVLink SHARP all_reduce (NVSwitch gen 3+, more than 4 GPUs); 0 = none
  double ring;             // ring/tree all_reduce and the other collectives
  const char* source;
};

// busbw / per-GPU NVLink line rate measured on healthy 8-GPU NVSwitch machines.
const Efficiency* efficiency_for(const std::string& architecture) {
  // Hopper: all_reduce NVLS ~480 and ring ~370 GB/s on 8x H100/H200 over 450 GB/s (nccl-tests#212,
  // sjeaugey; ml-engineering network/README.md: 8x H200 480.0 NVLS / 367.2 ring / 361.4 all_gather
  // at 16 GiB). H800 (8 links, 200 GB/s): 215 NVLS (nccl#1374) fits the same ratio.
  static const Efficiency hopper{480.0 / 450.0, 367.0 / 450.0,
                                 "8x H100/H200: NVLS all_reduce ~480, ring ~367 GB/s of 450 (nccl-tests#212; "
                                 "ml-engineering network/README.md)"};
  // Ampere: ~230 GB/s all_reduce on 8x A100 over 300 GB/s (nccl-tests#149, #175; Azure NHC floor
  // 228). A800 (8 links, 200 GB/s): ~160 expected (nccl#412) fits the same ratio.
  static const Efficiency ampere{0.0, 230.0 / 300.0,
                                 "8x A100: ~230 GB/s of 300 (nccl-tests#149, #175; Azure NHC floor 228)"};
  // Blackwell: 838 NVLS / 682 ring all_reduce on 8x B200 over 900 GB/s (ml-engineering).
  static const Efficiency blackwell{838.0 / 900.0, 682.0 / 900.0,
                                    "8x B200: NVLS all_reduce 838, ring 682 GB/s of 900 (ml-engineering "
                                    "network/README.md)"};
  if (architecture == "Hopper") return &hopper;
  if (architecture == "Ampere") return &ampere;
  if (architecture == "Blackwell") return &blackwell;
  return nullptr;
}

}  // namespace

BusbwExpectation expected_busbw(std::string_view op, int ranks, int nodes, const core::GpuModel* model,
                                const core::Reading<double>& per_gpu_nvlink_gbps, core::InterconnectClass cls) {
  BusbwExpectation out;
  auto none = [&](std::string why) {
    out.busbw_gbps = core::Reading<double>::absent(why);
    out.basis = std::move(why);
    return out;
  };
  if (nodes > 1) return none("multi-node run: busbw is set by the NICs between nodes, which the log does not describe");
  if (cls == core::InterconnectClass::unknown) {
    return none("the machine's interconnect is unknown: give nvidia-smi topo -m and nvidia-smi -q of the same "
                "machine (a log alone is enough only for 8 SXM GPUs of a known model on one node)");
  }
  if (cls != core::InterconnectClass::nvswitch_full_mesh) {
    return none(fmt::format("no published envelope for {} machines yet (only NVSwitch machines are judged)",
                            core::to_string(cls)));
  }
  if (model == nullptr) return none("GPU model unknown or mixed");
  if (!per_gpu_nvlink_gbps) return none("per-GPU NVLink rate unknown: " + per_gpu_nvlink_gbps.reason());
  const Efficiency* eff = efficiency_for(model->architecture);
  if (eff == nullptr) return none("no published collective numbers for " + model->architecture + " NVSwitch machines");
  if (ranks < 2) return none("a single rank moves no data between GPUs");
  const bool nvls = op == "all_reduce" && eff->nvls_all_reduce > 0 && ranks > 4;
  const double e = nvls ? eff->nvls_all_reduce : eff->ring;
  out.busbw_gbps = *per_gpu_nvlink_gbps * e;
  out.basis = fmt::format("{} GB/s NVLink per GPU x {:.2f} ({}{})", format_gbps(*per_gpu_nvlink_gbps), e,
                          nvls ? "NVLS all_reduce; " : "", eff->source);
  return out;
}

}  // namespace gpuvet::analysis
