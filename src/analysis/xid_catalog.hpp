// NVIDIA's Xid catalogue as data: what each Xid means, the action NVIDIA's catalogue gives
// (its "resolution bucket") and the severity gpuvet judges it at. Read by the kernel-log rules.
#pragma once

#include <string_view>

#include "core/finding.hpp"

namespace gpuvet::analysis {

// NVIDIA's immediate-action buckets, in gpuvet's words.
enum class XidAction {
  restart_app,      // RESTART_APP: restart the application (whose fault it is: the row's meaning)
  ignore,           // IGNORE: a consequence of another error or of the application
  reset_gpu,        // RESET_GPU (and WORKFLOW_XID_48/74): reset the GPU, then check again
  reboot,           // RESTART_BM: reboot the node
  contact_support,  // CONTACT_SUPPORT: hardware; RMA if it recurs
};
std::string_view describe(XidAction action);

struct XidInfo {
  int xid;
  std::string_view meaning;
  XidAction action;
  core::Severity severity;  // gpuvet's: fail for hardware Xids (as the burn-in's xid_event), info for application ones
};

// The entry for `xid`, or nullptr when it is not in gpuvet's copy of the catalogue.
const XidInfo* find_xid(int xid);
// Where the table comes from (for evidence and docs).
std::string_view xid_catalog_source();

}  // namespace gpuvet::analysis
