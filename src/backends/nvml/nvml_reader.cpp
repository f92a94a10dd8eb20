// read_machine: load NVML, initialise, read every GPU and the machine-wide facts, shut down.
#include "backends/nvml/nvml_reader.hpp"

#include <fmt/format.h>

#include "backends/nvml/nvml_convert.hpp"
#include "backends/nvml/nvml_device.hpp"
#include "backends/nvml/nvml_gpu_reader.hpp"
#include "backends/nvml/nvml_library.hpp"
#include "backends/nvml/nvml_topology.hpp"
#include "platform/environment.hpp"

namespace gpuvet::nvml {

namespace {

constexpr const char* kDefaultLibrary = "libnvidia-ml.so.1";

// nvmlShutdown on every path out of read_machine once nvmlInit succeeded.
class ShutdownGuard {
 public:
  explicit ShutdownGuard(const Api& api) : api_(api) {}
  ~ShutdownGuard() { api_.shutdown(); }
  ShutdownGuard(const ShutdownGuard&) = delete;
  ShutdownGuard& operator=(const ShutdownGuard&) = delete;

 private:
  const Api& api_;
};

void read_system(const NvmlLibrary& lib, core::Machine& machine) {
  const Api& api = lib.api();
  const auto describe_failure = [&](Symbol symbol, nvmlReturn_t code) {
    return code == kErrorNotSupported ? std::string("not supported by this driver")
                                      : fmt::format("{}: {}", lib.resolved_name(symbol), lib.describe(code));
  };
  if (!lib.has(Symbol::system_get_driver_version)) {
    machine.driver_version = core::Reading<std::string>::absent(lib.missing_reason(Symbol::system_get_driver_version));
  } else {
    char buffer[kSystemDriverVersionBufferSize] = {};
    const nvmlReturn_t code = api.system_get_driver_version(buffer, sizeof buffer);
    machine.driver_version = code == kSuccess ? core::Reading<std::string>(bounded_string(buffer, sizeof buffer))
                                              : core::Reading<std::string>::absent(
                                                    describe_failure(Symbol::system_get_driver_version, code));
  }
  if (!lib.has(Symbol::system_get_cuda_driver_version)) {
    machine.cuda_version = core::Reading<std::string>::absent(lib.missing_reason(Symbol::system_get_cuda_driver_version));
  } else {
    int version = 0;
    const nvmlReturn_t code = api.system_get_cuda_driver_version(&version);
    machine.cuda_version = code == kSuccess ? core::Reading<std::string>(cuda_version_string(version))
                                            : core::Reading<std::string>::absent(
                                                  describe_failure(Symbol::system_get_cuda_driver_version, code));
  }
}

// PCIe path lookup for build_link_matrix, over the device handles of the GPUs read.
PciePathLookup pcie_path_lookup(const NvmlLibrary& lib, std::vector<DeviceReader>& readers) {
  return [&lib, &readers](int a, int b) -> core::Reading<core::LinkKind> {
    auto& ra = readers[static_cast<size_t>(a)];
    auto& rb = readers[static_cast<size_t>(b)];
    if (rb.lost()) return core::Reading<core::LinkKind>::absent(kGpuLost);
    const auto level = ra.query<nvmlGpuTopologyLevel_t>(Symbol::device_get_topology_common_ancestor, [&](auto& l) {
      return lib.api().device_get_topology_common_ancestor(ra.device(), rb.device(), &l);
    });
    if (!level.known()) return core::Reading<core::LinkKind>::absent(level.reason());
    const auto kind = link_kind_from_topology(level.value());
    if (!kind) return core::Reading<core::LinkKind>::absent(fmt::format("unknown topology level {}", level.value()));
    return *kind;
  };
}

void note_lost(const DeviceReader& reader, const core::Gpu& gpu, std::vector<std::string>& notes) {
  if (!reader.lost()) return;
  notes.push_back(fmt::format("GPU {}{} fell off the bus (NVML_ERROR_GPU_IS_LOST) during {}; its remaining readings are absent",
                              gpu.index, gpu.pci_bus_id.known() ? " (" + gpu.pci_bus_id.value() + ")" : "",
                              reader.lost_during()));
}

}  // namespace

std::string default_library_name() { return platform::env("GPUVET_NVML_LIBRARY").value_or(kDefaultLibrary); }

core::Result<core::Machine> read_machine(const std::string& library_name) {
  auto loaded = NvmlLibrary::load(library_name);
  if (!loaded) return loaded.error();
  const NvmlLibrary& lib = *loaded.value();
  const Api& api = lib.api();

  const nvmlReturn_t init_code = api.init();
  if (init_code != kSuccess) {
    return core::environment_error(fmt::format("{} failed on {}: {}", lib.resolved_name(Symbol::init), library_name,
                                               lib.describe(init_code)));
  }
  ShutdownGuard guard(api);

  unsigned int count = 0;
  if (const nvmlReturn_t code = api.device_get_count(&count); code != kSuccess) {
    return core::environment_error(fmt::format("{} failed on {}: {}", lib.resolved_name(Symbol::device_get_count),
                                               library_name, lib.describe(code)));
  }

  core::Machine machine;
  machine.source = fmt::format("live (NVML: {})", library_name);
  machine.simulated = false;
  const std::string host = platform::hostname();
  machine.hostname = host.empty() ? core::Reading<std::string>::absent("gethostname failed") : core::Reading<std::string>(host);
  machine.attached_gpus = static_cast<int>(count);
  read_system(lib, machine);

  std::vector<DeviceReader> readers;
  for (unsigned int i = 0; i < count; ++i) {
    nvmlDevice_t device = nullptr;
    const nvmlReturn_t code = api.device_get_handle_by_index(i, &device);
    if (code != kSuccess) {
      machine.notes.push_back(fmt::format("GPU {} not read: {}: {}", i, lib.resolved_name(Symbol::device_get_handle_by_index),
                                          code == kErrorGpuIsLost ? std::string(kGpuLost) : lib.describe(code)));
      continue;
    }
    readers.emplace_back(lib, device, static_cast<int>(i));
    machine.gpus.push_back(read_gpu(readers.back()));
  }

  machine.links = build_link_matrix(machine.gpus, pcie_path_lookup(lib, readers));
  for (size_t i = 0; i < readers.size(); ++i) note_lost(readers[i], machine.gpus[i], machine.notes);
  machine.nvswitch_present = nvswitch_present(machine.gpus);
  machine.nics = core::Reading<std::vector<core::Nic>>::absent("NICs are read from sysfs, not NVML");
  machine.numa_nodes = core::Reading<std::vector<core::NumaNode>>::absent("NUMA nodes are read from sysfs, not NVML");
  return machine;
}

}  // namespace gpuvet::nvml
