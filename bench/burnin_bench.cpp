// Burn-in costs on the simulator: how many virtual hours of an 8-GPU burn-in the simulator runs
// per wall second (model alone, and the whole run with the SQLite store in memory and on disk),
// what the sampler + store costs per GPU per tick, and what reading a stored hour back into the
// streaming judge costs. Run:
//   cmake -DGPUVET_BUILD_BENCH=ON ... && build/<dir>/bench/gpuvet_burnin_bench
// Peak memory and end-to-end times of the commands: bench/burnin_budgets.sh.
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <filesystem>
#include <memory>
#include <string>

#include "analysis/burnin_judge.hpp"
#include "backends/sim/burnin_sim_backends.hpp"
#include "probes/burnin_runner.hpp"
#include "telemetry/telemetry_store.hpp"

namespace {

using namespace gpuvet;

sim::SimBurnin make_sim() {
  auto sim = sim::make_sim_burnin("hgx-h100-8x", {}, 1, "bf16");
  if (!sim) std::abort();
  return std::move(sim).value();
}

std::string temp_db(const char* name) {
  const auto path = std::filesystem::temp_directory_path() / (std::string("gpuvet-bench-") + name + "-" + std::to_string(getpid()) + ".db");
  std::filesystem::remove(path);
  std::filesystem::remove(path.string() + "-wal");
  std::filesystem::remove(path.string() + "-shm");
  return path.string();
}

// The burn-in model alone: advance and sample 8 GPUs once per virtual second.
void BM_BurninModelOnly(benchmark::State& state) {
  const double hours = 1;
  for (auto _ : state) {
    auto sim = make_sim();
    for (int g = 0; g < 8; ++g) sim.stress->start(g, {}, 0);
    for (int t = 1; t <= static_cast<int>(hours * 3600); ++t) {
      for (int g = 0; g < 8; ++g) {
        benchmark::DoNotOptimize(sim.telemetry->sample(g, t));
        benchmark::DoNotOptimize(sim.stress->poll(g, t));
      }
    }
  }
  state.counters["virtual_h_per_s"] = benchmark::Counter(hours * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_BurninModelOnly)->Unit(benchmark::kMillisecond)->UseRealTime();

// A whole simulated 1 h burn-in of 8 GPUs at 1 s: model, runner, store (memory or file), no judge.
std::unique_ptr<telemetry::TelemetryStore> run_once(const std::string& path) {
  auto sim = make_sim();
  platform::ManualClock clock;
  static platform::SteadyClock wall;  // the store keeps pacing its commits with it
  core::BurninRunInfo run;
  run.interval_s = 1;
  run.planned_duration_s = 3600;
  auto gpus = sim.telemetry->gpus();
  auto store = telemetry::TelemetryStore::create(path, run, *gpus, wall);
  if (!store) std::abort();
  probes::BurninPlan plan;
  plan.duration_s = 3600;
  auto outcome = probes::run_burnin(plan, *sim.telemetry, *sim.stress, *store.value(), clock);
  if (!outcome) std::abort();
  return std::move(store).value();
}

void BM_BurninRunInMemory(benchmark::State& state) {
  for (auto _ : state) run_once(":memory:");
  state.counters["virtual_h_per_s"] = benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_BurninRunInMemory)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_BurninRunOnDisk(benchmark::State& state) {
  for (auto _ : state) {
    state.PauseTiming();
    const std::string path = temp_db("run");
    state.ResumeTiming();
    run_once(path);
    state.PauseTiming();
    std::filesystem::remove(path);
    std::filesystem::remove(path + "-wal");
    std::filesystem::remove(path + "-shm");
    state.ResumeTiming();
  }
  state.counters["virtual_h_per_s"] = benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_BurninRunOnDisk)->Unit(benchmark::kMillisecond)->UseRealTime();

// Reading a stored hour of 8 GPUs back (decoding every tick row) into the streaming judge, as
// `gpuvet burnin` and `gpuvet report --db` do after the run.
void BM_ReadAndJudgePerHour(benchmark::State& state) {
  auto store = run_once(":memory:");
  for (auto _ : state) {
    std::unique_ptr<analysis::BurninJudge> judge;
    auto header = store->read_back(
        [&](const core::BurninRecord& h) { judge = std::make_unique<analysis::BurninJudge>(h.run, h.gpus); },
        [&](const core::TelemetrySample& s) { judge->on_sample(s); });
    if (!header) std::abort();
    benchmark::DoNotOptimize(judge->finish(header->run.status));
  }
  state.counters["virtual_h_per_s"] = benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_ReadAndJudgePerHour)->Unit(benchmark::kMillisecond)->UseRealTime();

// One GPU-tick: sample (simulated source), poll the load, append to the on-disk store, and end
// the tick every 8 GPU-ticks (commits when due, as in a run).
void BM_SamplerStorePerGpuTick(benchmark::State& state) {
  auto sim = make_sim();
  for (int g = 0; g < 8; ++g) sim.stress->start(g, {}, 0);
  platform::SteadyClock wall;
  core::BurninRunInfo run;
  auto gpus = sim.telemetry->gpus();
  const std::string path = temp_db("tick");
  auto store = telemetry::TelemetryStore::create(path, run, *gpus, wall);
  if (!store) std::abort();
  long n = 0;
  for (auto _ : state) {
    const int g = static_cast<int>(n % 8);
    const double t = static_cast<double>(n / 8 + 1);
    auto s = sim.telemetry->sample(g, t);
    auto status = sim.stress->poll(g, t);
    s.tflops = status.tflops;
    s.miscompares = status.miscompares;
    if (store.value()->append(s)) std::abort();
    if (g == 7 && store.value()->end_tick()) std::abort();
    ++n;
  }
  store.value().reset();
  std::filesystem::remove(path);
  std::filesystem::remove(path + "-wal");
  std::filesystem::remove(path + "-shm");
}
BENCHMARK(BM_SamplerStorePerGpuTick)->Unit(benchmark::kMicrosecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
