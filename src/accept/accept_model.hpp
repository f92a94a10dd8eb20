// The outcome of `gpuvet accept`: per stage, the spec clauses it decided (pass / fail / not run,
// with the findings and numbers behind each), and the verdict. Built by accept/, rendered by
// report/ (HTML, Markdown, JUnit) and accept_json.cpp (report.json, the resumable state file).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/finding.hpp"
#include "core/machine_identity.hpp"
#include "core/verdict.hpp"

namespace gpuvet::accept {

// Append-only; spelled as serialised.
enum class ClauseStatus { pass, fail, not_run };
std::string_view to_string(ClauseStatus status);
// done: the stage ran and decided its clauses. not_run: skipped (--quick, --fail-fast) or not
// built into this binary. waived: applicable() declined. error: the stage failed to run.
enum class StageStatus { done, not_run, waived, error };
std::string_view to_string(StageStatus status);
bool parse_clause_status(std::string_view text, ClauseStatus& out);
bool parse_stage_status(std::string_view text, StageStatus& out);

// One promise of the spec and what the machine showed.
struct ClauseResult {
  std::string id;        // stable: "gpu.count", "interconnect", "collectives.all_reduce.all", ...
  std::string title;     // "GPU count"
  std::string expected;  // what the spec states, in words: "8", "nvswitch_full_mesh"
  std::string source;    // "spec line 7", or "default (catalogue h100-sxm5-80gb)"
  std::string stage;     // id of the stage that decides it
  ClauseStatus status = ClauseStatus::not_run;
  std::string observed;  // what was seen, in words ("n/a" when nothing)
  std::string reason;    // why it failed, or why it did not run
  // The reason's parts when it joins several (each a whole sentence: a finding's message, or a
  // remark such as "and 6 more"); reason == the parts joined by "; ". Empty: one part, the reason.
  std::vector<std::string> reason_parts;
  std::vector<std::string> findings;  // codes of the findings that decided it
  // Headline number for comparisons: measured against target (same unit). Absent when the
  // clause is not a number or was not measured.
  std::optional<double> measured;
  std::optional<double> target;
  std::string unit;
};

// A matrix for a heatmap (bandwidth per GPU pair): values[row][col], nullopt when not measured.
struct HeatmapData {
  std::string title;
  std::string unit;
  std::vector<std::string> row_labels;
  std::vector<std::string> col_labels;
  std::vector<std::vector<std::optional<double>>> values;
  std::optional<double> expected;  // the envelope, for colouring as % of expected
};

// Time series (burn-in telemetry): one line per name, x in seconds; spans and events are marked.
struct SeriesData {
  std::string title;
  std::string unit;
  std::vector<std::string> names;
  std::vector<std::vector<std::pair<double, double>>> points;  // per name: (t_s, value)
  std::vector<std::pair<double, double>> spans;                // (start_s, end_s): e.g. throttled
  std::vector<std::pair<double, std::string>> events;          // (t_s, label): e.g. "XID 79 GPU 3"
};

// One GPU's steady state under load in the burn-in: the burn-in judge's medians after the warm-up
// (core::BurninGpuSummary), kept as data so a later reader (trend and monitor --baseline) never
// reads them back out of the charts. nullopt: the judge had no steady-state sample of it.
struct BurninSteadyState {
  int gpu = 0;
  std::optional<double> median_temp_c;
  std::optional<double> median_power_w;
  std::optional<double> median_sm_clock_mhz;
};

struct StageRecord {
  std::string id;     // stable: inventory, topology, numa, memory, bandwidth, vram, collectives, burnin
  std::string title;
  StageStatus status = StageStatus::not_run;
  std::string reason;  // for not_run / waived / error
  double seconds = 0;  // wall time of the stage
  bool resumed = false;  // taken from an earlier, interrupted run's state file
  std::vector<ClauseResult> clauses;
  std::vector<core::Finding> findings;
  std::vector<HeatmapData> heatmaps;
  std::vector<SeriesData> series;
  // The burn-in stage's per-GPU steady state (report.json "steady_state"); nullopt for the other
  // stages and in reports written before gpuvet recorded it.
  std::optional<std::vector<BurninSteadyState>> steady_state;
};

inline constexpr std::string_view kAcceptReportSchema = "gpuvet.accept/1";

struct AcceptReport {
  std::string tool_version;
  std::string spec_name;
  std::string spec_file;
  std::string machine_source;
  bool simulated = false;
  std::string hostname;        // "n/a" when unknown
  std::string driver_version;
  std::string cuda_version;
  std::string started_utc;     // ISO 8601
  std::string finished_utc;
  bool quick = false;
  bool fail_fast = false;
  core::Verdict verdict = core::Verdict::incomplete;
  std::vector<std::string> why;  // one line per failed or not-run clause, fails first
  std::vector<StageRecord> stages;
  // The judge's findings that no clause of the spec refers to: shown with their next steps, they
  // do not change the verdict (the spec is the contract).
  std::vector<core::Finding> other_findings;
  // About the run itself, not the machine: an earlier bundle moved aside, files left unsealed.
  std::vector<std::string> notes;
  // What was accepted: GPU serials, UUIDs, bus ids, VBIOS, part numbers and software versions
  // (report.json "identity", versions.json). Absent in reports written before gpuvet 0.1.0 had it.
  std::optional<core::MachineIdentity> identity;
};

// The findings of `all` that no stage of `stages` carries.
std::vector<core::Finding> findings_outside(const std::vector<core::Finding>& all, const std::vector<StageRecord>& stages);

// Fail-closed: fail when a clause failed; else incomplete when a clause did not run or there
// are no clauses; else pass. `why` explains it.
core::Verdict decide(const std::vector<StageRecord>& stages, std::vector<std::string>& why);

// Every clause of every stage, in stage order.
std::vector<const ClauseResult*> all_clauses(const AcceptReport& report);

}  // namespace gpuvet::accept
