// gpuvet collect: runs the read-only tools whose outputs analyze reads (nvidia-smi -q -x, topo -m,
// nvlink -s/-e, ibstat, ibv_devinfo, lscpu, driver and fabric manager versions) and prints them
// as one file with "### section:" markers (docs/collect.md), for `gpuvet analyze FILE` elsewhere.
// scripts/gpuvet-collect.sh writes the same format on machines without gpuvet.
#include <ctime>
#include <ostream>

#include <fmt/format.h>

#include "cli/commands.hpp"
#include "parsers/paste_sections.hpp"
#include "platform/environment.hpp"
#include "platform/process_runner.hpp"

namespace gpuvet::cli {

namespace {

// Every command only reads: none changes GPU, NIC or driver state.
struct Collected {
  std::string label;
  std::vector<std::string> argv;
};
const std::vector<Collected>& collected_commands() {
  static const std::vector<Collected> kCommands = {
      {std::string(parsers::kQueryXmlLabel), {"nvidia-smi", "-q", "-x"}},
      {"nvidia-smi topo -m", {"nvidia-smi", "topo", "-m"}},
      {"nvidia-smi nvlink -s", {"nvidia-smi", "nvlink", "-s"}},
      {"nvidia-smi nvlink -e", {"nvidia-smi", "nvlink", "-e"}},
      {"ibstat", {"ibstat"}},
      {"ibv_devinfo", {"ibv_devinfo"}},
      {"lscpu", {"lscpu"}},
      {"driver version", {"cat", "/proc/driver/nvidia/version"}},
      {"fabric manager version", {"nv-fabricmanager", "--version"}},
  };
  return kCommands;
}

std::string first_line(const std::string& text) {
  const auto start = text.find_first_not_of(" \t\r\n");
  if (start == std::string::npos) return "";
  const auto end = text.find('\n', start);
  return text.substr(start, std::min<size_t>(end == std::string::npos ? std::string::npos : end - start, 200));
}

// "exit 0", "not found", "timed out after 60 s", "exit 9: <first line it printed>".
std::string status_of(const platform::ProcessResult& r, int timeout_s) {
  if (!r.found) return "not found";
  if (r.timed_out) return fmt::format("timed out after {} s", timeout_s);
  if (r.exit_code == 0) return "exit 0";
  const auto why = first_line(r.err.empty() ? r.out : r.err);
  return why.empty() ? fmt::format("exit {}", r.exit_code) : fmt::format("exit {}: {}", r.exit_code, why);
}

std::string utc_now() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

core::Result<core::ExitCode> run_collect(platform::ProcessRunner& runner, int timeout_s, Streams& streams) {
  const auto timeout = std::chrono::seconds(timeout_s);
  std::string file = fmt::format("{}\n### host: {}\n### date: {}\n### written by: gpuvet {}\n", parsers::kCollectMagic,
                                 platform::hostname(), utc_now(), GPUVET_VERSION);
  std::vector<std::string> missing;
  for (const auto& c : collected_commands()) {
    const auto r = runner.run(c.argv, timeout);
    // Without nvidia-smi answering there is no driver to describe: say so, write nothing.
    if (c.argv[0] == "nvidia-smi" && c.label == parsers::kQueryXmlLabel && (!r.found || r.timed_out || r.exit_code != 0)) {
      return core::environment_error(
          !r.found ? "nvidia-smi not found on PATH: no NVIDIA driver on this machine, nothing to collect"
                   : fmt::format("nvidia-smi -q -x failed ({}): the NVIDIA driver does not answer, nothing to collect",
                                 status_of(r, timeout_s)));
    }
    const auto status = status_of(r, timeout_s);
    file += fmt::format("{}{}\n{}{}\n", parsers::kSectionMarker, c.label, parsers::kStatusMarker, status);
    if (status != "exit 0") {
      missing.push_back(fmt::format("{} ({})", c.label, status));
      continue;
    }
    file += r.out;
    if (!r.out.empty() && r.out.back() != '\n') file += '\n';
  }
  file += fmt::format("{}\n", parsers::kEndMarker);
  streams.out << file;
  streams.err << fmt::format("gpuvet collect: {} of {} outputs collected{}{}\n", collected_commands().size() - missing.size(),
                             collected_commands().size(), missing.empty() ? "" : "; not collected: ",
                             fmt::format("{}", fmt::join(missing, ", ")));
  return core::ExitCode::pass;
}

}  // namespace

void add_collect_command(CLI::App& app, Action& action) {
  auto timeout_s = std::make_shared<int>(120);
  auto* cmd = app.add_subcommand(
      "collect",
      "Print nvidia-smi -q -x, topo -m, nvlink -s/-e, ibstat, ibv_devinfo, lscpu, driver and fabric manager versions "
      "as one file with section markers (read-only), for gpuvet analyze FILE; scripts/gpuvet-collect.sh does the "
      "same without gpuvet");
  cmd->add_option("--timeout", *timeout_s, "Seconds each command may run before it is stopped")->check(CLI::Range(1, 3600));
  cmd->callback([timeout_s, &action] {
    action = [timeout_s](Streams& s) {
      platform::SystemProcessRunner runner;
      return run_collect(runner, *timeout_s, s);
    };
  });
}

}  // namespace gpuvet::cli
