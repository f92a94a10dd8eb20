// The severity of an Xid alert, from one source for the daemon (gpuvet_alert, /alerts, the
// journal's priority), the `severity` label of gpuvet_last_xid_info and the rules file (one
// GpuvetXid* rule per severity): NVIDIA's Xid catalogue row as gpuvet judges it
// (analysis/xid_catalog.hpp: fail for hardware Xids, info where NVIDIA's action is RESTART_APP
// or IGNORE for an application fault, e.g. Xid 13), warn for an Xid not in gpuvet's copy.
#pragma once

#include "analysis/xid_catalog.hpp"
#include "core/finding.hpp"

namespace gpuvet::monitor {

inline core::Severity xid_alert_severity(int xid) {
  const analysis::XidInfo* info = analysis::find_xid(xid);
  return info == nullptr ? core::Severity::warn : info->severity;
}

// Every severity xid_alert_severity() can give, worst first (the rules file has a rule for each).
inline constexpr core::Severity kXidAlertSeverities[] = {core::Severity::fail, core::Severity::warn, core::Severity::info};

}  // namespace gpuvet::monitor
