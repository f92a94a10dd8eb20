// "measurements": {"bandwidth": [run...], "vram": {...}} (docs/json.md).
#include "report/measurements_json.hpp"

namespace gpuvet::report {
namespace {

using nlohmann::ordered_json;

template <class T>
ordered_json value_or_null(const core::Reading<T>& r) {
  return r ? ordered_json(*r) : ordered_json(nullptr);
}

ordered_json matrix_json(const core::BandwidthMatrix& mx) {
  ordered_json j;
  j["testcase"] = mx.testcase;
  j["title"] = mx.title;
  j["unit"] = mx.unit;
  j["row_labels"] = mx.row_labels;
  j["column_labels"] = mx.column_labels;
  ordered_json values = ordered_json::array();
  ordered_json absent = ordered_json::object();
  for (std::size_t r = 0; r < mx.values.size(); ++r) {
    ordered_json row = ordered_json::array();
    for (std::size_t c = 0; c < mx.values[r].size(); ++c) {
      const auto& v = mx.values[r][c];
      row.push_back(value_or_null(v));
      const bool self = mx.row_labels.size() > r && mx.column_labels.size() > c && mx.row_labels[r] == mx.column_labels[c];
      if (!v && !self && r < mx.row_labels.size() && c < mx.column_labels.size()) {
        absent[mx.row_labels[r] + "," + mx.column_labels[c]] = v.reason();
      }
    }
    values.push_back(row);
  }
  j["values"] = values;
  j["absent"] = absent;
  j["status"] = value_or_null(mx.status);
  return j;
}

ordered_json vram_json(const core::VramRun& run) {
  ordered_json j;
  j["source"] = run.source;
  j["seed"] = run.seed;
  ordered_json gpus = ordered_json::array();
  for (const auto& c : run.gpus) {
    ordered_json g;
    g["gpu"] = c.gpu;
    g["name"] = c.name;
    g["total_bytes"] = value_or_null(c.total_bytes);
    g["tested_bytes"] = value_or_null(c.tested_bytes);
    g["patterns"] = c.patterns;
    ordered_json bad = ordered_json::array();
    for (const auto& m : c.miscompares) {
      bad.push_back({{"pattern", m.pattern}, {"first_offset", m.first_offset}, {"last_offset", m.last_offset}, {"words", m.words}});
    }
    g["miscompares"] = bad;
    g["seconds"] = value_or_null(c.seconds);
    g["error"] = value_or_null(c.error);
    gpus.push_back(g);
  }
  j["gpus"] = gpus;
  return j;
}

}  // namespace

nlohmann::ordered_json measurements_json(const Measurements& measurements) {
  ordered_json j;
  ordered_json runs = ordered_json::array();
  for (const auto& run : measurements.bandwidth) {
    ordered_json r;
    r["tool"] = run.tool;
    r["source"] = run.source;
    r["device_names"] = run.device_names;
    if (run.p2p_access) {
      r["p2p_access"] = *run.p2p_access;
    } else {
      r["p2p_access"] = nullptr;
    }
    ordered_json matrices = ordered_json::array();
    for (const auto& mx : run.matrices) matrices.push_back(matrix_json(mx));
    r["matrices"] = matrices;
    r["notes"] = run.notes;
    runs.push_back(r);
  }
  j["bandwidth"] = runs;
  j["vram"] = measurements.vram ? vram_json(*measurements.vram) : ordered_json(nullptr);
  return j;
}

}  // namespace gpuvet::report
