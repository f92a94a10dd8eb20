// The soak's link traffic in the burn-in database (schema 6, internal to src/telemetry): the
// run's traffic settings in meta, one row per collective and one per GPU for each traffic
// interval. A reading absent for a reason other than core::kTrafficNotAsked keeps its reason in
// the row's `absent` column ("field=reason" lines); the common reason costs nothing.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/traffic.hpp"

namespace gpuvet::telemetry {

class Database;
class Statement;

// DDL of the traffic tables (part of schema_sql and of the migration to schema 6).
std::string traffic_tables_sql();

// meta rows 'traffic', 'traffic_share', 'traffic_interval_s' (only when settings.on()).
std::optional<core::Error> write_traffic_settings(Database& db, const core::TrafficSettings& settings);
// The settings of a file of `schema_version` (none before 6, or when the run had no traffic).
core::Result<core::TrafficSettings> read_traffic_settings(Database& db, int schema_version);

// Appends intervals; prepared once on a schema 6 file.
class TrafficWriter {
 public:
  static core::Result<std::unique_ptr<TrafficWriter>> prepare(Database& db);
  ~TrafficWriter();
  std::optional<core::Error> append(const core::TrafficInterval& interval);

 private:
  TrafficWriter(std::unique_ptr<Statement> collectives, std::unique_ptr<Statement> gpus);
  std::unique_ptr<Statement> collectives_;
  std::unique_ptr<Statement> gpus_;
};

// Every interval in time order (empty before schema 6). bad_input naming the table when a row
// holds what no interval can (a time not finite, an interval ending before it began).
std::optional<core::Error> read_traffic(Database& db, int schema_version, std::vector<core::TrafficInterval>& out);

}  // namespace gpuvet::telemetry
