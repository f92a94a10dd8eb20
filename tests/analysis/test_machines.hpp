// Hand-built GPU catalogue and machines for the judge's tests, plus a gallery of machines that
// between them trigger every finding code.
#pragma once

#include <string>
#include <vector>

#include "analysis/judge.hpp"
#include "core/assessment.hpp"
#include "core/gpu_model.hpp"
#include "core/machine.hpp"

namespace gpuvet::analysis::testing {

inline const std::string kH100 = "NVIDIA H100 80GB HBM3";
inline const std::string kA100Sxm = "NVIDIA A100-SXM4-80GB";
inline const std::string kA100Pcie = "NVIDIA A100 80GB PCIe";
inline const std::string kV100 = "Tesla V100-SXM2-16GB";
inline const std::string kRtx4090 = "NVIDIA GeForce RTX 4090";
inline const std::string kA6000 = "NVIDIA RTX A6000";
inline const std::string kL40s = "NVIDIA L40S";
inline const std::string kH100Nvl = "NVIDIA H100 NVL";
inline const std::string kUnknownGpu = "NVIDIA Mystery 9000";

// H100 SXM5 (18 x 25 GB/s), A100 SXM4/PCIe 80GB (12 x 25), V100 SXM2 (6 x 25), RTX 4090,
// RTX A6000 (4 x 14.0625, bridge), L40S, H100 NVL (18 x 25, bridge).
const core::Catalog& catalog();

// A GPU with only index and name known.
core::Gpu gpu(int index, const std::string& name);
// n GPUs of one name, attached_gpus = n, nothing else known.
core::Machine machine(int n, const std::string& name);
// Every pair NV#.
core::LinkMatrix nv_mesh(int n, int nv);
// Every pair `kind` (PIX, PHB, SYS ...).
core::LinkMatrix pcie_matrix(int n, core::LinkKind kind);
core::Link nv(int count);
// An RDMA NIC as sysfs reports it: "mlx5_<n>" for label "NIC<n>".
core::Nic nic(const std::string& label, const std::string& state, double rate_gbit_s);
core::Link pcie(core::LinkKind kind);

std::vector<std::string> codes(const core::Assessment& a);
std::vector<core::Finding> with_code(const core::Assessment& a, const std::string& code);
core::Assessment judge(const core::Machine& m, const Expectations& expect = {});

struct GalleryEntry {
  std::string name;
  core::Machine machine;
  Expectations expect;
};
// Machines that between them make the judge emit every code in finding_catalog().
std::vector<GalleryEntry> gallery();
// Two H100s with kernel-log events (Xid 48 on GPU 0, GPU 1 fallen off the bus, GPU 0 infoROM
// corrupted), NVLink error counters on GPU 0 (one saturated at 65535) and MIG on GPU 1.
core::Machine logged_trouble_machine();

}  // namespace gpuvet::analysis::testing
