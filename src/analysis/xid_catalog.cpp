// NVIDIA's Xid catalogue, transcribed as data (see xid_catalog.hpp). Source: NVIDIA, "Xid
// Errors" / "Analyzing Xid Errors with the Xid Catalog" (Ampere and newer GPUs),
// https://docs.nvidia.com/deploy/xid-errors/analyzing-xid-catalog.html, columns Description and
// "Resolution Bucket (Immediate Action)". Severities are gpuvet's: fail for the Xids the burn-in
// already fails on (hardware: 48, 63, 64, 74, 79, 92, 94, 95, 119, 120, 140) and the NVLink
// errors of Blackwell (144-150), info where NVIDIA points at the application, warn otherwise.
// An Xid not listed here is judged warn with a pointer to the catalogue.
#include "analysis/xid_catalog.hpp"

namespace gpuvet::analysis {

namespace {

using core::Severity;
using A = XidAction;

constexpr XidInfo kXids[] = {
    {8, "GPU stopped processing (channel idle timeout)", A::restart_app, Severity::warn},
    {13, "Graphics engine exception (often an out-of-range access by the application)", A::restart_app, Severity::info},
    {31, "GPU memory page fault (MMU fault; usually an illegal address in the application)", A::restart_app, Severity::info},
    {32, "Invalid or corrupted push buffer stream", A::restart_app, Severity::warn},
    {38, "Driver firmware error", A::reset_gpu, Severity::warn},
    {43, "GPU stopped processing (the application's channel was reset)", A::ignore, Severity::info},
    {44, "Graphics engine fault during context switch", A::reset_gpu, Severity::warn},
    {45, "Preemptive cleanup after an earlier error (the application's channels were torn down)", A::ignore, Severity::info},
    {48, "Double-bit ECC error (uncorrectable memory error)", A::reset_gpu, Severity::fail},
    {56, "Display engine error", A::restart_app, Severity::warn},
    {57, "Error programming the video memory interface", A::reset_gpu, Severity::warn},
    {58, "Unstable video memory interface detected", A::reset_gpu, Severity::warn},
    {61, "Internal micro-controller breakpoint or warning", A::reset_gpu, Severity::warn},
    {62, "Internal micro-controller halt", A::reset_gpu, Severity::warn},
    {63, "ECC page retirement or row remapping recorded (takes effect after a GPU reset)", A::reset_gpu, Severity::fail},
    {64, "ECC page retirement or row remapping failed to record", A::reset_gpu, Severity::fail},
    {68, "Video processor (NVDEC) exception", A::restart_app, Severity::warn},
    {69, "Graphics engine class error", A::restart_app, Severity::info},
    {74, "NVLink error", A::reset_gpu, Severity::fail},
    {79, "GPU has fallen off the bus", A::reboot, Severity::fail},
    {92, "High single-bit ECC error rate", A::contact_support, Severity::fail},
    {94, "Contained ECC error (the application that touched the memory was stopped)", A::restart_app, Severity::fail},
    {95, "Uncontained ECC error", A::reset_gpu, Severity::fail},
    {109, "Context switch timeout", A::restart_app, Severity::warn},
    {119, "GSP RPC timeout", A::reset_gpu, Severity::fail},
    {120, "GSP error", A::reset_gpu, Severity::fail},
    {121, "C2C link corrected error", A::ignore, Severity::warn},
    {122, "SPI PMU RPC read failure", A::reset_gpu, Severity::warn},
    {123, "SPI PMU RPC write failure", A::reset_gpu, Severity::warn},
    {124, "SPI PMU RPC erase failure", A::reset_gpu, Severity::warn},
    {137, "NVLink FLA privilege error", A::restart_app, Severity::warn},
    {140, "Unrecovered ECC error", A::reset_gpu, Severity::fail},
    {143, "GPU initialization failure", A::reset_gpu, Severity::fail},
    {144, "NVLink SAW error", A::reset_gpu, Severity::fail},
    {145, "NVLink RLW error", A::reset_gpu, Severity::fail},
    {146, "NVLink TLW error", A::reset_gpu, Severity::fail},
    {147, "NVLink TREX error", A::reset_gpu, Severity::fail},
    {148, "NVLink NVLPW control error", A::reset_gpu, Severity::fail},
    {149, "NVLink NETIR error", A::reset_gpu, Severity::fail},
    {150, "NVLink MSE error", A::reset_gpu, Severity::fail},
    {154, "GPU recovery action changed (the line names the action: reset, reboot or drain)", A::reset_gpu, Severity::warn},
};

}  // namespace

std::string_view describe(XidAction action) {
  switch (action) {
    case XidAction::restart_app: return "restart the application (RESTART_APP): usually an application error, not the machine";
    case XidAction::ignore: return "none for the GPU (IGNORE): a consequence of another error or of the application";
    case XidAction::reset_gpu: return "reset the GPU (RESET_GPU), then check again; ask for a replacement if it recurs";
    case XidAction::reboot: return "reboot the node (RESTART_BM); if it recurs, the GPU or its slot must be replaced";
    case XidAction::contact_support: return "contact the vendor (CONTACT_SUPPORT): hardware, replace the GPU if it recurs";
  }
  return "see NVIDIA's Xid catalogue";
}

const XidInfo* find_xid(int xid) {
  for (const auto& x : kXids) {
    if (x.xid == xid) return &x;
  }
  return nullptr;
}

std::string_view xid_catalog_source() {
  return "NVIDIA Xid catalogue, https://docs.nvidia.com/deploy/xid-errors/analyzing-xid-catalog.html";
}

}  // namespace gpuvet::analysis
