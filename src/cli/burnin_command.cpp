// gpuvet burnin: hours of GEMM load on every GPU (with --traffic, NCCL collectives and host copies
// on the links beside it) with per-GPU telemetry stored in SQLite as it arrives, then the burn-in
// judge over what was stored. `--sim PROFILE` runs the simulator's
// burn-in model in virtual time (a 4 h run takes seconds).
#include <unistd.h>

#include <charconv>
#include <ctime>
#include <ostream>

#include <fmt/format.h>

#include "accept/burnin_pipeline.hpp"
#include "analysis/burnin_judge.hpp"
#include "cli/burnin_output.hpp"
#include "cli/burnin_progress.hpp"
#include "cli/interrupt_guard.hpp"
#include "cli/target.hpp"
#include "cli/target_options.hpp"
#include "cli/commands.hpp"
#include "platform/environment.hpp"
#include "telemetry/telemetry_store.hpp"

namespace gpuvet::cli {

namespace {

struct BurninOptions {
  std::string duration = "4h";
  std::string interval = "1s";
  std::string dtype = "bf16";
  std::string gpus;
  std::string db;
  TargetOptions target;
  double shutdown_margin_c = 2;
  double straggler_tolerance = 10;
  std::string traffic;               // empty: none
  double traffic_share = 0.5;
  double busbw_hot_min = 90;
  bool json = false;
};

std::string default_db_path() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  localtime_r(&now, &tm);
  char buf[64];
  std::strftime(buf, sizeof buf, "gpuvet-burnin-%Y%m%d-%H%M%S.db", &tm);
  return buf;
}

core::Result<core::ExitCode> run_burnin_command(const BurninOptions& options, Streams& streams) {
  probes::BurninPlan plan;
  auto duration = parse_duration(options.duration, "--duration");
  if (!duration) return duration.error();
  auto interval = parse_duration(options.interval, "--interval");
  if (!interval) return interval.error();
  if (*interval < 0.1) return core::usage_error("--interval: the shortest sampling interval is 100ms");
  if (*interval > *duration) return core::usage_error("--interval is longer than --duration");
  plan.duration_s = *duration;
  plan.interval_s = *interval;
  plan.shutdown_margin_c = options.shutdown_margin_c;
  if (!api::parse_gemm_dtype(options.dtype, plan.stress.dtype)) {
    return core::usage_error(fmt::format("--dtype '{}': expected bf16, fp16, tf32, fp32, fp64 or fp8", options.dtype));
  }
  if (!options.traffic.empty()) {
    const auto kinds = core::parse_traffic_kinds(options.traffic);
    if (!kinds) {
      return core::usage_error(fmt::format(
          "--traffic '{}': expected all_reduce, all_to_all, copies or all (or a comma list of the first three)", options.traffic));
    }
    plan.traffic.kinds = *kinds;
  }
  if (!(options.traffic_share > 0 && options.traffic_share <= 1)) {
    return core::usage_error(fmt::format("--traffic-share {}: expected a share of the time in (0, 1], e.g. 0.5", options.traffic_share));
  }
  if (!(options.busbw_hot_min > 0 && options.busbw_hot_min <= 100)) {
    return core::usage_error(fmt::format("--busbw-hot-min {}: expected a percent in (0, 100], e.g. 90", options.busbw_hot_min));
  }
  plan.traffic.share = options.traffic_share;
  // One traffic interval a minute (the whole run when shorter), never shorter than a sample.
  plan.traffic.interval_s = std::max(plan.interval_s, std::min(60.0, plan.duration_s));
  if (!options.gpus.empty()) {
    auto gpus = parse_gpu_list(options.gpus);
    if (!gpus) return gpus.error();
    plan.gpus = std::move(gpus).value();
  }
  auto target = Target::open(options.target);
  if (!target) return target.error();
  auto backends = target.value().burnin(options.dtype);
  if (!backends) return backends.error();
  auto all_gpus = backends->telemetry->gpus();
  if (!all_gpus) return all_gpus.error();
  std::vector<core::BurninGpu> chosen;
  for (const auto& g : *all_gpus) {
    if (plan.gpus.empty() || std::find(plan.gpus.begin(), plan.gpus.end(), g.index) != plan.gpus.end()) chosen.push_back(g);
  }
  for (int g : plan.gpus) {
    if (std::none_of(chosen.begin(), chosen.end(), [&](const auto& c) { return c.index == g; })) {
      return core::usage_error(fmt::format("--gpus: this machine has no GPU {} ({} GPUs)", g, all_gpus->size()));
    }
  }
  const bool simulated = target->simulated();
  platform::SteadyClock wall;
  platform::ManualClock virtual_clock(wall.unix_ms());
  platform::Clock& clock = simulated ? static_cast<platform::Clock&>(virtual_clock) : wall;

  accept::SoakSetup soak;
  soak.plan = plan;
  soak.run.source = target->source();
  soak.run.simulated = simulated;
  soak.run.hostname = simulated ? "simulated" : platform::hostname();
  soak.run.dtype = options.dtype;
  soak.run.faults = options.target.faults;
  soak.gpus = std::move(chosen);
  const std::string db_path = !options.db.empty() ? options.db : simulated ? ":memory:" : default_db_path();
  soak.db_path = db_path;
  soak.clock = &clock;
  soak.wall = &wall;
  if (!simulated) streams.err << "gpuvet burnin: writing " << db_path << "\n";

  ProgressOptions progress_options;
  progress_options.terminal = streams.out_is_terminal && !options.json;
  progress_options.plain_every_s = simulated ? std::max(plan.interval_s, plan.duration_s / 8) : 60;
  BurninProgress progress(streams.err, progress_options);
  soak.observer = &progress;
  soak.cancel = InterruptGuard::flag();
  std::optional<InterruptGuard> guard;
  if (!simulated) guard.emplace();
  // The same pipeline as accept's burn-in stage: the store written as the samples arrive.
  auto ran = accept::run_soak(std::move(soak), *backends->telemetry, *backends->stress, backends->traffic.get());
  if (!ran) return ran.error();

  // The report is rebuilt from what the database holds, exactly as `gpuvet report --db` does.
  analysis::BurninThresholds thresholds;
  thresholds.straggler_tolerance = options.straggler_tolerance / 100.0;
  thresholds.busbw_hot_min_share = options.busbw_hot_min / 100.0;
  telemetry::TelemetryStore& stored = *ran->store;
  const auto read = [&](const telemetry::HeaderSink& on_header, const telemetry::SampleSink& on_sample) {
    return stored.read_back(on_header, on_sample);
  };
  return render_burnin(db_path, "burnin", read, thresholds, options.json, streams);
}

}  // namespace

void add_burnin_command(CLI::App& app, Action& action) {
  auto options = std::make_shared<BurninOptions>();
  auto* cmd = app.add_subcommand("burnin", "Hours of GEMM load on every GPU, watched and recorded; finds the card that drifts");
  cmd->add_option("--duration", options->duration, "How long: 90s, 15m, 4h (default 4h)");
  cmd->add_option("--interval", options->interval, "Telemetry sampling interval: 1s (default), 100ms ... ");
  cmd->add_option("--dtype", options->dtype, "GEMM element type: bf16 (default), fp16, tf32, fp32, fp64, fp8");
  cmd->add_option("--gpus", options->gpus, "GPUs to load, e.g. 0,1,4-7 (default: all)");
  cmd->add_option("--db", options->db,
                  "SQLite database to write (never overwritten; default ./gpuvet-burnin-<time>.db, in memory with --sim)");
  cmd->add_option("--sim", options->target.sim_profile, "Burn in a built-in simulated machine in virtual time (see `gpuvet sim list`)");
  cmd->add_option("--fault", options->target.faults, "Fault overlay on the simulated machine, e.g. thermal-throttle:gpu=3,at=1h (repeatable)");
  cmd->add_option("--seed", options->target.seed, "Seed of the simulator's noise (default 1)");
  cmd->add_option("--shutdown-margin", options->shutdown_margin_c,
                  "Stop the load on a GPU this many °C below its shutdown temperature (default 2)");
  cmd->add_option("--straggler-tolerance", options->straggler_tolerance,
                  "Percent below the peers' median TFLOP/s that makes a straggler (default 10)");
  cmd->add_option("--traffic", options->traffic,
                  "Load the links beside the GEMMs: all_reduce, all_to_all, copies (host<->device) or all; a comma list "
                  "works too (default: none, the GEMM load alone)");
  cmd->add_option("--traffic-share", options->traffic_share,
                  "Share of the time the traffic streams are busy, in (0, 1] (default 0.5)");
  cmd->add_option("--busbw-hot-min", options->busbw_hot_min,
                  "Percent of the cold busbw the collectives must keep at steady state (default 90)");
  cmd->add_flag("--json", options->json, "Print one JSON object (schema gpuvet.burnin/1) instead of text");
  cmd->callback([options, &action] {
    action = [options](Streams& streams) { return run_burnin_command(*options, streams); };
  });
}

}  // namespace gpuvet::cli
