// Prints what the endpoint serves for the tests' snapshot, for the promtool script test:
//   monitor_metrics_example metrics [--dcgm-names]   the /metrics body
//   monitor_metrics_example rules [SPEED]            the alerting rules file
#include <cstdio>
#include <cstdlib>
#include <string>

#include "metrics_test_snapshot.hpp"
#include "monitor/metrics_exposition.hpp"
#include "monitor/prometheus_rules.hpp"

int main(int argc, char** argv) {
  using namespace gpuvet::monitor;
  const std::string what = argc > 1 ? argv[1] : "";
  if (what == "metrics") {
    MetricsOptions options;
    options.dcgm_names = argc > 2 && std::string(argv[2]) == "--dcgm-names";
    std::fputs(render_metrics(testing::full_snapshot(), options).c_str(), stdout);
    return 0;
  }
  if (what == "rules") {
    RulesOptions options;
    if (argc > 2) options.speed = std::atof(argv[2]);
    std::fputs(prometheus_alert_rules(options).c_str(), stdout);
    return 0;
  }
  std::fputs("usage: monitor_metrics_example metrics [--dcgm-names] | rules [SPEED]\n", stderr);
  return 2;
}
