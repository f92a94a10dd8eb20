// Machine GPU index (nvidia-smi numbering, core::Gpu::index) <-> backend ordinal (CUDA
// numbering). CUDA orders GPUs FASTEST_FIRST unless CUDA_DEVICE_ORDER says otherwise, so the two
// are matched by PCI bus id, never assumed equal.
#pragma once

#include <map>
#include <vector>

#include "backends/api/copy_backend.hpp"
#include "core/error.hpp"
#include "core/machine.hpp"

namespace gpuvet::probes {

struct OrdinalMap {
  std::map<int, int> ordinal_of;  // index -> ordinal
  std::map<int, int> index_of;    // ordinal -> index
  // Throws std::out_of_range for an index that was not mapped (a caller bug).
  [[nodiscard]] std::vector<int> ordinals(const std::vector<int>& indices) const;
  // -1 for an ordinal that was not mapped.
  [[nodiscard]] std::vector<int> indices(const std::vector<int>& ordinals) const;
};

// Maps the machine GPUs `gpus` (indices) onto `devices` (what a backend can drive). Environment
// error naming the GPU and its bus id when the backend cannot drive it; `backend` names the
// backend in that message.
core::Result<OrdinalMap> map_ordinals(const core::Machine& machine, const std::vector<api::DeviceInfo>& devices,
                                      const std::vector<int>& gpus, const std::string& backend);

}  // namespace gpuvet::probes
