// Test helpers for the pasted-output parsers: read a fixture byte for byte, list a fixture
// folder, and the ground truth in tests/fixtures/truth.json (copied from shared/fixtures).
#pragma once

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace gpuvet::parsers::testing {

inline std::string fixture_path(const std::string& relative) { return std::string(GPUVET_FIXTURES) + "/" + relative; }

inline std::string read_fixture(const std::string& relative) {
  std::ifstream in(fixture_path(relative), std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

// "topo/x.txt", ... sorted; empty when the folder is missing.
inline std::vector<std::string> fixture_files(const std::string& subdir) {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(fixture_path(subdir), ec)) {
    if (e.is_regular_file()) out.push_back(subdir + "/" + e.path().filename().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

inline const nlohmann::json& truth() {
  static const nlohmann::json kTruth = nlohmann::json::parse(read_fixture("truth.json"));
  return kTruth;
}

}  // namespace gpuvet::parsers::testing
