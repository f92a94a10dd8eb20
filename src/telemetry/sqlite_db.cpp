// SQLite connection and statements.
#include "telemetry/sqlite_db.hpp"

#include <sqlite3.h>
#include <unistd.h>

#include <fmt/format.h>

namespace gpuvet::telemetry {

core::Result<std::unique_ptr<Database>> Database::open(const std::string& path, Mode mode) {
  const bool memory = path == ":memory:";
  std::unique_ptr<PrivateCopy> copy;
  std::string target = path;
  int flags = SQLITE_OPEN_FULLMUTEX;
  if (memory) {
    flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
  } else if (mode == Mode::create) {
    if (auto e = create_exclusively(path)) return *e;
    flags |= SQLITE_OPEN_READWRITE;  // SQLite takes the empty file as a new database
  } else if (auto e = check_readable_file(path)) {
    return *e;
  } else if (mode == Mode::read_write) {
    flags |= SQLITE_OPEN_READWRITE;
  } else if (has_sidecar(path)) {
    // Read-only with a -wal would need a -shm beside it (created, or written if there), and a
    // read-write open would checkpoint: a copy is read instead, where the log is replayed.
    auto made = PrivateCopy::make(path);
    if (!made) return made.error();
    copy = std::move(made).value();
    target = copy->database();
    flags |= SQLITE_OPEN_READWRITE;
  } else {
    // immutable=1: no locks, no -shm, no -wal; SQLite reads the file and nothing else.
    target = immutable_uri(path);
    flags |= SQLITE_OPEN_READONLY | SQLITE_OPEN_URI;
  }
  sqlite3* db = nullptr;
  // "" is SQLite's private temporary on-disk database (cached in memory up to the page cache size).
  const int rc = sqlite3_open_v2(memory ? "" : target.c_str(), &db, flags, nullptr);
  if (rc != SQLITE_OK) {
    std::string message = db ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
    sqlite3_close(db);
    if (!memory && mode == Mode::create) ::unlink(path.c_str());  // ours, and still empty
    return core::environment_error(fmt::format("{}: cannot open database: {}", path, message));
  }
  sqlite3_busy_timeout(db, 5000);
  std::unique_ptr<Database> out(new Database(db, path));
  out->copy_ = std::move(copy);
  return out;
}

Database::~Database() { sqlite3_close(db_); }

std::int64_t Database::last_insert_rowid() const { return sqlite3_last_insert_rowid(db_); }

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
void Statement::bind_blob(int index, const std::string& bytes) {
  sqlite3_bind_blob(stmt_, index, bytes.data(), static_cast<int>(bytes.size()), SQLITE_TRANSIENT);
}

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
std::pair<const unsigned char*, std::size_t> Statement::get_blob(int column) const {
  const auto* bytes = static_cast<const unsigned char*>(sqlite3_column_blob(stmt_, column));
  const int size = sqlite3_column_bytes(stmt_, column);
  return {bytes, bytes ? static_cast<std::size_t>(size) : 0};
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
