// Builds the comparison table of several accept reports, and checks a report.json against its
// schema before compare reads it.
#include "accept/compare.hpp"

#include <algorithm>
#include <initializer_list>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/text_safety.hpp"

namespace gpuvet::accept {

CompareTable compare_reports(const std::vector<std::pair<std::string, AcceptReport>>& reports) {
  CompareTable t;
  for (const auto& [label, r] : reports) {
    t.labels.push_back(label);
    t.verdicts.push_back(r.verdict);
    t.machines.push_back(r.machine_source);
    for (const auto* c : all_clauses(r)) {
      auto it = std::find_if(t.rows.begin(), t.rows.end(), [&](const CompareRow& row) { return row.id == c->id; });
      if (it == t.rows.end()) {
        t.rows.push_back({c->id, c->title, std::vector<CompareCell>(reports.size()), false});
      }
    }
  }
  for (size_t col = 0; col < reports.size(); ++col) {
    for (const auto* c : all_clauses(reports[col].second)) {
      auto& cell = std::find_if(t.rows.begin(), t.rows.end(), [&](const CompareRow& row) { return row.id == c->id; })->cells[col];
      cell.present = true;
      cell.status = c->status;
      cell.observed = c->observed;
      if (c->measured && c->target && *c->target != 0) cell.percent = *c->measured / *c->target * 100.0;
    }
  }
  for (auto& row : t.rows) {
    const auto& first = row.cells.front();
    double lo = 1e300;
    double hi = -1e300;
    for (const auto& cell : row.cells) {
      if (!cell.present || cell.status != first.status || cell.present != first.present) row.differs = true;
      if (cell.percent) {
        lo = std::min(lo, *cell.percent);
        hi = std::max(hi, *cell.percent);
      }
    }
    if (hi >= lo && hi - lo > kCompareDifferencePoints) row.differs = true;
  }
  t.metrics = compare_metrics(reports);
  return t;
}

std::string cell_text(const CompareCell& cell) {
  if (!cell.present) return "-";
  const char* word = cell.status == ClauseStatus::pass ? "PASS" : cell.status == ClauseStatus::fail ? "FAIL" : "NOT RUN";
  return cell.percent ? fmt::format("{} {:.1f} %", word, *cell.percent) : std::string(word);
}

namespace {

using nlohmann::json;

// The first place where a report.json breaks its schema: the field ("stages[2].clauses[0].measured")
// and what is wrong there.
struct SchemaError {
  std::string field;
  std::string message;
};

std::string join(const std::string& path, std::string_view key) { return path.empty() ? std::string(key) : path + "." + std::string(key); }
std::string at(const std::string& path, std::size_t index) { return fmt::format("{}[{}]", path, index); }

// "string \"42\"", "number", "null".
std::string found(const json& j) {
  if (!j.is_string()) return j.type_name();
  const auto& s = j.get_ref<const std::string&>();
  return fmt::format("string \"{}{}\"", s.substr(0, 40), s.size() > 40 ? "..." : "");
}

void expect(bool ok, const std::string& path, std::string_view what, const json& j) {
  if (!ok) throw SchemaError{path, fmt::format("expected {}, found {}", what, found(j))};
}

const json& field(const json& object, const std::string& path, std::string_view key) {
  const auto it = object.find(key);
  if (it == object.end()) throw SchemaError{join(path, key), "missing"};
  return *it;
}
const json& object_at(const json& o, const std::string& path, std::string_view key) {
  const auto& v = field(o, path, key);
  expect(v.is_object(), join(path, key), "an object", v);
  return v;
}
void string_at(const json& o, const std::string& path, std::string_view key) {
  expect(field(o, path, key).is_string(), join(path, key), "a string", field(o, path, key));
}
void number_at(const json& o, const std::string& path, std::string_view key, bool or_null = false) {
  const auto& v = field(o, path, key);
  expect(v.is_number() || (or_null && v.is_null()), join(path, key), or_null ? "a number or null" : "a number", v);
}
void bool_at(const json& o, const std::string& path, std::string_view key) {
  expect(field(o, path, key).is_boolean(), join(path, key), "true or false", field(o, path, key));
}
void word_at(const json& o, const std::string& path, std::string_view key, std::initializer_list<std::string_view> words) {
  const auto& v = field(o, path, key);
  std::string list;
  for (auto w : words) list += (list.empty() ? "" : ", ") + std::string(w);
  const bool ok = v.is_string() && std::find(words.begin(), words.end(), v.get_ref<const std::string&>()) != words.end();
  expect(ok, join(path, key), "one of " + list, v);
}
// Calls each(element, its path) for every element of the array o[key].
template <class Each>
void array_at(const json& o, const std::string& path, std::string_view key, Each&& each) {
  const auto& v = field(o, path, key);
  const std::string p = join(path, key);
  expect(v.is_array(), p, "an array", v);
  for (std::size_t i = 0; i < v.size(); ++i) each(v[i], at(p, i));
}
void strings_at(const json& o, const std::string& path, std::string_view key) {
  array_at(o, path, key, [](const json& e, const std::string& p) { expect(e.is_string(), p, "a string", e); });
}
void object(const json& j, const std::string& path) { expect(j.is_object(), path, "an object", j); }
// [a, b] of numbers.
void pair_of_numbers(const json& j, const std::string& path) {
  expect(j.is_array() && j.size() == 2 && j[0].is_number() && j[1].is_number(), path, "[number, number]", j);
}

void check_finding(const json& f, const std::string& path) {
  object(f, path);
  string_at(f, path, "code");
  word_at(f, path, "severity", {"info", "warn", "fail"});
  array_at(f, path, "gpus", [](const json& g, const std::string& p) { expect(g.is_number_integer(), p, "a GPU index", g); });
  string_at(f, path, "message");
  const auto& evidence = object_at(f, path, "evidence");
  for (const auto& [key, value] : evidence.items()) expect(value.is_string(), join(path + ".evidence", key), "a string", value);
  string_at(f, path, "next_step");
}

void check_clause(const json& c, const std::string& path) {
  object(c, path);
  for (auto key : {"id", "title", "expected", "observed", "reason", "source", "stage", "unit"}) string_at(c, path, key);
  word_at(c, path, "status", {"pass", "fail", "not_run"});
  strings_at(c, path, "findings");
  if (c.contains("reason_parts")) strings_at(c, path, "reason_parts");  // since 0.1.0: optional
  number_at(c, path, "measured", true);
  number_at(c, path, "target", true);
}

void check_heatmap(const json& h, const std::string& path) {
  object(h, path);
  string_at(h, path, "title");
  string_at(h, path, "unit");
  strings_at(h, path, "rows");
  strings_at(h, path, "cols");
  array_at(h, path, "values", [](const json& row, const std::string& p) {
    expect(row.is_array(), p, "an array", row);
    for (std::size_t i = 0; i < row.size(); ++i) expect(row[i].is_number() || row[i].is_null(), at(p, i), "a number or null", row[i]);
  });
  number_at(h, path, "expected", true);
}

void check_series(const json& s, const std::string& path) {
  object(s, path);
  string_at(s, path, "title");
  string_at(s, path, "unit");
  array_at(s, path, "lines", [](const json& line, const std::string& p) {
    object(line, p);
    string_at(line, p, "name");
    array_at(line, p, "points", pair_of_numbers);
  });
  array_at(s, path, "spans", pair_of_numbers);
  array_at(s, path, "events", [](const json& e, const std::string& p) {
    object(e, p);
    number_at(e, p, "t_s");
    string_at(e, p, "label");
  });
}

void check_stage(const json& s, const std::string& path) {
  object(s, path);
  for (auto key : {"id", "title", "reason"}) string_at(s, path, key);
  word_at(s, path, "status", {"done", "not_run", "waived", "error"});
  number_at(s, path, "seconds");
  bool_at(s, path, "resumed");
  array_at(s, path, "clauses", check_clause);
  array_at(s, path, "findings", check_finding);
  array_at(s, path, "heatmaps", check_heatmap);
  array_at(s, path, "series", check_series);
  // steady_state (optional: the burn-in stage of reports written since gpuvet recorded it).
  if (const auto it = s.find("steady_state"); it != s.end() && !it->is_null()) {
    array_at(s, path, "steady_state", [](const json& g, const std::string& p) {
      object(g, p);
      expect(field(g, p, "gpu").is_number_integer(), join(p, "gpu"), "a GPU index", field(g, p, "gpu"));
      for (auto key : {"median_temp_c", "median_power_w", "median_sm_clock_mhz"}) number_at(g, p, key, true);
    });
  }
}

// identity (optional): strings or null, with the reasons of the nulls.
void check_identity(const json& id) {
  const std::string path = "identity";
  object(id, path);
  string_at(id, path, "source");
  bool_at(id, path, "simulated");
  auto string_or_null = [](const json& o, const std::string& p, std::string_view key) {
    const auto& v = field(o, p, key);
    expect(v.is_string() || v.is_null(), join(p, key), "a string or null", v);
  };
  string_or_null(id, path, "hostname");
  array_at(id, path, "software", [&](const json& s, const std::string& p) {
    object(s, p);
    for (auto key : {"key", "title", "source"}) string_at(s, p, key);
    string_or_null(s, p, "value");
    string_or_null(s, p, "absent");
  });
  array_at(id, path, "gpus", [&](const json& g, const std::string& p) {
    object(g, p);
    expect(field(g, p, "index").is_number_integer(), join(p, "index"), "a GPU index", field(g, p, "index"));
    for (auto key : {"name", "serial", "uuid", "pci_bus_id", "vbios", "board_part_number"}) string_or_null(g, p, key);
    const auto& absent = object_at(g, p, "absent");
    for (const auto& [key, value] : absent.items()) expect(value.is_string(), join(p + ".absent", key), "a string", value);
  });
}

void check_report(const json& j) {
  object(j, "(top level)");
  const auto& schema = field(j, "", "schema");
  if (!schema.is_string() || schema.get_ref<const std::string&>() != kAcceptReportSchema) {
    throw SchemaError{"schema", fmt::format("{}, this gpuvet reads \"{}\"", found(schema), kAcceptReportSchema)};
  }
  string_at(j, "", "tool_version");
  word_at(j, "", "verdict", {"pass", "fail", "incomplete"});
  strings_at(j, "", "why");
  const auto& spec = object_at(j, "", "spec");
  string_at(spec, "spec", "name");
  string_at(spec, "spec", "file");
  const auto& machine = object_at(j, "", "machine");
  for (auto key : {"source", "hostname", "driver_version", "cuda_version"}) string_at(machine, "machine", key);
  bool_at(machine, "machine", "simulated");
  string_at(j, "", "started_utc");
  string_at(j, "", "finished_utc");
  const auto& options = object_at(j, "", "options");
  bool_at(options, "options", "quick");
  bool_at(options, "options", "fail_fast");
  array_at(j, "", "stages", check_stage);
  array_at(j, "", "other_findings", check_finding);
  if (const auto it = j.find("identity"); it != j.end() && !it->is_null()) check_identity(*it);
}

}  // namespace

std::optional<core::Error> check_report_schema(std::string_view text, const std::string& file_name) {
  // Deep nesting would exhaust the stack of the parser's callers before any field is looked at.
  if (core::bracket_depth(text) > core::kMaxNestingDepth) {
    return core::input_error(fmt::format("{}: nested deeper than {} levels: not a gpuvet accept report", file_name,
                                         core::kMaxNestingDepth));
  }
  json j;
  try {
    j = json::parse(text);
  } catch (const json::exception& e) {
    return core::input_error(fmt::format("{}: not JSON: {}", file_name, e.what()));
  }
  try {
    check_report(j);
  } catch (const SchemaError& e) {
    return core::input_error(fmt::format("{}: {}: {} (schema {}, docs/json.md)", file_name, e.field, e.message, kAcceptReportSchema));
  }
  return std::nullopt;
}

}  // namespace gpuvet::accept
