// Pieces the health rules share (internal to analysis/health): finding construction with the
// catalogue's next step, rates and counter growth in words, and the severity of a counter's worst
// moment, live or over a period.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "analysis/health/counter_growth.hpp"
#include "analysis/health/health_rule.hpp"
#include "analysis/health/held_condition.hpp"

namespace gpuvet::analysis::health {

using Evidence = std::vector<std::pair<std::string, std::string>>;

// A finding of `code` about one GPU, the catalogue's next step, `basis` of the view appended.
HealthFinding health_finding(std::string_view code, core::Severity severity, int gpu, std::string message, Evidence evidence,
                             double since_s, const HealthView& view);

// "2.5/min", or per hour under 0.1/min ("1.0/h", not "0.0/min").
std::string rate_text(double per_s);
std::string number(double value, int decimals);

// Whether the counter counts in this view: live, its latest episode is up; over a period, it grew
// in the period (a rule says when that is only the tail of growth before it: only_prior_tail).
bool counts(const CounterGrowth& c, const HealthView& view);
// The counter's growth in words: live "+12 (3.0/min)" (the alert says since when); period
// "+40 (3.0/min from A to B)", with ", at most 9.0/min" when its worst rate reads otherwise.
std::string growth_words(const CounterGrowth& c, const HealthView& view);
// The growth and the worst rate, as the view sees them (live: the latest episode as of now).
std::uint64_t growth_of(const CounterGrowth& c, const HealthView& view);
double worst_rate_per_s(const CounterGrowth& c, const HealthView& view);
// Live: the same; over a period, the growth over the span it grew in (evidence "_per_min").
double mean_rate_per_s(const CounterGrowth& c, const HealthView& view);
// When the counted growth began (live: the latest episode's first rise).
double since_of(const CounterGrowth& c, const HealthView& view);

// Whether a held condition counts: live, its current run has lasted min_s; over a period, some
// run did (a run of min_s 0 counts from its first reading).
bool held_long(const HeldCondition& h, double min_s, const HealthView& view);
// When the run that counts began.
double held_since(const HeldCondition& h, const HealthView& view);

}  // namespace gpuvet::analysis::health
