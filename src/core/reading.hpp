// A value that was observed, or an explicit absence with the reason it could not be observed.
// Absence is never a zero: every field of the machine model that a source may not know is a Reading.
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace gpuvet::core {

struct Absent {
  std::string reason;
  bool operator==(const Absent&) const = default;
};

template <class T>
class Reading {
 public:
  Reading() : state_(Absent{"not reported"}) {}
  Reading(T value) : state_(std::move(value)) {}  // NOLINT(google-explicit-constructor)
  Reading(Absent absent) : state_(std::move(absent)) {}  // NOLINT(google-explicit-constructor)

  static Reading absent(std::string reason) { return Reading(Absent{std::move(reason)}); }

  [[nodiscard]] bool known() const { return std::holds_alternative<T>(state_); }
  explicit operator bool() const { return known(); }
  [[nodiscard]] const T& value() const { return std::get<T>(state_); }
  [[nodiscard]] T& value() { return std::get<T>(state_); }
  const T& operator*() const { return value(); }
  const T* operator->() const { return &value(); }
  [[nodiscard]] T value_or(T fallback) const { return known() ? value() : fallback; }
  // The reason for absence; empty when a value is known.
  [[nodiscard]] std::string reason() const {
    return known() ? std::string() : std::get<Absent>(state_).reason;
  }

  bool operator==(const Reading&) const = default;

 private:
  std::variant<T, Absent> state_;
};

}  // namespace gpuvet::core
