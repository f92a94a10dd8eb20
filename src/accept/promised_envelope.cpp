// Envelopes of the promised machine, built from the spec and the catalogue.
#include "accept/promised_envelope.hpp"

#include <fmt/format.h>

#include "analysis/bandwidth_envelope.hpp"
#include "analysis/collective_envelope.hpp"

namespace gpuvet::accept {

namespace {

PromisedEnvelope none(std::string why) { return {core::Reading<double>::absent(why), std::move(why)}; }

const core::GpuModel* promised_model(const spec::Spec& spec, const core::Catalog& catalog) {
  return spec.gpu_model ? catalog.by_id(spec.gpu_model->value) : nullptr;
}

core::InterconnectClass promised_class(const spec::Spec& spec) {
  return spec.interconnect ? spec.interconnect->value.cls : core::InterconnectClass::unknown;
}

std::string label(const core::GpuModel& model, const spec::Spec& spec) {
  return fmt::format("promised {}{}", model.display_name,
                     spec.interconnect ? " " + std::string(core::to_string(spec.interconnect->value.cls)) : "");
}

PromisedEnvelope from(const analysis::PathExpectation& e, const core::GpuModel& model, const spec::Spec& spec) {
  if (!e.gbps) return none(e.basis);
  return {*e.gbps, label(model, spec) + ": " + e.basis};
}

}  // namespace

PromisedEnvelope promised_host_copy(const spec::Spec& spec, const core::Catalog& catalog) {
  const auto* model = promised_model(spec, catalog);
  if (model == nullptr) return none("the spec names no catalogue GPU model");
  core::Gpu gpu;  // the promised slot: the spec's PCIe link, else the model's
  if (spec.pcie_gen) gpu.pcie.gen_max = spec.pcie_gen->value;
  if (spec.pcie_width) gpu.pcie.width_max = spec.pcie_width->value;
  return from(analysis::expected_host_copy(&gpu, model), *model, spec);
}

PromisedEnvelope promised_peer_copy(const spec::Spec& spec, const core::Catalog& catalog) {
  const auto* model = promised_model(spec, catalog);
  if (model == nullptr) return none("the spec names no catalogue GPU model");
  const auto cls = promised_class(spec);
  const int gpus = spec.gpu_count ? spec.gpu_count->value : 0;
  analysis::Fabric fabric;
  fabric.model = model;
  fabric.cls = cls;
  fabric.per_gpu_gbps = model->nvlink_gbps_per_gpu();
  core::Machine machine;
  if (cls == core::InterconnectClass::nvlink_direct_full_mesh) {
    // Every pair joined directly: the model's links shared evenly among the other GPUs.
    if (gpus < 2 || model->nvlink_links < gpus - 1) return none("the promised NVLink mesh is not fixed by the spec");
    const int per_pair = model->nvlink_links / (gpus - 1);
    core::LinkMatrix links(2);
    links.set_symmetric(0, 1, core::Link{core::LinkKind::nvlink, per_pair});
    machine.links = links;
    machine.gpus.resize(2);
  } else if (cls != core::InterconnectClass::nvswitch_full_mesh) {
    return none("the spec's interconnect does not fix every GPU pair's path");
  }
  return from(analysis::expected_peer_copy(machine, fabric, 0, 1), *model, spec);
}

PromisedEnvelope promised_busbw(const spec::Spec& spec, const core::Catalog& catalog, std::string_view op, int ranks) {
  const auto* model = promised_model(spec, catalog);
  if (model == nullptr) return none("the spec names no catalogue GPU model");
  const auto e = analysis::expected_busbw(op, ranks, 1, model, model->nvlink_gbps_per_gpu(), promised_class(spec));
  if (!e.busbw_gbps) return none(e.basis);
  return {*e.busbw_gbps, label(*model, spec) + ", " + std::to_string(ranks) + " GPUs: " + e.basis};
}

}  // namespace gpuvet::accept
