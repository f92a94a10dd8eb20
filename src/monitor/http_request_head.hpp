// What the monitor's HTTP server checks in a request head before cpp-httplib parses it (issue 20):
// whether the head is whole, whether it is within the limits (bytes and header lines; if not, the
// 414/431 answer, written here so cpp-httplib never parses it), and the head with its Range lines
// taken out, because cpp-httplib 0.11 would answer each byte range of a multi-range request with
// its own copy of the body (2000 ranges: 410 MB for one 6 KB request). Pure functions on bytes;
// used by http_connection_poller.cpp and http_server.cpp's workers.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace gpuvet::monitor {

struct HeadLimits {
  std::size_t max_request_bytes = 16 * 1024;  // request line + headers + the blank line
  std::size_t max_header_count = 100;         // header lines
};

// True when `bytes` hold a whole request head (it ends at the first empty CRLF line).
bool request_head_complete(std::string_view bytes);

// A complete "HTTP/1.1 414" or "431" answer (with Connection: close) when the request head that
// starts `bytes` is over `limits`: 414 when the request line alone is longer than the byte limit,
// 431 when the head is, or has more header lines than allowed. Empty when it is within them.
std::string refused_head_answer(std::string_view bytes, const HeadLimits& limits);

// Removes every "Range:" header line (any case) from the request head that starts `bytes`; the
// bytes after the head (a pipelined request) are left alone. Lines are cut as cpp-httplib reads
// them: up to each '\n', the name being what precedes the first ':'.
void remove_range_headers(std::string& bytes);

}  // namespace gpuvet::monitor
