// nccl-tests -J JSON output -> core::CollectiveRun. Format read from NVIDIA/nccl-tests a0b82b2,
// src/util.cu (JSON_FILE_VERSION 3): jsonOutputInit writes version, start_time, args[], env[],
// nccl_version (a code); writeDeviceReport writes config{nthreads, ngpus, ..., validation,
// devices[{rank, group, pid, hostname, device, device_hex, device_info}]} with one device
// entry per process; writeBenchmarkLine* write results[{size, count, type, redop, root (a
// "%6i" string), out_of_place|in_place {time|cpu_time, alg_bw, bus_bw, nwrong (null when not
// checked)}, actual_iterations, experiment_name}] (out_of_place is null for in-place-only
// runs); writeResultFooter writes average_bus_bandwidth{bandwidth, okay}; writeErrors errors[].
// Doubles are "%lf" or the string "nan"; booleans are the strings "true"/"false".
#include <fmt/format.h>
#include <limits>
#include <set>

#include <nlohmann/json.hpp>

#include "core/text_safety.hpp"
#include "parsers/bandwidth_plausibility.hpp"
#include "parsers/nccl_tests_infer.hpp"
#include "parsers/nccl_tests_parser.hpp"
#include "parsers/text_lines.hpp"

namespace gpuvet::parsers {

namespace {

using Json = nlohmann::json;

struct JsonError {
  std::string where;
  std::string what;
};

const Json* member(const Json& object, const char* key) {
  if (!object.is_object()) return nullptr;
  const auto it = object.find(key);
  return it == object.end() ? nullptr : &*it;
}

double number_at(const Json& object, const char* key, const std::string& where) {
  const Json* v = member(object, key);
  if (v == nullptr || !v->is_number()) throw JsonError{where + "." + key, "expected a number"};
  return v->get<double>();
}

std::uint64_t count_at(const Json& object, const char* key, const std::string& where) {
  const Json* v = member(object, key);
  if (v == nullptr || !v->is_number_integer() || v->get<long long>() < 0) {
    throw JsonError{where + "." + key, "expected a whole number >= 0"};
  }
  return v->get<std::uint64_t>();
}

core::CollectiveResult read_result(const Json& row, const char* key, const std::string& where) {
  core::CollectiveResult r;
  const Json* g = member(row, key);
  const std::string at = where + "." + key;
  if (g == nullptr || g->is_null()) {
    const auto absent = core::Absent{std::string(key) + " not run (in-place only run)"};
    r.time_us = absent;
    r.algbw_gbps = absent;
    r.busbw_gbps = absent;
    r.wrong = absent;
    return r;
  }
  if (!g->is_object()) throw JsonError{at, "expected an object or null"};
  r.time_us = number_at(*g, member(*g, "cpu_time") != nullptr ? "cpu_time" : "time", at);
  const double algbw = number_at(*g, "alg_bw", at);
  const double busbw = number_at(*g, "bus_bw", at);
  // As in the text table: algbw has no ceiling on one rank (busbw 0), where nothing crosses a link.
  if (const auto why = implausible_gbps(busbw)) throw JsonError{at + ".bus_bw", fmt::format("{} {}", busbw, *why)};
  if (const auto why = implausible_gbps(algbw, busbw == 0 ? std::numeric_limits<double>::infinity() : kMaxPlausibleGbps)) {
    throw JsonError{at + ".alg_bw", fmt::format("{} {}", algbw, *why)};
  }
  r.algbw_gbps = algbw;
  r.busbw_gbps = busbw;
  const Json* w = member(*g, "nwrong");
  if (w == nullptr || w->is_null()) {
    r.wrong = core::Reading<std::int64_t>::absent("not checked (validation off, -c 0): nwrong is null");
  } else if (w->is_number() && w->get<double>() >= 0 && w->get<double>() < 9e18) {
    r.wrong = static_cast<std::int64_t>(w->get<double>() + 0.5);
  } else {
    throw JsonError{at + ".nwrong", "expected a count or null"};
  }
  return r;
}

core::CollectiveRow read_row(const Json& row, const std::string& where) {
  if (!row.is_object()) throw JsonError{where, "expected an object"};
  core::CollectiveRow r;
  r.size_bytes = count_at(row, "size", where);
  r.count = count_at(row, "count", where);
  const Json* type = member(row, "type");
  if (type == nullptr || !type->is_string()) throw JsonError{where + ".type", "expected a string"};
  r.type = type->get<std::string>();
  const Json* redop = member(row, "redop");
  if (redop != nullptr && redop->is_string() && !trim(redop->get<std::string>()).empty()) {
    r.redop = std::string(trim(redop->get<std::string>()));
  } else {
    r.redop = core::Reading<std::string>::absent("redop is blank");
  }
  const Json* root = member(row, "root");
  if (root != nullptr && root->is_string()) {
    const auto v = parse_nccl_number(trim(root->get<std::string>()));
    if (!v || *v < -1e9 || *v > 1e9) throw JsonError{where + ".root", "expected an integer in a string"};
    r.root = static_cast<int>(*v);
  } else if (root != nullptr && root->is_number_integer()) {
    r.root = root->get<int>();
  } else {
    r.root = core::Reading<int>::absent("no root");
  }
  r.out_of_place = read_result(row, "out_of_place", where);
  r.in_place = read_result(row, "in_place", where);
  return r;
}

void read_config(const Json& doc, core::CollectiveRun& run) {
  const Json* config = member(doc, "config");
  const Json* devices = config == nullptr ? nullptr : member(*config, "devices");
  const Json* threads = config == nullptr ? nullptr : member(*config, "nthreads");
  const Json* gpus = config == nullptr ? nullptr : member(*config, "ngpus");
  if (devices == nullptr || !devices->is_array() || devices->empty()) {
    run.nodes = core::Reading<int>::absent("the JSON lists no devices");
    return;
  }
  std::set<std::string> hosts;
  for (const auto& d : *devices) {
    const Json* host = member(d, "hostname");
    if (host != nullptr && host->is_string()) hosts.insert(host->get<std::string>());
  }
  if (!hosts.empty()) run.nodes = static_cast<int>(hosts.size());
  auto small = [](const Json* v) { return v != nullptr && v->is_number_integer() && v->get<long long>() >= 1 && v->get<long long>() <= 4096; };
  if (!small(threads) || !small(gpus) || threads->get<long long>() * gpus->get<long long>() *
                                                static_cast<long long>(devices->size()) > 1 << 24) {
    run.ranks = core::Reading<int>::absent("config.nthreads/ngpus missing or out of range");
    return;
  }
  const int per_process = threads->get<int>() * gpus->get<int>();
  run.ranks = per_process * static_cast<int>(devices->size());
  if (per_process == 1) {
    for (const auto& d : *devices) {
      const Json* info = member(d, "device_info");
      run.device_names.push_back(info != nullptr && info->is_string() ? info->get<std::string>() : "");
    }
  } else {
    run.notes.push_back("the JSON lists one device per process (" + std::to_string(per_process) +
                        " GPUs each); device_names left empty");
  }
}

}  // namespace

core::Result<core::CollectiveRun> parse_nccl_tests_json(std::string_view text, const std::string& file_name) {
  // nlohmann's parser and destructor walk nested values; thousands of levels must not reach them.
  if (const auto depth = core::bracket_depth(text); depth > core::kMaxNestingDepth) {
    return core::input_error(fmt::format("{}: JSON nested {} levels deep, more than the {} any nccl-tests -J output has",
                                         file_name, depth, core::kMaxNestingDepth));
  }
  const Json doc = Json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) return core::input_error(file_name + ": not valid JSON");
  if (!doc.is_object()) return core::input_error(file_name + ": expected a JSON object (nccl-tests -J output)");
  try {
    const Json* results = member(doc, "results");
    if (results == nullptr || !results->is_array()) {
      throw JsonError{"results", "missing: not nccl-tests -J output, or the run stopped before its table"};
    }
    core::CollectiveRun run;
    run.source = "nccl-tests (" + file_name + ")";
    for (size_t i = 0; i < results->size(); ++i) {
      run.rows.push_back(read_row((*results)[i], "results[" + std::to_string(i) + "]"));
    }
    if (run.rows.empty()) throw JsonError{"results", "no result rows"};
    read_config(doc, run);
    std::optional<std::string> binary_op;
    const Json* args = member(doc, "args");
    if (args != nullptr && args->is_array() && !args->empty() && (*args)[0].is_string()) {
      binary_op = nccl_op_from_binary((*args)[0].get<std::string>());
    }
    NcclColumns columns;
    columns.known = columns.has_redop = columns.has_root = true;
    run.op = choose_nccl_op(binary_op, run.rows, columns, run.ranks, NcclPrecision::json, file_name, run.notes);
    if (!run.ranks) run.ranks = infer_nccl_ranks(run.op, run.rows, NcclPrecision::json, run.notes);
    const Json* version = member(doc, "nccl_version");
    if (version != nullptr && version->is_number_integer() && version->get<int>() > 0) {
      run.nccl_version = nccl_version_from_code(version->get<int>());
    }
    const Json* avg = member(doc, "average_bus_bandwidth");
    const Json* bw = avg == nullptr ? nullptr : member(*avg, "bandwidth");
    if (bw != nullptr && bw->is_number()) {
      if (const auto why = implausible_gbps(bw->get<double>())) {
        throw JsonError{"average_bus_bandwidth.bandwidth", fmt::format("{} {}", bw->get<double>(), *why)};
      }
    }
    run.printed_avg_busbw_gbps = bw != nullptr && bw->is_number()
                                     ? core::Reading<double>(bw->get<double>())
                                     : core::Reading<double>::absent("no average_bus_bandwidth in the JSON");
    const Json* errors = member(doc, "errors");
    if (errors != nullptr && errors->is_array()) {
      for (const auto& e : *errors) {
        if (e.is_string()) run.notes.push_back("nccl-tests reported: " + e.get<std::string>());
      }
    }
    return run;
  } catch (const JsonError& e) {
    return core::input_error(file_name + ": " + e.where + ": " + e.what);
  } catch (const nlohmann::json::exception& e) {
    return core::input_error(file_name + ": unexpected JSON shape: " + e.what());
  }
}

}  // namespace gpuvet::parsers
