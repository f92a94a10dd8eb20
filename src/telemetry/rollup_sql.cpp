// Rollup rows: binding, reading and merging the columns of a PeriodRollup.
#include "telemetry/rollup_sql.hpp"

#include <fmt/format.h>

#include <type_traits>
#include <variant>

#include "telemetry/sqlite_db.hpp"

namespace gpuvet::telemetry {

namespace {

// T, const when R is.
template <class R, class T>
using Like = std::conditional_t<std::is_const_v<R>, const T, T>;

// The member of `r` (PeriodRollup, const or not) a column holds.
template <class R>
std::variant<Like<R, std::size_t>*, Like<R, double>*, Like<R, std::optional<double>>*, Like<R, std::optional<std::uint64_t>>*>
field_of(R& r, RollupField f) {
  using F = RollupField;
  switch (f) {
    case F::samples: return &r.samples;
    case F::t_s: return &r.t_s;
    case F::util_min: return &r.util_gpu_pct.min;
    case F::util_mean: return &r.util_gpu_pct.mean;
    case F::util_max: return &r.util_gpu_pct.max;
    case F::temp_min: return &r.gpu_temp_c.min;
    case F::temp_mean: return &r.gpu_temp_c.mean;
    case F::temp_max: return &r.gpu_temp_c.max;
    case F::power_min: return &r.power_w.min;
    case F::power_mean: return &r.power_w.mean;
    case F::power_max: return &r.power_w.max;
    case F::clock_min: return &r.sm_clock_mhz.min;
    case F::clock_mean: return &r.sm_clock_mhz.mean;
    case F::clock_max: return &r.sm_clock_mhz.max;
    case F::throttled: return &r.throttled;
    case F::nvlink_crc_new: return &r.nvlink_crc_new;
    case F::nvlink_replay_new: return &r.nvlink_replay_new;
    case F::nvlink_recovery_new: return &r.nvlink_recovery_new;
    case F::ecc_corrected_new: return &r.ecc_corrected_new;
    case F::ecc_uncorrected_new: return &r.ecc_uncorrected_new;
    case F::pcie_replays_new: return &r.pcie_replays_new;
    case F::loaded: return &r.loaded;
    case F::tflops: return &r.tflops;
    case F::throttled_from_s: return &r.throttled_from_s;
    case F::throttled_to_s: return &r.throttled_to_s;
  }
  return &r.samples;  // unreachable: every enumerator is listed
}

// old and excluded.old merged as `merge` says (SQLite evaluates every SET expression on the old row).
std::string merged(std::string_view c, RollupMerge merge) {
  const std::string add = fmt::format("excluded.{}", c);
  // A side that has no value leaves the other's.
  const auto either = [&](const std::string& both) {
    return fmt::format("CASE WHEN {0} IS NULL THEN {1} WHEN {1} IS NULL THEN {0} ELSE {2} END", c, add, both);
  };
  switch (merge) {
    case RollupMerge::sum: return either(fmt::format("{} + {}", c, add));
    case RollupMerge::mean_by_samples:
      return either(fmt::format("({0} * samples + {1} * excluded.samples) / (samples + excluded.samples)", c, add));
    case RollupMerge::mean_by_loaded:
      return either(fmt::format("({0} * loaded + {1} * excluded.loaded) / max(1, loaded + excluded.loaded)", c, add));
    case RollupMerge::min: return fmt::format("min(coalesce({1}, {0}), coalesce({0}, {1}))", c, add);
    case RollupMerge::max: return fmt::format("max(coalesce({1}, {0}), coalesce({0}, {1}))", c, add);
  }
  return std::string(c);
}

}  // namespace

std::string rollup_column_names(std::span<const RollupColumn> columns) {
  std::string out;
  for (const auto& c : columns) out += fmt::format("{}{}", out.empty() ? "" : ", ", c.name);
  return out;
}

std::string rollup_upsert_sql(std::string_view table, std::string_view key1, std::string_view key2,
                              std::span<const RollupColumn> columns, std::string_view extra_columns,
                              std::string_view extra_set) {
  std::string names = fmt::format("{}, {}, {}", key1, key2, rollup_column_names(columns));
  if (!extra_columns.empty()) names += fmt::format(", {}", extra_columns);
  std::string values = "?";
  for (const char c : names) {
    if (c == ',') values += ",?";
  }
  std::string set;
  for (const auto& c : columns) set += fmt::format("{}{} = {}", set.empty() ? "" : ", ", c.name, merged(c.name, c.merge));
  return fmt::format("INSERT INTO {} ({}) VALUES ({}) ON CONFLICT ({}, {}) DO UPDATE SET {}{}", table, names, values, key1,
                     key2, set, extra_set);
}

void bind_rollup_columns(Statement& st, int& col, const PeriodRollup& r, std::span<const RollupColumn> columns) {
  for (const auto& c : columns) {
    std::visit(
        [&](auto* v) {
          using T = std::remove_cv_t<std::remove_pointer_t<decltype(v)>>;
          if constexpr (std::is_same_v<T, std::size_t>) {
            st.bind(col, static_cast<std::int64_t>(*v));
          } else if constexpr (std::is_same_v<T, double>) {
            st.bind(col, *v);
          } else if constexpr (std::is_same_v<T, std::optional<double>>) {
            st.bind_optional(col, *v);
          } else if (*v) {
            st.bind(col, static_cast<std::int64_t>(**v));
          } else {
            st.bind_null(col);
          }
        },
        field_of(r, c.field));
    ++col;
  }
}

void read_rollup_columns(const Statement& st, int& col, PeriodRollup& r, std::span<const RollupColumn> columns) {
  for (const auto& c : columns) {
    std::visit(
        [&](auto* v) {
          using T = std::remove_cv_t<std::remove_pointer_t<decltype(v)>>;
          if constexpr (std::is_same_v<T, std::size_t>) {
            *v = static_cast<std::size_t>(st.get_int(col));
          } else if constexpr (std::is_same_v<T, double>) {
            *v = st.get_double(col);
          } else if constexpr (std::is_same_v<T, std::optional<double>>) {
            *v = st.opt_double(col);
          } else if (const auto i = st.opt_int(col)) {
            *v = static_cast<std::uint64_t>(*i);
          } else {
            v->reset();
          }
        },
        field_of(r, c.field));
    ++col;
  }
}

}  // namespace gpuvet::telemetry
