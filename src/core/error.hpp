// Tool errors (not machine findings): what we tried, on what, and what went wrong.
// Only main() turns an Error into an exit code (see exit_code.hpp).
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace gpuvet::core {

enum class ErrorKind {
  usage,        // the command line is wrong
  bad_input,    // a file the user gave is malformed
  environment,  // the machine lacks something we need (driver, library, permission)
  internal,     // a bug in gpuvet
};

// What happened, where a caller acts on it rather than only reporting it (the kind says whose
// fault it is; the cause says what to do next). Kept through with_context.
enum class ErrorCause {
  unspecified,
  timed_out,  // the operation did not finish in time: the device may still be busy with it
};

struct Error {
  ErrorKind kind = ErrorKind::internal;
  std::string message;
  ErrorCause cause = ErrorCause::unspecified;

  [[nodiscard]] bool timed_out() const { return cause == ErrorCause::timed_out; }
  // Adds context from an outer level: "reading topo.txt: line 3: expected ...".
  [[nodiscard]] Error with_context(const std::string& context) const {
    return Error{kind, context + ": " + message, cause};
  }
};

inline Error usage_error(std::string m) { return Error{ErrorKind::usage, std::move(m)}; }
inline Error input_error(std::string m) { return Error{ErrorKind::bad_input, std::move(m)}; }
inline Error environment_error(std::string m) { return Error{ErrorKind::environment, std::move(m)}; }
inline Error internal_error(std::string m) { return Error{ErrorKind::internal, std::move(m)}; }
// An environment error whose operation ran out of time (a copy, a sample): callers stop queueing
// more work behind it.
inline Error timeout_error(std::string m) { return Error{ErrorKind::environment, std::move(m), ErrorCause::timed_out}; }

// A value or an Error. Small on purpose: std::expected is C++23.
template <class T>
class Result {
 public:
  Result(T value) : state_(std::move(value)) {}      // NOLINT(google-explicit-constructor)
  Result(Error error) : state_(std::move(error)) {}  // NOLINT(google-explicit-constructor)

  [[nodiscard]] bool ok() const { return std::holds_alternative<T>(state_); }
  explicit operator bool() const { return ok(); }
  [[nodiscard]] const T& value() const& { return std::get<T>(state_); }
  [[nodiscard]] T& value() & { return std::get<T>(state_); }
  [[nodiscard]] T&& value() && { return std::get<T>(std::move(state_)); }
  [[nodiscard]] const Error& error() const { return std::get<Error>(state_); }
  const T& operator*() const& { return value(); }
  const T* operator->() const { return &value(); }

 private:
  std::variant<T, Error> state_;
};

}  // namespace gpuvet::core
