// What the monitor's HTTP endpoint answers, as pure functions of the latest snapshot: status,
// content type and body for /metrics, /alerts and /healthz, and the answers for unknown paths and
// methods. The server (http_server.cpp) only routes; these are tested without a socket.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "monitor/metrics_exposition.hpp"
#include "monitor/monitor_snapshot.hpp"

namespace gpuvet::monitor {

struct HttpAnswer {
  int status = 200;
  std::string content_type;
  std::string body;
};

// `snapshot` is null until the sampler's first publish: every endpoint then answers 503.
HttpAnswer metrics_answer(const std::shared_ptr<const MonitorSnapshot>& snapshot, const MetricsOptions& options);
// {"alerts":[{"code","severity","gpus","since","message","next_step","evidence"}],
//  "hostname","taken","healthy"}; since/taken as RFC 3339 UTC with milliseconds.
HttpAnswer alerts_answer(const std::shared_ptr<const MonitorSnapshot>& snapshot);
// 200 "ok" when the snapshot says healthy, else 503 with its reason.
HttpAnswer healthz_answer(const std::shared_ptr<const MonitorSnapshot>& snapshot);
HttpAnswer not_found_answer(std::string_view path);
HttpAnswer method_not_allowed_answer(std::string_view method);

// 2026-12-01T17:33:00.123Z
std::string rfc3339_utc(std::int64_t unix_ms);

}  // namespace gpuvet::monitor
