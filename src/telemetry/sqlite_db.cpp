// SQLite connection and statements.
#include "telemetry/sqlite_db.hpp"

#include <sqlite3.h>
#include <sys/stat.h>

#include <fmt/format.h>

namespace gpuvet::telemetry {

namespace {

bool file_exists(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0;
}

}  // namespace

core::Result<std::unique_ptr<Database>> Database::open(const std::string& path, Mode mode) {
  const bool memory = path == ":memory:";
  if (!memory && mode == Mode::create && file_exists(path)) {
    return core::usage_error(fmt::format("{}: already exists (burn-in never overwrites a database; choose another --db)", path));
  }
  if (!memory && mode != Mode::create && !file_exists(path)) {
    return core::input_error(fmt::format("{}: no such file", path));
  }
  int flags = SQLITE_OPEN_FULLMUTEX;
  if (mode == Mode::read_only) {
    flags |= SQLITE_OPEN_READONLY;
  } else {
    flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
  }
  sqlite3* db = nullptr;
  const int rc = sqlite3_open_v2(path.c_str(), &db, flags, nullptr);
  if (rc != SQLITE_OK) {
    std::string message = db ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
    sqlite3_close(db);
    return core::environment_error(fmt::format("{}: cannot open database: {}", path, message));
  }
  sqlite3_busy_timeout(db, 5000);
  return std::unique_ptr<Database>(new Database(db, path));
}

Database::~Database() { sqlite3_close(db_); }

core::Error Database::error(const std::string& what) const {
  return core::input_error(fmt::format("{}: {}: {}", path_, what, sqlite3_errmsg(db_)));
}

std::optional<core::Error> Database::exec(const std::string& sql) {
  char* message = nullptr;
  if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &message) != SQLITE_OK) {
    std::string text = message ? message : "unknown error";
    sqlite3_free(message);
    return core::environment_error(fmt::format("{}: {}", path_, text));
  }
  return std::nullopt;
}

core::Result<std::unique_ptr<Statement>> Database::prepare(const std::string& sql) {
  sqlite3_stmt* stmt = nullptr;
  if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK) {
    return error("preparing '" + sql.substr(0, 60) + "'");
  }
  return std::unique_ptr<Statement>(new Statement(*this, stmt));
}

Statement::~Statement() { sqlite3_finalize(stmt_); }

void Statement::bind(int index, double value) { sqlite3_bind_double(stmt_, index, value); }
void Statement::bind(int index, std::int64_t value) { sqlite3_bind_int64(stmt_, index, value); }
void Statement::bind(int index, const std::string& value) {
  sqlite3_bind_text(stmt_, index, value.data(), static_cast<int>(value.size()), SQLITE_TRANSIENT);
}
void Statement::bind_null(int index) { sqlite3_bind_null(stmt_, index); }

core::Result<bool> Statement::step() {
  const int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  return db_.error("step");
}

std::optional<core::Error> Statement::run() {
  auto r = step();
  reset();
  if (!r) return r.error();
  return std::nullopt;
}

void Statement::reset() {
  sqlite3_reset(stmt_);
  sqlite3_clear_bindings(stmt_);
}

bool Statement::is_null(int column) const { return sqlite3_column_type(stmt_, column) == SQLITE_NULL; }
double Statement::get_double(int column) const { return sqlite3_column_double(stmt_, column); }
std::int64_t Statement::get_int(int column) const { return sqlite3_column_int64(stmt_, column); }
std::string Statement::get_text(int column) const {
  const auto* text = sqlite3_column_text(stmt_, column);
  return text ? std::string(reinterpret_cast<const char*>(text)) : std::string();
}
std::optional<double> Statement::opt_double(int column) const {
  if (is_null(column)) return std::nullopt;
  return get_double(column);
}
std::optional<std::int64_t> Statement::opt_int(int column) const {
  if (is_null(column)) return std::nullopt;
  return get_int(column);
}
std::optional<std::string> Statement::opt_text(int column) const {
  if (is_null(column)) return std::nullopt;
  return get_text(column);
}

}  // namespace gpuvet::telemetry
