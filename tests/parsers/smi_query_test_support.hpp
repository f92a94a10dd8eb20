// Helpers for the nvidia-smi -q parser tests: fixture names, file reading, dispatch by form, and
// the ground truth in tests/fixtures/truth.json.
#pragma once

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "parsers/smi_query_text_parser.hpp"
#include "parsers/smi_query_xml_parser.hpp"

namespace gpuvet::parsers::test {

// Every file in tests/fixtures/smi-q (a test checks the list against the folder and truth.json).
inline const std::vector<std::string>& smi_query_fixtures() {
  static const std::vector<std::string> kFiles = {
      "smi-q/10x-a40-pcie-nvidia-smi-q.txt",
      "smi-q/2x-h100-nvl-nvidia-smi-q.txt",
      "smi-q/2x-rtx-a5000-anonymised-nvidia-smi-q-x.xml",
      "smi-q/4x-a100-sxm4-80gb-nvidia-smi-q.txt",
      "smi-q/8x-a100-sxm4-40gb-nvidia-smi-a.txt",
      "smi-q/8x-h100-sxm5-80gb-hgx-nvidia-smi-q.txt",
      "smi-q/8x-rtx4090-nvidia-smi-q.txt",
      "smi-q/8x-v100-sxm2-16gb-nvidia-smi-q.txt",
      "smi-q/9x-rtx-a6000-nvidia-smi-q.txt",
      "smi-q/a100-sxm4-80gb-mig-enabled-trimmed-1of4-nvidia-smi-q-x.xml",
  };
  return kFiles;
}

inline bool is_xml(const std::string& name) { return name.size() > 4 && name.substr(name.size() - 4) == ".xml"; }

// Reads tests/fixtures/<relative>; empty string when the file is missing (tests assert non-empty).
inline std::string read_fixture(const std::string& relative) {
  std::ifstream in(std::string(GPUVET_FIXTURES) + "/" + relative, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

inline core::Result<core::Machine> parse_as(const std::string& name, std::string_view text) {
  return is_xml(name) ? parse_smi_query_xml(text, name) : parse_smi_query_text(text, name);
}

inline core::Result<core::Machine> parse_fixture(const std::string& relative) {
  return parse_as(relative, read_fixture(relative));
}

inline const nlohmann::json& truth() {
  static const nlohmann::json kTruth = nlohmann::json::parse(read_fixture("truth.json"), nullptr, false);
  return kTruth;
}

// GPU with this normalised bus id, or nullptr.
inline const core::Gpu* gpu_at(const core::Machine& machine, const std::string& bus_id) {
  for (const auto& gpu : machine.gpus) {
    if (gpu.pci_bus_id.known() && *gpu.pci_bus_id == bus_id) return &gpu;
  }
  return nullptr;
}

}  // namespace gpuvet::parsers::test
