// Request-head checks before cpp-httplib parses a request (see http_request_head.hpp).
#include "monitor/http_request_head.hpp"

#include <algorithm>
#include <cctype>

#include <fmt/format.h>

namespace gpuvet::monitor {
namespace {

constexpr std::string_view kHeadEnd = "\r\n\r\n";

std::string refusal(int status, std::string_view reason, std::string_view body) {
  return fmt::format(
      "HTTP/1.1 {} {}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{}",
      status, reason, body.size(), body);
}

bool is_range_name(std::string_view name) {
  constexpr std::string_view kRange = "range";
  return name.size() == kRange.size() && std::equal(name.begin(), name.end(), kRange.begin(), [](char a, char b) {
           return std::tolower(static_cast<unsigned char>(a)) == b;
         });
}

}  // namespace

bool request_head_complete(std::string_view bytes) { return bytes.find(kHeadEnd) != std::string_view::npos; }

std::string refused_head_answer(std::string_view bytes, const HeadLimits& limits) {
  const std::size_t end = bytes.find(kHeadEnd);
  const std::size_t head_bytes = end == std::string_view::npos ? bytes.size() : end + kHeadEnd.size();
  const bool too_long = end == std::string_view::npos ? bytes.size() >= limits.max_request_bytes
                                                      : head_bytes > limits.max_request_bytes;
  if (too_long) {
    if (bytes.find('\n') == std::string_view::npos) {
      return refusal(414, "URI Too Long",
                     fmt::format("request line over {} bytes: gpuvet monitor serves /metrics, /alerts and /healthz\n",
                                 limits.max_request_bytes));
    }
    return refusal(431, "Request Header Fields Too Large",
                   fmt::format("request head over {} bytes: gpuvet monitor takes a plain GET\n", limits.max_request_bytes));
  }
  if (end == std::string_view::npos) return {};
  const auto head = bytes.substr(0, head_bytes);
  const auto lines = static_cast<std::size_t>(std::count(head.begin(), head.end(), '\n'));
  const std::size_t header_lines = lines >= 2 ? lines - 2 : 0;  // less the request line and the blank line
  if (header_lines > limits.max_header_count) {
    return refusal(431, "Request Header Fields Too Large",
                   fmt::format("request with {} header lines, over the limit of {}: gpuvet monitor takes a plain GET\n",
                               header_lines, limits.max_header_count));
  }
  return {};
}

void remove_range_headers(std::string& bytes) {
  const std::size_t end = bytes.find(kHeadEnd);
  const std::size_t first = bytes.find('\n');
  if (end == std::string::npos || first == std::string::npos || first > end) return;
  const std::size_t headers_end = end + 2;  // the last header line's CRLF; the blank line stays
  std::string kept = bytes.substr(0, first + 1);
  for (std::size_t at = first + 1; at < headers_end;) {
    const std::size_t newline = bytes.find('\n', at);
    const std::size_t next = newline + 1;
    const std::string_view line = std::string_view(bytes).substr(at, next - at);
    const bool crlf = line.size() >= 2 && line[line.size() - 2] == '\r';
    const std::size_t colon = line.find(':');
    const bool range = crlf && colon != std::string_view::npos && is_range_name(line.substr(0, colon));
    if (!range) kept.append(line);
    at = next;
  }
  kept.append(bytes, headers_end);
  bytes = std::move(kept);
}

}  // namespace gpuvet::monitor
