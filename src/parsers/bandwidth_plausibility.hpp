// What a measured bandwidth may be before we believe it: used by the nccl-tests, nvbandwidth and
// p2pBandwidthLatencyTest parsers, so a corrupt or hand-edited log is bad input, never a PASS.
#pragma once

#include <optional>
#include <string>

namespace gpuvet::parsers {

// Highest per-GPU bandwidth any parser accepts, in GB/s (1e9 B/s). No GPU interconnect carries
// more than ~2 TB/s per GPU today (NVLink 5 on B200/GB200: 1.8 TB/s both directions; the HBM3e
// behind a device-local copy: ~8 TB/s), so 10,000 GB/s leaves headroom for the next generation
// while refusing values such as 1e308 or 99,999,999 that no hardware produces.
inline constexpr double kMaxPlausibleGbps = 10000.0;

// Why `gbps` cannot be a measured bandwidth (negative, NaN, infinite, above `ceiling`), or
// nullopt when it can. The reason reads after the value: "'-3.5' is negative".
std::optional<std::string> implausible_gbps(double gbps, double ceiling = kMaxPlausibleGbps);

// The same for a value that is not a bandwidth but must still be a finite number >= 0 (a latency).
std::optional<std::string> implausible_non_negative(double value);

}  // namespace gpuvet::parsers
