// The request-head checks the monitor's HTTP server makes before cpp-httplib parses a request:
// a whole head, the byte and header-line limits (414/431), and Range lines taken out (issue 20).
#include <gtest/gtest.h>

#include <string>

#include "monitor/http_request_head.hpp"

namespace gpuvet::monitor {
namespace {

TEST(RequestHead, CompleteAtTheFirstEmptyLine) {
  EXPECT_TRUE(request_head_complete("GET / HTTP/1.1\r\nHost: x\r\n\r\n"));
  EXPECT_TRUE(request_head_complete("GET / HTTP/1.1\r\n\r\nGET /"));
  EXPECT_FALSE(request_head_complete("GET / HTTP/1.1\r\nHost: x\r\n"));
  EXPECT_FALSE(request_head_complete("GET / HTTP/1.1\n\n"));  // cpp-httplib needs CRLF too
  EXPECT_FALSE(request_head_complete(""));
}

TEST(RequestHead, WithinTheLimitsIsNotRefused) {
  const HeadLimits limits{100, 2};
  EXPECT_EQ(refused_head_answer("GET / HTTP/1.1\r\nA: 1\r\nB: 2\r\n\r\n", limits), "");
  EXPECT_EQ(refused_head_answer("GET / HTTP/1.1\r\n\r\n", limits), "");
  // The limit is on the head: a pipelined request after it does not count.
  EXPECT_EQ(refused_head_answer("GET / HTTP/1.1\r\n\r\n" + std::string(200, 'x'), limits), "");
}

TEST(RequestHead, TooManyHeaderLinesIs431) {
  const auto answer = refused_head_answer("GET / HTTP/1.1\r\nA: 1\r\nB: 2\r\nC: 3\r\n\r\n", HeadLimits{100, 2});
  EXPECT_EQ(answer.rfind("HTTP/1.1 431 Request Header Fields Too Large\r\n", 0), 0u) << answer;
  EXPECT_NE(answer.find("\r\nConnection: close\r\n"), std::string::npos) << answer;
  EXPECT_NE(answer.find("3 header lines, over the limit of 2"), std::string::npos) << answer;
  const auto body = answer.substr(answer.find("\r\n\r\n") + 4);
  EXPECT_NE(answer.find("Content-Length: " + std::to_string(body.size()) + "\r\n"), std::string::npos) << answer;
}

TEST(RequestHead, TooManyBytesIs431Or414) {
  const HeadLimits limits{64, 100};
  // Handed over at the byte limit without its end: 431, or 414 when the request line has no end.
  EXPECT_EQ(refused_head_answer("GET / HTTP/1.1\r\nX: " + std::string(60, 'x'), limits).rfind("HTTP/1.1 431", 0), 0u);
  EXPECT_EQ(refused_head_answer("GET /" + std::string(80, 'a'), limits).rfind("HTTP/1.1 414", 0), 0u);
  // A whole head longer than the limit (the poller never reads one, but the check does not rely on it).
  EXPECT_EQ(refused_head_answer("GET / HTTP/1.1\r\nX: " + std::string(60, 'x') + "\r\n\r\n", limits).rfind("HTTP/1.1 431", 0), 0u);
  // Not yet whole and under the limit: nothing to say yet.
  EXPECT_EQ(refused_head_answer("GET / HTTP/1.1\r\n", limits), "");
}

TEST(RequestHead, RangeLinesAreRemovedInAnyCase) {
  std::string bytes =
      "GET /metrics HTTP/1.1\r\nHost: x\r\nRange: bytes=0-,0-\r\nrange: bytes=1-2\r\nRANGE:bytes=5-\r\nAccept: */*\r\n\r\n";
  remove_range_headers(bytes);
  EXPECT_EQ(bytes, "GET /metrics HTTP/1.1\r\nHost: x\r\nAccept: */*\r\n\r\n");
}

TEST(RequestHead, OnlyRangeLinesOfTheFirstHeadAreRemoved) {
  // Names that merely contain "range", a value that does, a line cpp-httplib skips (no CR) and a
  // pipelined request's Range (removed when that request is served) all stay.
  const std::string kept =
      "GET / HTTP/1.1\r\nRange: 3\nX-Range: 1\r\nRange : 2\r\nAccept: range\r\n\r\n";
  const std::string next = "GET / HTTP/1.1\r\nRange: bytes=0-\r\n\r\n";
  std::string bytes = kept + next;
  remove_range_headers(bytes);
  EXPECT_EQ(bytes, kept + next);
  std::string second = next;
  remove_range_headers(second);
  EXPECT_EQ(second, "GET / HTTP/1.1\r\n\r\n");
}

TEST(RequestHead, HeadWithoutHeadersOrNotWholeIsLeftAlone) {
  for (std::string bytes : {std::string("GET / HTTP/1.1\r\n\r\n"), std::string("GET / HTTP/1.1\r\nRange: bytes=0-"),
                            std::string("")}) {
    const std::string before = bytes;
    remove_range_headers(bytes);
    EXPECT_EQ(bytes, before);
  }
}

}  // namespace
}  // namespace gpuvet::monitor
