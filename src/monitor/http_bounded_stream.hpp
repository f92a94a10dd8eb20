// The socket stream the monitor's HTTP server reads requests through: cpp-httplib 0.11 (Debian 12)
// has no limit on the number of header lines and its read timeout applies per read, so a client
// that sends endless headers, or one byte every few seconds, would hold a worker and grow memory
// forever. This stream caps the bytes and the total time of one request; past either, reads fail
// and cpp-httplib answers 400 or drops the connection. A request's first bytes may already have been
// read (by the connection poller): the stream starts with them, and its time budget from when they
// came. Used only by http_server.cpp's workers.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstddef>
#include <string>
#include <string_view>

#include <httplib.h>

namespace gpuvet::monitor {

struct StreamLimits {
  std::size_t max_request_bytes = 64 * 1024;       // request line + headers + body, per request
  std::chrono::milliseconds request_timeout{5000};  // to receive one whole request
  std::chrono::milliseconds write_timeout{5000};    // per write of the answer
};

class BoundedSocketStream final : public httplib::Stream {
 public:
  // `received`: the request's bytes read so far, the first at `request_started`.
  BoundedSocketStream(int sock, StreamLimits limits, std::string received,
                      std::chrono::steady_clock::time_point request_started);

  // Starts the byte and time budget of the next request on a kept-alive connection.
  void start_request();
  // True when received bytes wait in the buffer (a pipelined request).
  [[nodiscard]] bool has_buffered() const { return begin_ < buffer_.size(); }
  [[nodiscard]] std::string_view buffered() const { return std::string_view(buffer_).substr(begin_); }
  // The buffered bytes, moved out (the stream is then empty).
  std::string take_buffered();

  bool is_readable() const override;
  bool is_writable() const override;
  ssize_t read(char* ptr, size_t size) override;
  ssize_t write(const char* ptr, size_t size) override;
  void get_remote_ip_and_port(std::string& ip, int& port) const override;
  void get_local_ip_and_port(std::string& ip, int& port) const override;
  socket_t socket() const override { return sock_; }

 private:
  [[nodiscard]] int remaining_ms() const;

  int sock_;
  StreamLimits limits_;
  std::chrono::steady_clock::time_point deadline_;
  std::size_t received_ = 0;
  std::string buffer_;  // received, not yet read by cpp-httplib from begin_ on
  std::size_t begin_ = 0;
};

}  // namespace gpuvet::monitor
