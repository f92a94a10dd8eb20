// NVIDIA's Xid catalogue, transcribed as data (see xid_catalog.hpp). Source: NVIDIA, "Analyzing
// Xid Errors with the Xid Catalog" (Ampere and newer GPUs),
// https://docs.nvidia.com/deploy/xid-errors/analyzing-xid-catalog.html, columns Mnemonic,
// Description and "Resolution Bucket (Immediate Action)". Checked row by row against that page
// (as of its R575 / CUDA 12.9 rows) on 2026-12-01; where gpuvet's action differs from the
// immediate bucket, the row says why. Xids the catalogue marks "Unused" on A100, H100, B100 and
// GB200 (56, 57, 58, 61, 122-124) keep their older meaning, say so, and point at support.
// Severities are gpuvet's, one source for the burn-in, trend and report judges and the monitor
// daemon: fail for hardware Xids (48, 63, 64, 74, 79, 92, 94, 95, 119, 120, 140, 143, 158) and NVLink
// hardware errors (136, 144-150), info where NVIDIA points at the application, warn otherwise. An
// Xid not listed here is judged warn with a pointer to the catalogue.
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
    {38, "Driver firmware error (FECS watchdog timeout)", A::ignore, Severity::warn},
    {43, "GPU stopped processing (the application's channel was reset)", A::ignore, Severity::info},
    {44, "Graphics engine fault during context switch", A::ignore, Severity::warn},
    {45, "Preemptive cleanup after an earlier error (the application's channels were torn down)", A::ignore, Severity::info},
    {46, "GPU stopped processing (GPU timeout)", A::reset_gpu, Severity::warn},
    {48, "Double-bit ECC error (uncorrectable memory error)", A::reset_gpu, Severity::fail},
    {56, "Display engine error (Volta and older; unused on Ampere and newer)", A::contact_support, Severity::warn},
    {57, "Error programming the video memory interface (Volta and older; unused on Ampere and newer)", A::contact_support, Severity::warn},
    {58, "Unstable video memory interface detected (Volta and older; unused on Ampere and newer)", A::contact_support, Severity::warn},
    {61, "Internal micro-controller breakpoint (PMU; unused on Ampere and newer)", A::contact_support, Severity::warn},
    {62, "Internal micro-controller halt", A::reset_gpu, Severity::warn},
    // Catalogue bucket IGNORE: the event itself needs nothing, but the remapped row is used only after a
    // GPU reset (the driver's own line: "reset gpu to activate"; nvidia-smi -q Remapped Rows Pending: Yes).
    {63, "ECC page retirement or row remapping recorded (takes effect after a GPU reset)", A::reset_gpu, Severity::fail},
    {64, "ECC page retirement or row remapping failed to record", A::reset_gpu, Severity::fail},
    {68, "Video processor (NVDEC) exception", A::restart_app, Severity::warn},
    {69, "Graphics engine class error", A::restart_app, Severity::info},
    {74, "NVLink error", A::reset_gpu, Severity::fail},
    {79, "GPU has fallen off the bus", A::reboot, Severity::fail},
    // Catalogue: immediate IGNORE, investigatory CONTACT_SUPPORT; for a machine on acceptance the latter.
    {92, "High single-bit ECC error rate", A::contact_support, Severity::fail},
    // Catalogue bucket RESTART_APP: the driver contained the error by stopping the application that read
    // the memory, but the error is the GPU memory's (uncorrectable), not the application's.
    {94, "Contained ECC error: an uncorrectable error in the GPU's memory, contained by stopping the application that "
         "read it; the memory is at fault, not the application (a row remap follows, applied at the next GPU reset)",
     A::restart_app, Severity::fail},
    {95, "Uncontained ECC error", A::reset_gpu, Severity::fail},
    {109, "Context switch timeout", A::reset_gpu, Severity::warn},
    {119, "GSP RPC timeout", A::reset_gpu, Severity::fail},
    {120, "GSP error", A::reset_gpu, Severity::fail},
    {121, "C2C link corrected error", A::ignore, Severity::warn},
    {122, "SPI PMU RPC read failure (unused on Ampere and newer)", A::contact_support, Severity::warn},
    {123, "SPI PMU RPC write failure (unused on Ampere and newer)", A::contact_support, Severity::warn},
    {124, "SPI PMU RPC erase failure (unused on Ampere and newer)", A::contact_support, Severity::warn},
    {136, "NVLink link training failed", A::reset_gpu, Severity::fail},
    {137, "NVLink privilege error (an illegal NVLink peer access; usually the application)", A::ignore, Severity::warn},
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
    {155, "NVLink link down flagged as intentional (software-defined)", A::reset_gpu, Severity::warn},
    {158, "GPU fatal timeout", A::reset_gpu, Severity::fail},
};

}  // namespace

std::string_view describe(XidAction action) {
  switch (action) {
    case XidAction::restart_app: return "restart the application (RESTART_APP)";
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
