// What was accepted, by name: versions.json and the reports list every GPU's serial, UUID, bus id,
// VBIOS and part number and the software versions; unknown values keep their reason; report.json
// round-trips them. Without --out, accept writes to a new dated directory and says where.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>

#include <unistd.h>

#include "accept/accept_json.hpp"
#include "accept/compare.hpp"
#include "accept_test_support.hpp"
#include "backends/sim/simulator.hpp"
#include "bundle/default_out_dir.hpp"
#include "cli_runner.hpp"
#include "core/machine_identity.hpp"

namespace gpuvet::accept::testing {
namespace {

namespace fs = std::filesystem;
using gpuvet::testing::run_cli;
using nlohmann::json;

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

core::Machine sim(const std::string& profile) { return sim::simulate_machine(profile, {}).value(); }

TEST(Identity, GpusAndDriverFromTheMachineUnknownsNameTheSource) {
  auto m = sim("hgx-h100-8x");
  m.gpus[3].serial = core::Reading<std::string>();  // "not reported"
  m.gpus[5].vbios = core::Reading<std::string>::absent("NVML_ERROR_NOT_SUPPORTED");
  const auto id = core::identity_of(m, {{"kernel", "Linux kernel", std::string("6.8.0"), "/proc/sys/kernel/osrelease"}});
  ASSERT_EQ(id.gpus.size(), 8u);
  EXPECT_EQ(id.gpus[0].uuid.value(), m.gpus[0].uuid.value());
  EXPECT_EQ(id.gpus[7].pci_bus_id.value(), "0000:db:00.0");
  EXPECT_EQ(core::identity_text(id.gpus[3].serial), "unknown (not reported by simulated: hgx-h100-8x)");
  EXPECT_EQ(core::identity_text(id.gpus[5].vbios), "unknown (NVML_ERROR_NOT_SUPPORTED)");
  ASSERT_EQ(id.software.size(), 3u);
  EXPECT_EQ(id.software[0].key, "driver");
  EXPECT_EQ(id.software[0].value.value(), "565.57.01");
  EXPECT_EQ(id.software[1].key, "cuda_driver_api");
  EXPECT_EQ(id.software[2].key, "kernel");
  EXPECT_TRUE(id.simulated);
}

TEST(Identity, ReportJsonRoundTripsValuesAndReasons) {
  AcceptReport r;
  r.tool_version = "0.1.0";
  r.driver_version = "n/a";
  r.identity = core::identity_of(sim("l40s-8x"), {{"fabric_manager", "NVIDIA fabric manager",
                                                    core::Reading<std::string>::absent("no fabric manager found"), "x"}});
  r.identity->gpus[1].board_part_number = core::Reading<std::string>::absent("not reported by NVML");
  const auto text = render_report_json(r);
  auto back = parse_report_json(text, "report.json");
  ASSERT_TRUE(back) << back.error().message;
  ASSERT_TRUE(back->identity);
  EXPECT_EQ(back->identity->gpus[1].board_part_number.reason(), "not reported by NVML");
  EXPECT_EQ(back->identity->gpus[0].serial, r.identity->gpus[0].serial);
  EXPECT_EQ(back->identity->software.back().value.reason(), "no fabric manager found");
  EXPECT_EQ(render_report_json(*back), text);
  // versions.json: null with the reason, never "" or 0; "n/a" in the summary is null here.
  const auto v = json::parse(render_versions_json(r));
  EXPECT_EQ(v["schema"], "gpuvet.versions/1");
  EXPECT_TRUE(v["driver_version"].is_null());
  EXPECT_TRUE(v["gpus"][1]["board_part_number"].is_null());
  EXPECT_EQ(v["gpus"][1]["absent"]["board_part_number"], "not reported by NVML");
  EXPECT_EQ(v["software"].back()["absent"], "no fabric manager found");
  // A report written before identity existed still reads.
  auto old = json::parse(text);
  old.erase("identity");
  auto without = parse_report_json(old.dump(), "old/report.json");
  ASSERT_TRUE(without);
  EXPECT_FALSE(without->identity);
}

TEST(DefaultOutDir, DatedNameAndNeverAnExistingDirectory) {
  EXPECT_EQ(bundle::default_out_dir_name("gpu-node-07.example", 0), "gpuvet-accept-gpu-node-07.example-19700101T000000Z");
  EXPECT_EQ(bundle::default_out_dir_name("../a b/", 86399), "gpuvet-accept-ab-19700101T235959Z");
  EXPECT_EQ(bundle::default_out_dir_name("", 0), "gpuvet-accept-unknown-host-19700101T000000Z");
  const auto base = fs::temp_directory_path() / ("gpuvet-default-out-" + std::to_string(::getpid()));
  fs::remove_all(base);
  fs::create_directories(base);
  const auto first = bundle::create_default_out_dir(base, "h", 0);
  const auto second = bundle::create_default_out_dir(base, "h", 0);
  std::ofstream(base / "gpuvet-accept-h-19700101T000000Z-3") << "a file, not a directory";
  const auto fourth = bundle::create_default_out_dir(base, "h", 0);
  ASSERT_TRUE(first && second && fourth);
  EXPECT_EQ(first->filename(), "gpuvet-accept-h-19700101T000000Z");
  EXPECT_EQ(second->filename(), "gpuvet-accept-h-19700101T000000Z-2");
  EXPECT_EQ(fourth->filename(), "gpuvet-accept-h-19700101T000000Z-4");
  fs::remove_all(base);
}

class IdentityCli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("gpuvet-identity-" + std::to_string(::getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    std::ofstream(dir_ / "spec.yaml") << gates_only("hgx-h100-8x");
    old_cwd_ = fs::current_path();
    fs::current_path(dir_);
  }
  void TearDown() override {
    fs::current_path(old_cwd_);
    fs::remove_all(dir_);
  }
  fs::path dir_;
  fs::path old_cwd_;
};

TEST_F(IdentityCli, BundleNamesEveryGpuAndVersionAndTheDefaultDirectoryIsSaid) {
  auto run = run_cli({"accept", "--spec", "spec.yaml", "--sim", "hgx-h100-8x"});
  ASSERT_EQ(run.exit_code, 0) << run.out << run.err;
  std::vector<fs::path> made;
  for (const auto& e : fs::directory_iterator(dir_)) {
    if (e.is_directory()) made.push_back(e.path());
  }
  ASSERT_EQ(made.size(), 1u);
  const std::string name = made[0].filename().string();
  EXPECT_EQ(name.rfind("gpuvet-accept-sim-hgx-h100-8x-", 0), 0u) << name;
  EXPECT_NE(run.err.find("writing the evidence bundle to " + name), std::string::npos) << run.err;
  EXPECT_NE(run.out.find("Evidence bundle: " + name), std::string::npos) << run.out;
  EXPECT_EQ(run_cli({"verify", name}).exit_code, 0);
  // versions.json matches machine.json GPU by GPU; host software from the profile, simulated.
  const auto versions = json::parse(read(made[0] / "versions.json"));
  const auto machine = json::parse(read(made[0] / "machine.json"));
  ASSERT_EQ(versions["gpus"].size(), 8u);
  for (std::size_t i = 0; i < 8; ++i) {
    for (const char* key : {"serial", "uuid", "pci_bus_id", "vbios", "board_part_number"}) {
      EXPECT_EQ(versions["gpus"][i][key], machine["gpus"][i][key]) << i << " " << key;
      EXPECT_TRUE(versions["gpus"][i][key].is_string()) << i << " " << key;
    }
  }
  std::map<std::string, json> sw;
  for (const auto& s : versions["software"]) sw[s["key"]] = s;
  EXPECT_EQ(sw["nccl"]["value"], "2.23.4 (simulated)");
  EXPECT_EQ(sw["kernel"]["value"], "5.15.0-124-generic (simulated)");
  EXPECT_TRUE(sw["cublas"]["value"].is_null());
  EXPECT_EQ(sw["cublas"]["absent"], "not stated by simulator profile hgx-h100-8x");
  // The reports carry the same: every serial in report.md and report.html.
  const auto md = read(made[0] / "report.md");
  const auto html = read(made[0] / "report.html");
  EXPECT_NE(md.find("## What was accepted"), std::string::npos);
  EXPECT_NE(html.find("<h2 id=\"identity\">What was accepted</h2>"), std::string::npos);
  for (const auto& g : machine["gpus"]) {
    EXPECT_NE(md.find(g["serial"].get<std::string>()), std::string::npos);
    EXPECT_NE(html.find(g["uuid"].get<std::string>()), std::string::npos);
  }
  // A second run in the same second never reuses the directory; --no-bundle writes none.
  ASSERT_EQ(run_cli({"accept", "--spec", "spec.yaml", "--sim", "hgx-h100-8x"}).exit_code, 0);
  EXPECT_EQ(run_cli({"accept", "--no-bundle", "--spec", "spec.yaml", "--sim", "hgx-h100-8x"}).exit_code, 0);
  int dirs = 0;
  for (const auto& e : fs::directory_iterator(dir_)) dirs += e.is_directory() ? 1 : 0;
  EXPECT_EQ(dirs, 2);
  EXPECT_EQ(run_cli({"accept", "--no-bundle", "--out", "x", "--spec", "spec.yaml", "--sim", "hgx-h100-8x"}).exit_code, 2);
}

TEST_F(IdentityCli, AProfileWithoutSoftwareSaysSo) {
  std::ofstream("l40s.yaml") << gates_only("l40s-8x");
  auto run = run_cli({"accept", "--spec", "l40s.yaml", "--sim", "l40s-8x", "--out", "b"});
  ASSERT_NE(run.exit_code, 2) << run.err;
  const auto versions = json::parse(read(dir_ / "b" / "versions.json"));
  for (const auto& s : versions["software"]) {
    if (s["key"] == "driver" || s["key"] == "cuda_driver_api") continue;
    EXPECT_TRUE(s["value"].is_null()) << s.dump();
    EXPECT_EQ(s["absent"], "not stated by simulator profile l40s-8x") << s.dump();
  }
}

}  // namespace
}  // namespace gpuvet::accept::testing

namespace gpuvet::accept::testing {
namespace {

#ifdef GPUVET_FAKE_NVML_FULL
// A live run (the fake libnvidia-ml.so.1 serving a profile through the real NVML ABI): GPUs from
// NVML; kernel, OS and fabric manager from files under --sysfs-root, which this fixture lacks, so
// each is unknown with the path it looked at, never blank.
TEST(IdentityLive, GpusFromNvmlHostFilesUnderTheRoot) {
  const auto dir = fs::temp_directory_path() / ("gpuvet-identity-live-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::ofstream(dir / "spec.yaml") << gates_only("hgx-h100-8x");
  setenv("GPUVET_NVML_LIBRARY", GPUVET_FAKE_NVML_FULL, 1);
  setenv("GPUVET_FAKE_NVML_PROFILE", "hgx-h100-8x", 1);
  const std::string sysfs = std::string(GPUVET_FIXTURES) + "/sysfs/hgx-2socket";
  auto run = run_cli({"accept", "--spec", (dir / "spec.yaml").string(), "--out", (dir / "b").string(), "--sysfs-root", sysfs});
  unsetenv("GPUVET_FAKE_NVML_PROFILE");
  unsetenv("GPUVET_NVML_LIBRARY");
  ASSERT_NE(run.exit_code, 2) << run.err;
  const auto versions = json::parse(read(dir / "b" / "versions.json"));
  const auto machine = json::parse(read(dir / "b" / "machine.json"));
  EXPECT_FALSE(versions["simulated"].get<bool>());
  ASSERT_EQ(versions["gpus"].size(), machine["gpus"].size());
  ASSERT_FALSE(versions["gpus"].empty());
  EXPECT_EQ(versions["gpus"][0]["serial"], machine["gpus"][0]["serial"]);
  EXPECT_EQ(versions["gpus"][0]["uuid"], machine["gpus"][0]["uuid"]);
  std::map<std::string, json> sw;
  for (const auto& s : versions["software"]) {
    sw[s["key"]] = s;
    if (s["value"].is_null()) {
      EXPECT_TRUE(s["absent"].is_string() && !s["absent"].get<std::string>().empty()) << s.dump();
    } else {
      EXPECT_FALSE(s["value"].get<std::string>().empty()) << s.dump();
    }
  }
  EXPECT_EQ(sw["driver"]["source"], "NVML");
  EXPECT_TRUE(sw["driver"]["value"].is_string());
  EXPECT_NE(sw["kernel"]["absent"].get<std::string>().find("/proc/sys/kernel/osrelease"), std::string::npos);
  EXPECT_NE(sw["fabric_manager"]["absent"].get<std::string>().find("no fabric manager found"), std::string::npos);
  for (const char* key : {"cuda_toolkit", "nccl", "cublas", "os"}) EXPECT_EQ(sw.count(key), 1u) << key;
  fs::remove_all(dir);
}
#endif

// compare checks the identity section's shape like the rest of report.json.
TEST(IdentitySchema, CompareRefusesAMistypedIdentity) {
  AcceptReport r;
  r.tool_version = "0.1.0";
  r.identity = core::identity_of(sim("hgx-h100-8x"), {});
  auto j = json::parse(render_report_json(r));
  EXPECT_FALSE(check_report_schema(j.dump(), "a/report.json"));
  j["identity"]["gpus"][2]["serial"] = 12345;
  const auto e = check_report_schema(j.dump(), "a/report.json");
  ASSERT_TRUE(e);
  EXPECT_NE(e->message.find("a/report.json: identity.gpus[2].serial: expected a string or null, found number"), std::string::npos)
      << e->message;
}

}  // namespace
}  // namespace gpuvet::accept::testing
