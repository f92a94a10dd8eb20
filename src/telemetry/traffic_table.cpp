// Writes and reads the traffic tables and settings of schema 6.
#include "telemetry/traffic_table.hpp"

#include <fmt/format.h>

#include <array>
#include <charconv>
#include <cmath>
#include <map>

#include "telemetry/sqlite_db.hpp"

namespace gpuvet::telemetry {

namespace {

// The columns after the interval's times, in order, with the member each holds.
constexpr std::array<std::pair<const char*, core::Reading<double> core::GpuTraffic::*>, 4> kGpuRates = {{
    {"send_gbps", &core::GpuTraffic::send_gbps},
    {"recv_gbps", &core::GpuTraffic::recv_gbps},
    {"h2d_gbps", &core::GpuTraffic::h2d_gbps},
    {"d2h_gbps", &core::GpuTraffic::d2h_gbps},
}};

template <class T>
void bind_value(Statement& st, int index, const core::Reading<T>& r, const char* name, std::string& absent) {
  if (r.known()) {
    if constexpr (std::is_floating_point_v<T>) {
      st.bind(index, static_cast<double>(*r));
    } else {
      st.bind(index, static_cast<std::int64_t>(*r));  // a digest keeps its 64 bits as a signed integer
    }
    return;
  }
  st.bind_null(index);
  if (r.reason() != core::kTrafficNotAsked) absent += fmt::format("{}{}={}", absent.empty() ? "" : "\n", name, r.reason());
}

// "field=reason" lines -> field -> reason.
std::map<std::string, std::string> reasons_of(const Statement& st, int column) {
  std::map<std::string, std::string> out;
  if (st.is_null(column)) return out;
  const std::string text = st.get_text(column);
  for (std::size_t start = 0; start < text.size();) {
    auto end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    const std::string line = text.substr(start, end - start);
    const auto eq = line.find('=');
    if (eq != std::string::npos) out[line.substr(0, eq)] = line.substr(eq + 1);
    start = end + 1;
  }
  return out;
}

template <class T>
core::Reading<T> read_value(const Statement& st, int column, const char* name, const std::map<std::string, std::string>& reasons) {
  if (!st.is_null(column)) {
    if constexpr (std::is_floating_point_v<T>) {
      return static_cast<T>(st.get_double(column));
    } else {
      return static_cast<T>(st.get_int(column));
    }
  }
  const auto it = reasons.find(name);
  return core::Reading<T>::absent(it != reasons.end() ? it->second : std::string(core::kTrafficNotAsked));
}

template <class Row>
std::optional<core::Error> each_row(Database& db, const std::string& sql, Row&& row) {
  auto st = db.prepare(sql);
  if (!st) return st.error();
  while (true) {
    auto more = st.value()->step();
    if (!more) return more.error();
    if (!more.value()) return std::nullopt;
    if (auto e = row(*st.value())) return e;
  }
}

}  // namespace

std::string traffic_tables_sql() {
  return R"SQL(
-- The soak's link traffic (gpuvet burnin --traffic), one row per collective and per GPU for each
-- traffic interval (from_s, t_s]; `absent`: "field=reason" lines for readings that could not be taken.
CREATE TABLE traffic_collectives (t_s REAL NOT NULL, from_s REAL NOT NULL, op TEXT NOT NULL,
  busbw_gbps REAL, wrong INTEGER, absent TEXT);
CREATE TABLE traffic_gpus (t_s REAL NOT NULL, from_s REAL NOT NULL, gpu INTEGER NOT NULL,
  send_gbps REAL, recv_gbps REAL, h2d_gbps REAL, d2h_gbps REAL, wrong INTEGER, gemm_digest INTEGER, absent TEXT);
)SQL";
}

std::optional<core::Error> write_traffic_settings(Database& db, const core::TrafficSettings& settings) {
  if (!settings.on()) return std::nullopt;
  auto st = db.prepare("INSERT INTO meta (key, value) VALUES (?,?)");
  if (!st) return st.error();
  const std::pair<const char*, std::string> rows[] = {{"traffic", core::traffic_kinds_text(settings.kinds)},
                                                      {"traffic_share", fmt::format("{}", settings.share)},
                                                      {"traffic_interval_s", fmt::format("{}", settings.interval_s)}};
  for (const auto& [key, value] : rows) {
    st.value()->bind(1, std::string(key));
    st.value()->bind(2, value);
    if (auto e = st.value()->run()) return e;
  }
  return std::nullopt;
}

core::Result<core::TrafficSettings> read_traffic_settings(Database& db, int schema_version) {
  core::TrafficSettings out;
  if (schema_version < 6) return out;
  std::map<std::string, std::string> meta;
  if (auto e = each_row(db, "SELECT key, value FROM meta WHERE key LIKE 'traffic%'", [&](const Statement& s) -> std::optional<core::Error> {
        meta[s.get_text(0)] = s.get_text(1);
        return std::nullopt;
      })) {
    return *e;
  }
  if (!meta.count("traffic")) return out;
  const auto kinds = core::parse_traffic_kinds(meta["traffic"]);
  const auto number = [&](const char* key, double& value) {
    const std::string& text = meta[key];
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    return ec == std::errc() && end == text.data() + text.size() && std::isfinite(value) && value > 0;
  };
  if (!kinds || !number("traffic_share", out.share) || !number("traffic_interval_s", out.interval_s) || out.share > 1) {
    return core::input_error(fmt::format("{}: table meta: the traffic settings are malformed (traffic '{}', share '{}', "
                                         "interval '{}')",
                                         db.path(), meta["traffic"], meta["traffic_share"], meta["traffic_interval_s"]));
  }
  out.kinds = *kinds;
  return out;
}

TrafficWriter::TrafficWriter(std::unique_ptr<Statement> collectives, std::unique_ptr<Statement> gpus)
    : collectives_(std::move(collectives)), gpus_(std::move(gpus)) {}
TrafficWriter::~TrafficWriter() = default;

core::Result<std::unique_ptr<TrafficWriter>> TrafficWriter::prepare(Database& db) {
  auto c = db.prepare("INSERT INTO traffic_collectives (t_s, from_s, op, busbw_gbps, wrong, absent) VALUES (?,?,?,?,?,?)");
  if (!c) return c.error();
  auto g = db.prepare(
      "INSERT INTO traffic_gpus (t_s, from_s, gpu, send_gbps, recv_gbps, h2d_gbps, d2h_gbps, wrong, gemm_digest, absent) "
      "VALUES (?,?,?,?,?,?,?,?,?,?)");
  if (!g) return g.error();
  return std::unique_ptr<TrafficWriter>(new TrafficWriter(std::move(c).value(), std::move(g).value()));
}

std::optional<core::Error> TrafficWriter::append(const core::TrafficInterval& interval) {
  for (const auto& c : interval.collectives) {
    Statement& st = *collectives_;
    std::string absent;
    st.bind(1, interval.t_s);
    st.bind(2, interval.from_s);
    st.bind(3, c.op);
    bind_value(st, 4, c.busbw_gbps, "busbw_gbps", absent);
    bind_value(st, 5, c.wrong, "wrong", absent);
    absent.empty() ? st.bind_null(6) : st.bind(6, absent);
    if (auto e = st.run()) return e;
  }
  for (const auto& g : interval.gpus) {
    Statement& st = *gpus_;
    std::string absent;
    st.bind(1, interval.t_s);
    st.bind(2, interval.from_s);
    st.bind(3, static_cast<std::int64_t>(g.gpu));
    int col = 4;
    for (const auto& [name, member] : kGpuRates) bind_value(st, col++, g.*member, name, absent);
    bind_value(st, col++, g.wrong, "wrong", absent);
    bind_value(st, col++, g.gemm_digest, "gemm_digest", absent);
    absent.empty() ? st.bind_null(col) : st.bind(col, absent);
    if (auto e = st.run()) return e;
  }
  return std::nullopt;
}

std::optional<core::Error> read_traffic(Database& db, int schema_version, std::vector<core::TrafficInterval>& out) {
  if (schema_version < 6) return std::nullopt;
  std::map<double, core::TrafficInterval> intervals;
  const auto interval_of = [&](const Statement& s, const char* table) -> core::Result<core::TrafficInterval*> {
    const double t_s = s.get_double(0), from_s = s.get_double(1);
    if (!std::isfinite(t_s) || !std::isfinite(from_s) || from_s > t_s) {
      return core::input_error(fmt::format("{}: table {}: an interval from {} to {} s; expected finite times, the end after "
                                           "the start",
                                           db.path(), table, from_s, t_s));
    }
    auto& i = intervals[t_s];
    i.t_s = t_s;
    i.from_s = from_s;
    return &i;
  };
  if (auto e = each_row(db, "SELECT t_s, from_s, op, busbw_gbps, wrong, absent FROM traffic_collectives ORDER BY rowid",
                        [&](const Statement& s) -> std::optional<core::Error> {
                          auto i = interval_of(s, "traffic_collectives");
                          if (!i) return i.error();
                          const auto reasons = reasons_of(s, 5);
                          i.value()->collectives.push_back({s.get_text(2), read_value<double>(s, 3, "busbw_gbps", reasons),
                                                            read_value<std::int64_t>(s, 4, "wrong", reasons)});
                          return std::nullopt;
                        })) {
    return e;
  }
  if (auto e = each_row(db,
                        "SELECT t_s, from_s, gpu, send_gbps, recv_gbps, h2d_gbps, d2h_gbps, wrong, gemm_digest, absent "
                        "FROM traffic_gpus ORDER BY rowid",
                        [&](const Statement& s) -> std::optional<core::Error> {
                          auto i = interval_of(s, "traffic_gpus");
                          if (!i) return i.error();
                          const auto reasons = reasons_of(s, 9);
                          core::GpuTraffic g;
                          g.gpu = static_cast<int>(s.get_int(2));
                          int col = 3;
                          for (const auto& [name, member] : kGpuRates) g.*member = read_value<double>(s, col++, name, reasons);
                          g.wrong = read_value<std::int64_t>(s, col++, "wrong", reasons);
                          g.gemm_digest = read_value<std::uint64_t>(s, col++, "gemm_digest", reasons);
                          i.value()->gpus.push_back(std::move(g));
                          return std::nullopt;
                        })) {
    return e;
  }
  for (auto& [t_s, i] : intervals) out.push_back(std::move(i));
  return std::nullopt;
}

}  // namespace gpuvet::telemetry
