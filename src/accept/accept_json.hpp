// report.json (schema gpuvet.accept/1, docs/json.md) and the resumable state file: an
// AcceptReport and its stage records as JSON, and back (compare, resume). Pure: text in, text out.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "accept/accept_model.hpp"
#include "core/error.hpp"

namespace gpuvet::accept {

std::string render_report_json(const AcceptReport& report);

// The bundle's versions.json (schema gpuvet.versions/1, docs/json.md): gpuvet, driver, CUDA,
// host and run times, and from report.identity every piece of software and every GPU's serial,
// UUID, bus id, VBIOS and board part number (null with the reason under "absent" when unknown).
inline constexpr std::string_view kVersionsSchema = "gpuvet.versions/1";
std::string render_versions_json(const AcceptReport& report);
// Errors (bad_input) name the file and what is wrong; another schema version is an error.
core::Result<AcceptReport> parse_report_json(std::string_view text, const std::string& file_name);

inline constexpr std::string_view kStateSchema = "gpuvet.accept-state/1";
// name -> SHA-256 (hex) of each file gpuvet wrote into the bundle that outlives one attempt (the
// burn-in's telemetry database, an earlier attempt's kept beside it): a resumed run seals only these.
using RecordedDigests = std::map<std::string, std::string>;
// `key` identifies the run (spec and machine): a state saved under another key is not resumed.
std::string render_state(const std::string& key, const std::vector<StageRecord>& stages, const RecordedDigests& files = {});
// The key a state file was saved under; nullopt when the text is not a gpuvet state file.
std::optional<std::string> state_key(std::string_view text);
// The stage records saved under `key`; empty when the state belongs to another run.
core::Result<std::vector<StageRecord>> parse_state(std::string_view text, const std::string& key,
                                                   const std::string& file_name);
// The files recorded under `key` ("files"); empty for another run's state, or one written before
// gpuvet recorded them. A name or digest that is not a plain file name and a SHA-256 is bad input.
core::Result<RecordedDigests> parse_state_files(std::string_view text, const std::string& key, const std::string& file_name);

}  // namespace gpuvet::accept
