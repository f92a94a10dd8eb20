// JSON for accept reports and state. Unknown numbers are null, never zero.
#include "accept/accept_json.hpp"

#include "core/text_safety.hpp"

#include <algorithm>

#include <nlohmann/json.hpp>

#include <fmt/format.h>

namespace gpuvet::accept {

using nlohmann::ordered_json;

namespace {

ordered_json opt(const std::optional<double>& v) { return v ? ordered_json(*v) : ordered_json(nullptr); }
std::optional<double> opt_of(const ordered_json& j) {
  return j.is_number() ? std::optional<double>(j.get<double>()) : std::nullopt;
}

ordered_json clause_json(const ClauseResult& c) {
  ordered_json j{{"id", c.id},           {"title", c.title},       {"status", to_string(c.status)},
                 {"expected", c.expected}, {"observed", c.observed}, {"reason", c.reason},
                 {"source", c.source},   {"stage", c.stage},       {"findings", c.findings},
                 {"measured", opt(c.measured)}, {"target", opt(c.target)}, {"unit", c.unit}};
  if (!c.reason_parts.empty()) j["reason_parts"] = c.reason_parts;
  return j;
}

ordered_json finding_json(const core::Finding& f) {
  ordered_json evidence = ordered_json::object();
  for (const auto& [k, v] : f.evidence) evidence[k] = v;
  return ordered_json{{"code", f.code},       {"severity", core::to_string(f.severity)}, {"gpus", f.gpus},
                      {"message", f.message}, {"evidence", evidence}, {"next_step", f.next_step}};
}

ordered_json heatmap_json(const HeatmapData& h) {
  ordered_json values = ordered_json::array();
  for (const auto& row : h.values) {
    ordered_json r = ordered_json::array();
    for (const auto& v : row) r.push_back(opt(v));
    values.push_back(r);
  }
  return ordered_json{{"title", h.title}, {"unit", h.unit}, {"rows", h.row_labels}, {"cols", h.col_labels},
                      {"values", values}, {"expected", opt(h.expected)}};
}

ordered_json series_json(const SeriesData& s) {
  ordered_json lines = ordered_json::array();
  for (size_t i = 0; i < s.names.size(); ++i) {
    ordered_json pts = ordered_json::array();
    if (i < s.points.size()) {
      for (const auto& [t, v] : s.points[i]) pts.push_back({t, v});
    }
    lines.push_back({{"name", s.names[i]}, {"points", pts}});
  }
  ordered_json spans = ordered_json::array();
  for (const auto& [a, b] : s.spans) spans.push_back({a, b});
  ordered_json events = ordered_json::array();
  for (const auto& [t, label] : s.events) events.push_back({{"t_s", t}, {"label", label}});
  return ordered_json{{"title", s.title}, {"unit", s.unit}, {"lines", lines}, {"spans", spans}, {"events", events}};
}

ordered_json steady_state_json(const std::vector<BurninSteadyState>& gpus) {
  ordered_json out = ordered_json::array();
  for (const auto& g : gpus) {
    out.push_back({{"gpu", g.gpu}, {"median_temp_c", opt(g.median_temp_c)}, {"median_power_w", opt(g.median_power_w)},
                   {"median_sm_clock_mhz", opt(g.median_sm_clock_mhz)}});
  }
  return out;
}

ordered_json stage_json(const StageRecord& r) {
  ordered_json clauses = ordered_json::array();
  for (const auto& c : r.clauses) clauses.push_back(clause_json(c));
  ordered_json findings = ordered_json::array();
  for (const auto& f : r.findings) findings.push_back(finding_json(f));
  ordered_json heatmaps = ordered_json::array();
  for (const auto& h : r.heatmaps) heatmaps.push_back(heatmap_json(h));
  ordered_json series = ordered_json::array();
  for (const auto& s : r.series) series.push_back(series_json(s));
  ordered_json j{{"id", r.id},           {"title", r.title},       {"status", to_string(r.status)},
                 {"reason", r.reason},   {"seconds", r.seconds},   {"resumed", r.resumed},
                 {"clauses", clauses},   {"findings", findings},   {"heatmaps", heatmaps},
                 {"series", series}};
  if (r.steady_state) j["steady_state"] = steady_state_json(*r.steady_state);
  return j;
}

struct JsonError {
  std::string message;
};

const ordered_json& need(const ordered_json& j, const char* key) {
  if (!j.is_object() || !j.contains(key)) throw JsonError{fmt::format("missing \"{}\"", key)};
  return j.at(key);
}
std::string str(const ordered_json& j, const char* key) {
  const auto& v = need(j, key);
  if (!v.is_string()) throw JsonError{fmt::format("\"{}\" is not a string", key)};
  return v.get<std::string>();
}

core::Finding finding_of(const ordered_json& j) {
  core::Finding f;
  f.code = str(j, "code");
  const auto sev = str(j, "severity");
  f.severity = sev == "fail" ? core::Severity::fail : sev == "warn" ? core::Severity::warn : core::Severity::info;
  for (const auto& g : need(j, "gpus")) f.gpus.push_back(g.get<int>());
  f.message = str(j, "message");
  for (const auto& [k, v] : need(j, "evidence").items()) f.evidence.emplace_back(k, v.get<std::string>());
  f.next_step = str(j, "next_step");
  return f;
}

HeatmapData heatmap_of(const ordered_json& j) {
  HeatmapData h;
  h.title = str(j, "title");
  h.unit = str(j, "unit");
  h.row_labels = need(j, "rows").get<std::vector<std::string>>();
  h.col_labels = need(j, "cols").get<std::vector<std::string>>();
  for (const auto& row : need(j, "values")) {
    std::vector<std::optional<double>> r;
    for (const auto& v : row) r.push_back(opt_of(v));
    h.values.push_back(std::move(r));
  }
  h.expected = opt_of(need(j, "expected"));
  return h;
}

SeriesData series_of(const ordered_json& j) {
  SeriesData s;
  s.title = str(j, "title");
  s.unit = str(j, "unit");
  for (const auto& line : need(j, "lines")) {
    s.names.push_back(str(line, "name"));
    std::vector<std::pair<double, double>> pts;
    for (const auto& p : need(line, "points")) pts.emplace_back(p.at(0).get<double>(), p.at(1).get<double>());
    s.points.push_back(std::move(pts));
  }
  for (const auto& sp : need(j, "spans")) s.spans.emplace_back(sp.at(0).get<double>(), sp.at(1).get<double>());
  for (const auto& e : need(j, "events")) s.events.emplace_back(need(e, "t_s").get<double>(), str(e, "label"));
  return s;
}

StageRecord stage_of(const ordered_json& j) {
  StageRecord r;
  r.id = str(j, "id");
  r.title = str(j, "title");
  if (!parse_stage_status(str(j, "status"), r.status)) throw JsonError{"stage " + r.id + ": unknown status"};
  r.reason = str(j, "reason");
  r.seconds = need(j, "seconds").get<double>();
  r.resumed = need(j, "resumed").get<bool>();
  for (const auto& cj : need(j, "clauses")) {
    ClauseResult c;
    c.id = str(cj, "id");
    c.title = str(cj, "title");
    if (!parse_clause_status(str(cj, "status"), c.status)) throw JsonError{"clause " + c.id + ": unknown status"};
    c.expected = str(cj, "expected");
    c.observed = str(cj, "observed");
    c.reason = str(cj, "reason");
    if (const auto parts = cj.find("reason_parts"); parts != cj.end()) c.reason_parts = parts->get<std::vector<std::string>>();
    c.source = str(cj, "source");
    c.stage = str(cj, "stage");
    c.findings = need(cj, "findings").get<std::vector<std::string>>();
    c.measured = opt_of(need(cj, "measured"));
    c.target = opt_of(need(cj, "target"));
    c.unit = str(cj, "unit");
    r.clauses.push_back(std::move(c));
  }
  for (const auto& f : need(j, "findings")) r.findings.push_back(finding_of(f));
  for (const auto& h : need(j, "heatmaps")) r.heatmaps.push_back(heatmap_of(h));
  for (const auto& s : need(j, "series")) r.series.push_back(series_of(s));
  if (const auto it = j.find("steady_state"); it != j.end() && !it->is_null()) {
    r.steady_state.emplace();
    for (const auto& g : *it) {
      r.steady_state->push_back({need(g, "gpu").get<int>(), opt_of(need(g, "median_temp_c")), opt_of(need(g, "median_power_w")),
                                 opt_of(need(g, "median_sm_clock_mhz"))});
    }
  }
  return r;
}

// identity: values null when unknown, with the reason beside them ("absent").
ordered_json reading_json(const core::Reading<std::string>& v) { return v ? ordered_json(*v) : ordered_json(nullptr); }

ordered_json identity_json(const core::MachineIdentity& id) {
  ordered_json software = ordered_json::array();
  for (const auto& s : id.software) {
    software.push_back({{"key", s.key},
                        {"title", s.title},
                        {"value", reading_json(s.value)},
                        {"absent", s.value ? ordered_json(nullptr) : ordered_json(s.value.reason())},
                        {"source", s.source}});
  }
  ordered_json gpus = ordered_json::array();
  for (const auto& g : id.gpus) {
    ordered_json gj{{"index", g.index}};
    ordered_json absent = ordered_json::object();
    auto field = [&](const char* key, const core::Reading<std::string>& v) {
      gj[key] = reading_json(v);
      if (!v) absent[key] = v.reason();
    };
    field("name", g.name);
    field("serial", g.serial);
    field("uuid", g.uuid);
    field("pci_bus_id", g.pci_bus_id);
    field("vbios", g.vbios);
    field("board_part_number", g.board_part_number);
    gj["absent"] = absent;
    gpus.push_back(gj);
  }
  return ordered_json{{"source", id.source}, {"simulated", id.simulated}, {"hostname", reading_json(id.hostname)},
                      {"hostname_absent", id.hostname ? ordered_json(nullptr) : ordered_json(id.hostname.reason())},
                      {"software", software}, {"gpus", gpus}};
}

core::Reading<std::string> reading_of(const ordered_json& j, const char* key, const std::string& reason) {
  const auto& v = need(j, key);
  if (v.is_string()) return v.get<std::string>();
  if (!v.is_null()) throw JsonError{fmt::format("\"{}\" is not a string or null", key)};
  return core::Reading<std::string>::absent(reason.empty() ? "not reported" : reason);
}

std::string reason_of(const ordered_json& j, const char* key) {
  const auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

core::MachineIdentity identity_of_json(const ordered_json& j) {
  core::MachineIdentity id;
  id.source = str(j, "source");
  id.simulated = need(j, "simulated").get<bool>();
  id.hostname = reading_of(j, "hostname", reason_of(j, "hostname_absent"));
  for (const auto& s : need(j, "software")) {
    id.software.push_back({str(s, "key"), str(s, "title"), reading_of(s, "value", reason_of(s, "absent")), str(s, "source")});
  }
  for (const auto& g : need(j, "gpus")) {
    const auto& absent = need(g, "absent");
    auto field = [&](const char* key) { return reading_of(g, key, reason_of(absent, key)); };
    id.gpus.push_back({need(g, "index").get<int>(), field("name"), field("serial"), field("uuid"), field("pci_bus_id"),
                       field("vbios"), field("board_part_number")});
  }
  return id;
}

template <class Fn>
auto guarded(const std::string& file_name, Fn fn) -> decltype(fn()) {
  try {
    return fn();
  } catch (const JsonError& e) {
    return core::input_error(file_name + ": " + e.message);
  } catch (const nlohmann::json::exception& e) {
    return core::input_error(file_name + ": not a gpuvet accept document: " + e.what());
  }
}

// Text the user gave (a spec name, a GPU name) may hold bytes that are not UTF-8: they are
// replaced (U+FFFD) rather than make the report unwritable.
std::string dump_text(const ordered_json& j) {
  return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace

std::string render_report_json(const AcceptReport& r) {
  ordered_json stages = ordered_json::array();
  for (const auto& s : r.stages) stages.push_back(stage_json(s));
  ordered_json j{{"schema", kAcceptReportSchema},
                 {"tool_version", r.tool_version},
                 {"verdict", core::to_string(r.verdict)},
                 {"why", r.why},
                 {"spec", {{"name", r.spec_name}, {"file", r.spec_file}}},
                 {"machine",
                  {{"source", r.machine_source},
                   {"simulated", r.simulated},
                   {"hostname", r.hostname},
                   {"driver_version", r.driver_version},
                   {"cuda_version", r.cuda_version}}},
                 {"started_utc", r.started_utc},
                 {"finished_utc", r.finished_utc},
                 {"options", {{"quick", r.quick}, {"fail_fast", r.fail_fast}}},
                 {"stages", stages}};
  ordered_json other = ordered_json::array();
  for (const auto& f : r.other_findings) other.push_back(finding_json(f));
  j["other_findings"] = other;
  j["notes"] = r.notes;
  if (r.identity) j["identity"] = identity_json(*r.identity);
  return dump_text(j);
}

std::string render_versions_json(const AcceptReport& r) {
  // The report's summary says "n/a" for an unknown value; versions.json says null.
  auto known = [](const std::string& v) { return v == "n/a" || v.empty() ? ordered_json(nullptr) : ordered_json(v); };
  ordered_json j{{"schema", kVersionsSchema},
                 {"gpuvet", r.tool_version},
                 {"report_schema", kAcceptReportSchema},
                 {"driver_version", known(r.driver_version)},
                 {"cuda_version", known(r.cuda_version)},
                 {"hostname", known(r.hostname)},
                 {"machine_source", r.machine_source},
                 {"simulated", r.simulated},
                 {"started_utc", r.started_utc},
                 {"finished_utc", r.finished_utc}};
  if (r.identity) {
    const auto id = identity_json(*r.identity);
    j["software"] = id["software"];
    j["gpus"] = id["gpus"];
  }
  return dump_text(j);
}

core::Result<AcceptReport> parse_report_json(std::string_view text, const std::string& file_name) {
  if (core::bracket_depth(text) > core::kMaxNestingDepth) {
    return core::input_error(fmt::format("{}: nested deeper than {} levels: not a gpuvet accept report", file_name,
                                         core::kMaxNestingDepth));
  }
  return guarded(file_name, [&]() -> core::Result<AcceptReport> {
    const auto j = ordered_json::parse(text);
    const auto schema = str(j, "schema");
    if (schema != kAcceptReportSchema) {
      return core::input_error(fmt::format("{}: schema \"{}\", this gpuvet reads \"{}\"", file_name, schema, kAcceptReportSchema));
    }
    AcceptReport r;
    r.tool_version = str(j, "tool_version");
    const auto verdict = str(j, "verdict");
    r.verdict = verdict == "pass" ? core::Verdict::pass : verdict == "fail" ? core::Verdict::fail : core::Verdict::incomplete;
    r.why = need(j, "why").get<std::vector<std::string>>();
    r.spec_name = str(need(j, "spec"), "name");
    r.spec_file = str(need(j, "spec"), "file");
    const auto& m = need(j, "machine");
    r.machine_source = str(m, "source");
    r.simulated = need(m, "simulated").get<bool>();
    r.hostname = str(m, "hostname");
    r.driver_version = str(m, "driver_version");
    r.cuda_version = str(m, "cuda_version");
    r.started_utc = str(j, "started_utc");
    r.finished_utc = str(j, "finished_utc");
    r.quick = need(need(j, "options"), "quick").get<bool>();
    r.fail_fast = need(need(j, "options"), "fail_fast").get<bool>();
    for (const auto& s : need(j, "stages")) r.stages.push_back(stage_of(s));
    for (const auto& f : need(j, "other_findings")) r.other_findings.push_back(finding_of(f));
    if (j.contains("identity") && !j.at("identity").is_null()) r.identity = identity_of_json(j.at("identity"));
    return r;
  });
}

std::string render_state(const std::string& key, const std::vector<StageRecord>& stages, const RecordedDigests& files) {
  ordered_json list = ordered_json::array();
  for (const auto& s : stages) list.push_back(stage_json(s));
  ordered_json digests = ordered_json::object();
  for (const auto& [name, digest] : files) digests[name] = digest;
  return dump_text(ordered_json{{"schema", kStateSchema}, {"key", key}, {"stages", list}, {"files", digests}});
}

std::optional<std::string> state_key(std::string_view text) {
  if (core::bracket_depth(text) > core::kMaxNestingDepth) return std::nullopt;
  const auto j = ordered_json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return std::nullopt;
  const auto schema = j.find("schema");
  const auto key = j.find("key");
  if (schema == j.end() || *schema != kStateSchema || key == j.end() || !key->is_string()) return std::nullopt;
  return key->get<std::string>();
}

core::Result<std::vector<StageRecord>> parse_state(std::string_view text, const std::string& key,
                                                   const std::string& file_name) {
  if (core::bracket_depth(text) > core::kMaxNestingDepth) {
    return core::input_error(fmt::format("{}: nested deeper than {} levels: not a gpuvet accept state file", file_name,
                                         core::kMaxNestingDepth));
  }
  return guarded(file_name, [&]() -> core::Result<std::vector<StageRecord>> {
    const auto j = ordered_json::parse(text);
    if (str(j, "schema") != kStateSchema) return core::input_error(file_name + ": not a gpuvet accept state file");
    std::vector<StageRecord> out;
    if (str(j, "key") != key) return out;
    for (const auto& s : need(j, "stages")) out.push_back(stage_of(s));
    return out;
  });
}

core::Result<RecordedDigests> parse_state_files(std::string_view text, const std::string& key, const std::string& file_name) {
  if (core::bracket_depth(text) > core::kMaxNestingDepth) {
    return core::input_error(fmt::format("{}: nested deeper than {} levels: not a gpuvet accept state file", file_name,
                                         core::kMaxNestingDepth));
  }
  return guarded(file_name, [&]() -> core::Result<RecordedDigests> {
    const auto j = ordered_json::parse(text);
    if (str(j, "schema") != kStateSchema) return core::input_error(file_name + ": not a gpuvet accept state file");
    RecordedDigests out;
    if (str(j, "key") != key || !j.contains("files")) return out;
    const auto& files = j.at("files");
    if (!files.is_object()) throw JsonError{"\"files\" is not an object of file name -> SHA-256"};
    for (const auto& [name, digest] : files.items()) {
      const bool plain = !name.empty() && name.size() <= 255 && name != "." && name != ".." &&
                         std::none_of(name.begin(), name.end(), [](unsigned char c) { return c < 0x20 || c == 0x7f || c == '/'; });
      const bool sha256 = digest.is_string() && digest.get_ref<const std::string&>().size() == 64 &&
                          digest.get_ref<const std::string&>().find_first_not_of("0123456789abcdef") == std::string::npos;
      if (!plain || !sha256) throw JsonError{"\"files\": expected file names of the bundle, each with its SHA-256 (hex)"};
      out.emplace(name, digest.get<std::string>());
    }
    return out;
  });
}

}  // namespace gpuvet::accept
