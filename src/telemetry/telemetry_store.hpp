// The burn-in database: an embedded SQLite file (WAL) that a run writes as samples arrive, in
// transactions committed at most `max_commit_lag` apart, so a run killed with SIGKILL keeps
// everything up to its last commit. It holds the run, the GPUs, what each GPU could not report,
// every sample and every event: each burn-in report is rebuilt from this file alone
// (load_burnin). One writer, used from one thread (the burn-in runner's sampling loop).
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "core/error.hpp"
#include "core/telemetry.hpp"
#include "platform/clock.hpp"

namespace gpuvet::telemetry {

class Database;
class Statement;

struct StoreOptions {
  // Longest time an appended sample may wait before it is committed (SIGKILL loses at most this).
  platform::Clock::Duration max_commit_lag = std::chrono::seconds(1);
  // FULL also survives power loss (one fsync per commit); NORMAL survives a killed process.
  bool fsync_each_commit = true;
};

class TelemetryStore {
 public:
  // Creates `path` (never overwrites; ":memory:" for a private database) with the run and GPUs.
  // `commit_clock` paces commits in wall time (a SteadyClock also when the run is simulated).
  static core::Result<std::unique_ptr<TelemetryStore>> create(const std::string& path, const core::BurninRunInfo& run,
                                                              const std::vector<core::BurninGpu>& gpus,
                                                              platform::Clock& commit_clock, StoreOptions options = {});
  ~TelemetryStore();
  TelemetryStore(const TelemetryStore&) = delete;
  TelemetryStore& operator=(const TelemetryStore&) = delete;

  // What each GPU cannot report (probed once at start); committed at once.
  std::optional<core::Error> record_unsupported(const std::vector<core::UnsupportedField>& fields);
  std::optional<core::Error> append(const core::TelemetrySample& sample);
  std::optional<core::Error> append(const core::TelemetryEvent& event);
  // Called after each tick: commits when a commit is due. An event of a lost GPU or a safety stop
  // should be followed by commit() so it is durable at once.
  std::optional<core::Error> end_tick();
  std::optional<core::Error> commit();
  // Final state of the run; commits.
  std::optional<core::Error> finish(core::BurninStatus status, double ended_t_s);

  // The whole run read back through this connection (works for ":memory:" too).
  core::Result<core::BurninRecord> read_back();
  [[nodiscard]] std::size_t commits() const { return commits_; }
  [[nodiscard]] const std::string& path() const;

 private:
  TelemetryStore(std::unique_ptr<Database> db, platform::Clock& clock, StoreOptions options);
  std::optional<core::Error> begin();
  std::optional<core::Error> write_nvlink(const core::TelemetrySample& sample);

  std::unique_ptr<Database> db_;
  platform::Clock& clock_;
  StoreOptions options_;
  std::unique_ptr<Statement> insert_sample_;
  std::unique_ptr<Statement> insert_nvlink_;
  std::unique_ptr<Statement> insert_event_;
  std::unique_ptr<Statement> insert_absence_;
  std::set<std::pair<int, std::string>> unsupported_;
  std::map<std::pair<int, int>, core::NvLinkErrorSample> last_nvlink_;  // (gpu, link) -> last written
  platform::Clock::Duration last_commit_{};
  bool in_transaction_ = false;
  std::size_t commits_ = 0;
};

// Reads a burn-in database written by any run (finished, interrupted or killed). Errors: bad_input
// when the file is not a gpuvet burn-in database or has another schema version.
core::Result<core::BurninRecord> load_burnin(const std::string& path);

}  // namespace gpuvet::telemetry
