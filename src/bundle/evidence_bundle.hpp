// Writes the evidence bundle of an accept run into OUT DIR: the machine picture (machine.json,
// topology.txt), the spec used, versions and timestamps, the reports (report.json, report.md,
// junit.xml, report.html) and last the MANIFEST with the SHA-256 of every file (docs/json.md).
#pragma once

#include <array>
#include <filesystem>
#include <string>
#include <string_view>

#include "accept/accept_model.hpp"
#include "bundle/recorded_files.hpp"
#include "core/assessment.hpp"
#include "core/error.hpp"
#include "core/machine.hpp"

namespace gpuvet::bundle {

// The resumable state of a run (accept_json.hpp), kept in the bundle.
inline constexpr const char* kStateFile = "state.json";
// The burn-in's telemetry database (SQLite), written by the burn-in stage as samples arrive.
inline constexpr const char* kTelemetryDatabase = "telemetry.db";

// The files write_evidence() writes, in this order, before the MANIFEST.
inline constexpr std::array<std::string_view, 8> kEvidenceFiles = {
    "machine.json", "topology.txt", "spec.yaml", "versions.json", "report.json", "report.md", "junit.xml", "report.html"};

struct Evidence {
  const accept::AcceptReport& report;
  const core::Machine& machine;
  const core::Assessment& assessment;  // the judge's view of the machine (machine.json)
  std::string spec_text;               // the spec exactly as read
};

// Writes the evidence files, then the MANIFEST over them, state.json and the recorded files of
// `seal` (plan_seal). Returns the files written, in order (MANIFEST last). Errors are environment
// errors naming the file.
core::Result<std::vector<std::string>> write_evidence(const std::filesystem::path& dir, const Evidence& evidence,
                                                      const SealPlan& seal);

}  // namespace gpuvet::bundle
