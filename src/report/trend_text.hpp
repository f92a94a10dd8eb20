// Internal to the trend renderers: the pieces the HTML, Markdown and text forms say alike.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "report/trend_report.hpp"

namespace gpuvet::report {

// Database, period, buckets, host, source, interval, baseline: (key, value) in order.
std::vector<std::pair<std::string, std::string>> trend_facts(const TrendReport& report);
// What the report says when no card stands out.
std::string no_standout_text(const TrendReport& report);
// One line per finding (stand-outs first): "GPU 3 (hotter_than_peers): <next step>", each once.
std::vector<std::string> what_to_do(const TrendReport& report);

struct StandingRows {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;  // one per GPU, "n/a" where unknown
};
StandingRows standing_rows(const TrendReport& report);
std::string standing_legend(const TrendReport& report);
// "1 h", "15 min".
std::string bucket_text(double bucket_s);

}  // namespace gpuvet::report
