// The corpus of real published outputs (tests/fixtures/corpus, provenance in its SOURCES.md) run
// through `gpuvet analyze --json` in-process: never an internal error; where truth.json records no
// gap the truth holds; where it records one, today's exit code is pinned (a fix fails this test on
// purpose: update "today" and empty "gap" in truth.json when it does).
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "cli_runner.hpp"

using gpuvet::testing::fixture;
using gpuvet::testing::run_cli;
using nlohmann::json;

namespace {

std::string read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

json corpus_truth() { return json::parse(read(fixture("corpus/truth.json"))); }

std::string class_name(const json& truth_class) {
  std::string s = truth_class.get<std::string>();
  for (auto& c : s) {
    if (c == '-') c = '_';
  }
  return s;
}

// The largest busbw any collective in the report printed, or NaN when there is none.
double peak_busbw(const json& report) {
  double peak = std::nan("");
  if (!report.contains("collectives") || !report["collectives"].is_array()) return peak;
  for (const auto& c : report["collectives"]) {
    if (c.contains("peak_busbw_gbps") && c["peak_busbw_gbps"].is_number()) {
      const double v = c["peak_busbw_gbps"].get<double>();
      if (std::isnan(peak) || v > peak) peak = v;
    }
  }
  return peak;
}

}  // namespace

TEST(Corpus, EveryFileHasATruthEntryAndEveryEntryAFile) {
  const json truth = corpus_truth();
  std::set<std::string> on_disk;
  const std::filesystem::path root = fixture("corpus");
  for (const auto& entry : std::filesystem::recursive_directory_iterator(root)) {
    if (!entry.is_regular_file()) continue;
    const auto rel = std::filesystem::relative(entry.path(), root).generic_string();
    if (rel == "SOURCES.md" || rel == "truth.json") continue;
    on_disk.insert(rel);
  }
  for (const auto& file : on_disk) EXPECT_TRUE(truth.contains(file)) << file << " has no entry in truth.json";
  for (const auto& [file, t] : truth.items()) EXPECT_TRUE(on_disk.count(file)) << file << " is in truth.json only";
  EXPECT_GE(on_disk.size(), 40u);
}

TEST(Corpus, AnalyzeNeverFailsInternallyAndMeetsTheTruthOrTodaysRecordedExit) {
  const json truth = corpus_truth();
  int signed_off = 0;
  int gaps = 0;
  for (const auto& [file, t] : truth.items()) {
    SCOPED_TRACE(file);
    const auto run = run_cli({"analyze", fixture("corpus/" + file), "--json"});
    ASSERT_NE(run.exit_code, 5) << "internal error: " << run.err;
    // Finding codes the truth requires (the anomalies and failures the file shows), gap or not.
    if (t.contains("must_find")) {
      const json report = json::parse(run.out);
      std::set<std::string> codes;
      for (const auto& f : report["findings"]) codes.insert(f["code"].get<std::string>());
      for (const auto& code : t["must_find"]) EXPECT_TRUE(codes.count(code.get<std::string>())) << "no " << code << " finding";
    }
    const std::string gap = t.value("gap", "");
    if (!gap.empty()) {
      ++gaps;
      std::cout << "[ gap      ] " << file << ": " << gap << "\n";
      // Ratchet: a change here means gpuvet now reads this file differently. Check it against the
      // truth, then update "today" (and "gap") in tests/fixtures/corpus/truth.json.
      EXPECT_EQ(run.exit_code, t["today"]["exit"].get<int>()) << "gap was: " << gap << "\n" << run.err;
      continue;
    }
    ++signed_off;
    ASSERT_TRUE(run.exit_code == 0 || run.exit_code == 1 || run.exit_code == 3) << run.err;
    const json report = json::parse(run.out);
    if (!t["interconnect"].is_null()) {
      EXPECT_EQ(report["interconnect"]["class"].get<std::string>(), class_name(t["interconnect"]));
    }
    if (!t["gpus"].is_null()) {
      EXPECT_EQ(report["gpus"].size(), t["gpus"].get<size_t>());
    }
    // topo -m names no model: "model" there is the machine's, from the thread, not the file's.
    if (!t["model"].is_null() && t["kind"] != "topo") {
      ASSERT_FALSE(report["gpus"].empty());
      const auto& name = report["gpus"][0]["name"];
      ASSERT_TRUE(name.is_string());
      EXPECT_NE(name.get<std::string>().find(t["model"].get<std::string>()), std::string::npos) << name;
    }
    // The GPUs' CPU-side NUMA nodes, by GPU position (null: unknown from the file).
    if (t.contains("numa_node") && t["numa_node"].is_array()) {
      ASSERT_EQ(report["gpus"].size(), t["numa_node"].size());
      for (size_t i = 0; i < t["numa_node"].size(); ++i) {
        const auto& want = t["numa_node"][i];
        const auto& got = report["gpus"][i]["numa_node"];
        if (want.is_null()) EXPECT_FALSE(got.is_number()) << "GPU position " << i << ": " << got;
        else EXPECT_EQ(got, want) << "GPU position " << i;
      }
    }
    if (t.contains("peak_busbw") && t["peak_busbw"].is_number()) {
      EXPECT_NEAR(peak_busbw(report), t["peak_busbw"].get<double>(), 0.01);
    }
    if (t.contains("avg_busbw") && t["avg_busbw"].is_number()) {
      ASSERT_FALSE(report["collectives"].empty());
      EXPECT_NEAR(report["collectives"][0]["printed_avg_busbw_gbps"].get<double>(), t["avg_busbw"].get<double>(), 1e-4);
    }
  }
  std::cout << "[ corpus   ] " << signed_off << " files meet the truth, " << gaps << " have a recorded gap\n";
  EXPECT_GE(signed_off + gaps, 40);
}
