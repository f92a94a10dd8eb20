// Aggregates over a collective run's table.
#include "core/collective.hpp"

#include <algorithm>

namespace gpuvet::core {

namespace {
template <class F>
void for_each_result(const CollectiveRun& run, F f) {
  for (const auto& row : run.rows) {
    f(row.out_of_place);
    f(row.in_place);
  }
}
}  // namespace

Reading<double> average_busbw_gbps(const CollectiveRun& run) {
  double sum = 0;
  int n = 0;
  for_each_result(run, [&](const CollectiveResult& r) {
    if (r.busbw_gbps) {
      sum += *r.busbw_gbps;
      ++n;
    }
  });
  if (n == 0) return Reading<double>::absent("no busbw values in the table");
  return sum / n;
}

Reading<double> peak_busbw_gbps(const CollectiveRun& run) {
  Reading<double> peak = Reading<double>::absent("no busbw values in the table");
  for_each_result(run, [&](const CollectiveResult& r) {
    if (r.busbw_gbps && (!peak || *r.busbw_gbps > *peak)) peak = *r.busbw_gbps;
  });
  return peak;
}

Reading<std::int64_t> wrong_total(const CollectiveRun& run) {
  Reading<std::int64_t> total = Reading<std::int64_t>::absent("results were not checked (-c 0)");
  for_each_result(run, [&](const CollectiveResult& r) {
    if (r.wrong) total = total.value_or(0) + *r.wrong;
  });
  return total;
}

}  // namespace gpuvet::core
