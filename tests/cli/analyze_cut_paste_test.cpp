// gpuvet analyze on pastes cut short (issue 17, review r4 findings 2, 4, 8): a cut nvidia-smi -q
// is read up to the cut and keeps its findings; a cut last Rank line of an nccl-tests log names no
// new model or host; a benchmark log cut before its results is incomplete (exit 3), not bad input.
// Issue 20: a verdict on part of the machine is never a pass: a table, topo -m, -q, nvbandwidth log
// or collect file cut short is incomplete (exit 3), a failing finding still fails.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "cli_runner.hpp"

namespace gpuvet::testing {
namespace {

std::string read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Writes the first `bytes` bytes of a fixture to this test's own temporary folder; returns its path.
std::string cut_fixture(const std::string& relative, std::size_t bytes) {
  const auto dir = std::filesystem::temp_directory_path() / ("gpuvet-cut-paste-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto path = (dir / std::filesystem::path(relative).filename()).string();
  std::ofstream(path, std::ios::binary) << read(fixture(relative)).substr(0, bytes);
  return path;
}

// Writes `text` to this test's temporary folder under `name`; returns its path.
std::string write_text(const std::string& name, const std::string& text) {
  const auto dir = std::filesystem::temp_directory_path() / ("gpuvet-cut-paste-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto path = (dir / name).string();
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

// The first `lines` lines of a fixture, each with its line end (`head -n LINES`).
std::string head_lines(const std::string& relative, int lines) {
  const std::string text = read(fixture(relative));
  std::size_t at = 0;
  for (int i = 0; i < lines && at != std::string::npos; ++i) at = text.find('\n', at) + 1;
  return text.substr(0, at);
}

nlohmann::json analyze_json(const std::string& path, int& exit_code) {
  const auto run = run_cli({"analyze", "--json", path});
  exit_code = run.exit_code;
  return nlohmann::json::parse(run.out.empty() ? "{}" : run.out);
}

nlohmann::json finding(const nlohmann::json& report, const std::string& code) {
  for (const auto& f : report.value("findings", nlohmann::json::array())) {
    if (f["code"] == code) return f;
  }
  return nullptr;
}

bool unverified_says(const nlohmann::json& report, const std::string& part) {
  return report.value("unverified", nlohmann::json::array()).dump().find(part) != std::string::npos;
}

// The report wraps long lines: compare with every run of blanks and line ends made one space.
std::string flat(const std::string& text) {
  std::string out;
  for (const char c : text) {
    const bool blank = c == ' ' || c == '\n';
    if (blank && !out.empty() && out.back() == ' ') continue;
    out.push_back(blank ? ' ' : c);
  }
  return out;
}

bool mentions(const std::string& text, const std::string& part) { return flat(text).find(flat(part)) != std::string::npos; }

// The 4x A100 -q cut at 60 %: GPU 1's pending row remap still fails the machine, GPU 3 (after the
// cut) is a gpu_missing warning and the note names the cut.
TEST(AnalyzeCutPaste, CutSmiQueryKeepsItsFindings) {
  const std::string name = "smi-q/4x-a100-sxm4-80gb-nvidia-smi-q.txt";
  const auto size = read(fixture(name)).size();
  const auto path = cut_fixture(name, size * 6 / 10);
  const auto run = run_cli({"analyze", path});
  EXPECT_EQ(run.exit_code, 1) << run.out << run.err;
  EXPECT_TRUE(mentions(run.out, "FAIL  row_remap_pending")) << run.out;
  EXPECT_TRUE(mentions(run.out, "GPU 1 has a row remap pending")) << run.out;
  EXPECT_TRUE(mentions(run.out, "WARN  gpu_missing")) << run.out;
  EXPECT_TRUE(mentions(run.out, "The input shows 3 of 4 attached GPUs")) << run.out;
  EXPECT_TRUE(mentions(run.out, "the output is cut after GPU 1")) << run.out;
}

// Every tenth of the 8x H100 -q: read, never "bad input" (it was exit 2 at all ten).
TEST(AnalyzeCutPaste, SmiQueryCutAnywhereIsNotBadInput) {
  const std::string name = "smi-q/8x-h100-sxm5-80gb-hgx-nvidia-smi-q.txt";
  const auto size = read(fixture(name)).size();
  for (std::size_t tenth = 1; tenth < 10; ++tenth) {
    const auto run = run_cli({"analyze", cut_fixture(name, size * tenth / 10)});
    EXPECT_NE(run.exit_code, 2) << tenth << "/10: " << run.err;
    EXPECT_TRUE(mentions(run.out, "truncated")) << tenth << "/10: " << run.out;
  }
}


// The P100 init-failure log cut inside its last Rank line: no mixed inventory from a cut name,
// no second node from a cut host.
TEST(AnalyzeCutPaste, CutLastRankLineMakesNoNewModelOrHost) {
  const std::string name = "corpus/nccl/8x-p100-pcie-nccl1-unhandled-cuda-error-nccl-tests-5.txt";
  const auto by_name = run_cli({"analyze", cut_fixture(name, 276)});
  EXPECT_FALSE(mentions(by_name.out, "mixed_inventory")) << by_name.out;
  EXPECT_FALSE(mentions(by_name.out, "P100-PC on")) << by_name.out;
  const auto by_host = run_cli({"analyze", cut_fixture(name, 368)});
  EXPECT_FALSE(mentions(by_host.out, "2 nodes")) << by_host.out;
  EXPECT_FALSE(mentions(by_host.out, "n: 1 GPU")) << by_host.out;
  EXPECT_TRUE(mentions(by_host.out, "Host node03")) << by_host.out;
}

// nvbandwidth cut after its device list, p2pBandwidthLatencyTest cut inside a matrix header:
// incomplete measurements (exit 3) naming what is missing, like a header-only nccl-tests log.
TEST(AnalyzeCutPaste, BenchmarkCutBeforeItsResultsIsIncomplete) {
  const std::string nvb = "corpus/nvbandwidth/8x-a100-sxm4-80gb-d2d-read-ce-assert-pattern-v0.7-nvbandwidth-34.txt";
  const std::string nvb_text = read(fixture(nvb));
  const auto nvb_run = run_cli({"analyze", cut_fixture(nvb, nvb_text.find("Running"))});
  EXPECT_EQ(nvb_run.exit_code, 3) << nvb_run.out << nvb_run.err;
  EXPECT_TRUE(mentions(nvb_run.out, "no measured value")) << nvb_run.out;

  const std::string p2p = "p2p/4x-rtx6000ada-pcie-asus-esc8000a.txt";
  const std::string p2p_text = read(fixture(p2p));
  const auto header = p2p_text.find("D\\D");
  ASSERT_NE(header, std::string::npos);
  const auto p2p_run = run_cli({"analyze", cut_fixture(p2p, header + 12)});
  EXPECT_EQ(p2p_run.exit_code, 3) << p2p_run.out << p2p_run.err;
  EXPECT_TRUE(mentions(p2p_run.out, "no measured value")) << p2p_run.out;
}

// Issue 20, defect 1: the 8x RTX 6000 Ada table cut at any row boundary from `head -11` (GPU 0's
// block and its border) to `head -22` read as a 1- to 4-GPU machine that passed with no note.
TEST(AnalyzeCutPaste, DefaultTableCutAtARowBoundaryIsIncomplete) {
  const std::string name = "corpus/smi-table/8x-rtx6000ada-default-table-thamada.txt";
  for (int lines = 11; lines <= 22; ++lines) {
    SCOPED_TRACE("head -" + std::to_string(lines));
    int exit_code = -1;
    const auto report = analyze_json(write_text("table-head.txt", head_lines(name, lines)), exit_code);
    EXPECT_EQ(exit_code, 3);
    EXPECT_EQ(report["verdict"], "incomplete");
    const auto f = finding(report, "gpu_missing");
    ASSERT_FALSE(f.is_null()) << report.dump();
    EXPECT_EQ(f["severity"], "warn");
    EXPECT_TRUE(f["message"].get<std::string>().find("looks cut") != std::string::npos ||
                f["message"].get<std::string>().find("cut short") != std::string::npos)
        << f["message"];
    EXPECT_TRUE(unverified_says(report, "not seen")) << report["unverified"];
  }
  // The whole table still passes.
  int exit_code = -1;
  const auto whole = analyze_json(fixture(name), exit_code);
  EXPECT_EQ(exit_code, 0) << whole.dump();
  EXPECT_TRUE(finding(whole, "gpu_missing").is_null());
}

// Issue 20, defect 2: a topo -m with 3 GPUs in its header and one row passed (exit 0) with only
// "the interconnect cannot be classified from it" in a note.
TEST(AnalyzeCutPaste, TopoCutAfterItsFirstRowIsIncomplete) {
  for (const std::string name : {"topo/3x-rtx-a6000-nv4-bridge-pair-plus-node-ansi.txt",
                                 "topo/3gpu-mixed-rtx3090-plus-2x-v100-sxm2-nv6-homelab.txt"}) {
    SCOPED_TRACE(name);
    int exit_code = -1;
    const auto report = analyze_json(write_text("topo-head.txt", head_lines(name, 2)), exit_code);
    EXPECT_EQ(exit_code, 3);
    const auto f = finding(report, "gpu_missing");
    ASSERT_FALSE(f.is_null()) << report.dump();
    EXPECT_EQ(f["severity"], "warn");
    EXPECT_EQ(f["gpus"], nlohmann::json::array({1, 2}));
    EXPECT_NE(f["message"].get<std::string>().find("The input shows 1 of 3 attached GPUs"), std::string::npos) << f;
    EXPECT_NE(f["message"].get<std::string>().find("topo -m is truncated: 1 of 3 GPU rows complete"), std::string::npos) << f;
    EXPECT_TRUE(unverified_says(report, "GPUs 1, 2 not seen")) << report["unverified"];
    // The whole matrix: no GPU missing.
    const auto whole = analyze_json(fixture(name), exit_code);
    EXPECT_TRUE(finding(whole, "gpu_missing").is_null()) << whole.dump();
  }
}

// Issue 20, defect 3: the 4x A100 -q cut inside GPU 1's Product Name shows GPU 0 only; GPU 1, cut
// away, has the pending row remap. One GPU of four is no pass (it was exit 0 with a warning).
TEST(AnalyzeCutPaste, OneOfFourAttachedGpusIsIncomplete) {
  const std::string name = "smi-q/4x-a100-sxm4-80gb-nvidia-smi-q.txt";
  const std::string text = read(fixture(name));
  const auto gpu1 = text.find("GPU 00000000:9E:00.0");
  ASSERT_NE(gpu1, std::string::npos);
  int exit_code = -1;
  const auto report = analyze_json(cut_fixture(name, gpu1 + 40), exit_code);  // inside its Product Name
  EXPECT_EQ(exit_code, 3) << report.dump();
  EXPECT_EQ(report["gpus"].size(), 1u);
  const auto f = finding(report, "gpu_missing");
  ASSERT_FALSE(f.is_null()) << report.dump();
  EXPECT_EQ(f["severity"], "warn");
  EXPECT_TRUE(unverified_says(report, "GPUs 1-3 not seen: the input shows 1 of 4 attached GPUs")) << report["unverified"];
  // Cut after GPU 1: its pending remap still fails the machine (a FAIL stays a FAIL).
  const auto failing = analyze_json(cut_fixture(name, text.size() * 6 / 10), exit_code);
  EXPECT_EQ(exit_code, 1);
  EXPECT_EQ(failing["verdict"], "fail");
}

// Issue 20, defect 3: an nvbandwidth log cut after its first testcase judged the machine on one
// host-to-device copy row. v0.2 (no closing lines) and v0.8 (closing NOTE lines) alike.
TEST(AnalyzeCutPaste, NvbandwidthCutAfterItsFirstTestcaseIsIncomplete) {
  const std::string v02 = "nvbandwidth/8x-h800-sxm-nv8-full-run-v0.2.txt";
  const std::string v02_text = read(fixture(v02));
  int exit_code = -1;
  const auto first = analyze_json(cut_fixture(v02, v02_text.find("Running device_to_host_memcpy_ce")), exit_code);
  EXPECT_EQ(exit_code, 3) << first.dump();
  EXPECT_TRUE(unverified_says(first, "one testcase (host_to_device_memcpy_ce)")) << first["unverified"];
  const auto whole = analyze_json(fixture(v02), exit_code);
  EXPECT_FALSE(unverified_says(whole, "testcases after")) << whole["unverified"];
  EXPECT_FALSE(unverified_says(whole, "one testcase")) << whole["unverified"];

  const std::string v08 = "nvbandwidth/written-v0.8-pci-ids-waived-latency.txt";
  const std::string v08_text = read(fixture(v08));
  const auto cut = analyze_json(cut_fixture(v08, v08_text.find("Waived:")), exit_code);
  EXPECT_EQ(exit_code, 3) << cut.dump();
  EXPECT_TRUE(unverified_says(cut, "without the NOTE lines nvbandwidth v0.8 prints after its last testcase"))
      << cut["unverified"];
  const auto closed = analyze_json(fixture(v08), exit_code);
  EXPECT_FALSE(unverified_says(closed, "testcases after")) << closed["unverified"];
}

// A gpuvet collect file as collect writes it (the same sections as collect_cli_test's fake tools).
std::string collect_text(bool with_query) {
  std::string text = "### gpuvet-collect 1\n### host: node1\n### date: 2026-12-01T17:00:00Z\n### written by: gpuvet 0.1.0\n";
  if (with_query) {
    text += "### section: nvidia-smi -q -x\n### status: exit 0\n" + read(fixture("smi-q/2x-rtx-a5000-anonymised-nvidia-smi-q-x.xml"));
  }
  text += "### section: nvidia-smi topo -m\n### status: exit 0\n" + read(fixture("topo/2x-rtx6000ada-pcie-phb-2nic-threadripper.txt"));
  text += "### section: nvidia-smi nvlink -s\n### status: exit 0\n### section: ibstat\n### status: not found\n";
  return text + "### end\n";
}

// Issue 20, defect 4: a collect file cut before "### end", or without its nvidia-smi -q -x
// section, passed with no note.
TEST(AnalyzeCutPaste, CollectFileCutOrWithoutItsQuerySectionIsIncomplete) {
  int exit_code = -1;
  const auto whole = analyze_json(write_text("collect.txt", collect_text(true)), exit_code);
  ASSERT_EQ(exit_code, 0) << whole.dump();

  const std::string text = collect_text(true);
  const auto before_end = text.substr(0, text.rfind("### end"));
  const auto cut = run_cli({"analyze", write_text("collect-cut.txt", before_end)});
  EXPECT_EQ(cut.exit_code, 3) << cut.out << cut.err;
  EXPECT_TRUE(mentions(cut.out, "the gpuvet collect file is cut: it ends in the ibstat section")) << cut.out;
  // Cut at an earlier section boundary: the sections after it are not judged either.
  const auto at_nvlink = run_cli({"analyze", write_text("collect-cut2.txt", text.substr(0, text.find("### section: nvidia-smi nvlink -s")))});
  EXPECT_EQ(at_nvlink.exit_code, 3) << at_nvlink.out << at_nvlink.err;
  EXPECT_TRUE(mentions(at_nvlink.out, "cut in the nvidia-smi topo -m section")) << at_nvlink.out;

  const auto no_query = run_cli({"analyze", write_text("collect-no-q.txt", collect_text(false))});
  EXPECT_EQ(no_query.exit_code, 3) << no_query.out << no_query.err;
  EXPECT_TRUE(mentions(no_query.out, "the gpuvet collect file has no nvidia-smi -q -x output")) << no_query.out;
  EXPECT_TRUE(mentions(no_query.out, "no nvidia-smi -q -x section")) << no_query.out;
}

}  // namespace
}  // namespace gpuvet::testing
