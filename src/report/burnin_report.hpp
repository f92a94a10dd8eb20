// What `gpuvet burnin` and `gpuvet report --db` render: the stored run (core::BurninRecord), the
// burn-in judge's assessment and the verdict. Both commands render from the database's content,
// so a report rebuilt later is the same report. Pure: report model -> bytes.
#pragma once

#include <string>
#include <string_view>

#include "core/telemetry.hpp"
#include "core/verdict.hpp"

namespace gpuvet::report {

// Versioned schema of the burn-in JSON document (docs/json.md). Bump on incompatible change.
inline constexpr std::string_view kBurninReportSchema = "gpuvet.burnin/1";

struct BurninReport {
  std::string command;        // "burnin" or "report"
  std::string database;       // path of the database the report was built from
  const core::BurninRecord& record;
  const core::BurninAssessment& assessment;
  core::Verdict verdict = core::Verdict::pass;
};

std::string render_burnin_json(const BurninReport& report);
std::string render_burnin_text(const BurninReport& report, bool color = false);

}  // namespace gpuvet::report
