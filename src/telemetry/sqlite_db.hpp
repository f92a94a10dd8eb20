// A thin RAII layer over the SQLite C API (internal to src/telemetry): a connection and prepared
// statements with typed binds and NULL for absent values. Errors carry SQLite's own words.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "core/error.hpp"
#include "telemetry/db_file.hpp"

struct sqlite3;
struct sqlite3_stmt;

namespace gpuvet::telemetry {

class Statement;

class Database {
 public:
  enum class Mode { create, read_write, read_only };
  // Opens `path`. ":memory:" is a private temporary database: SQLite keeps it in its page cache
  // and spills to a temporary file it deletes on close, so a long run's memory stays bounded.
  // - create: makes the file exclusively (db_file.hpp); fails when it exists already.
  // - read_only: for evidence: never changes a byte beside `path`, never adds or removes a file
  //   there (no checkpoint, no -shm). Without a -wal/-journal the file is opened immutable; with
  //   one (a killed run keeps its last commits there) a private copy of both is read instead.
  // - read_write: opens an existing file for writing.
  // Errors: bad_input naming the path and the reason (no such file, a directory, a FIFO,
  // permission denied), usage when create finds the file, environment otherwise.
  static core::Result<std::unique_ptr<Database>> open(const std::string& path, Mode mode);
  ~Database();
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;

  // Runs one or more statements without results.
  std::optional<core::Error> exec(const std::string& sql);
  core::Result<std::unique_ptr<Statement>> prepare(const std::string& sql);
  [[nodiscard]] const std::string& path() const { return path_; }
  // The rowid of the last row inserted through this connection.
  [[nodiscard]] std::int64_t last_insert_rowid() const;
  [[nodiscard]] core::Error error(const std::string& what) const;

 private:
  Database(sqlite3* db, std::string path) : db_(db), path_(std::move(path)) {}
  sqlite3* db_;
  std::string path_;                   // as the caller named it (errors name this)
  std::unique_ptr<PrivateCopy> copy_;  // read_only of a database with a sidecar: what db_ reads
  friend class Statement;
};

class Statement {
 public:
  ~Statement();
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  // Parameters are 1-based as in SQLite.
  void bind(int index, double value);
  void bind(int index, std::int64_t value);
  void bind(int index, const std::string& value);
  void bind_null(int index);
  void bind_blob(int index, const std::string& bytes);
  template <class T>
  void bind_optional(int index, const std::optional<T>& value) {
    if (value) {
      bind(index, *value);
    } else {
      bind_null(index);
    }
  }
  // Steps once: true when a row is available, false when done; error on failure.
  core::Result<bool> step();
  // Runs an insert/update to completion and resets the statement for the next binds.
  std::optional<core::Error> run();
  void reset();

  [[nodiscard]] bool is_null(int column) const;
  [[nodiscard]] double get_double(int column) const;
  [[nodiscard]] std::int64_t get_int(int column) const;
  [[nodiscard]] std::string get_text(int column) const;
  // The bytes of a BLOB (or TEXT) column, valid until the next step or reset.
  [[nodiscard]] std::pair<const unsigned char*, std::size_t> get_blob(int column) const;
  [[nodiscard]] std::optional<double> opt_double(int column) const;
  [[nodiscard]] std::optional<std::int64_t> opt_int(int column) const;
  [[nodiscard]] std::optional<std::string> opt_text(int column) const;

 private:
  Statement(Database& db, sqlite3_stmt* stmt) : db_(db), stmt_(stmt) {}
  Database& db_;
  sqlite3_stmt* stmt_;
  friend class Database;
};

}  // namespace gpuvet::telemetry
