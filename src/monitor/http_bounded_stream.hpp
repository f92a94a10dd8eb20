// The stream a worker of the monitor's HTTP server hands cpp-httplib: it reads the request from
// the bytes the connection poller has already received (a whole head; never the socket, so a
// worker never waits on a client), and writes the answer into memory, capped at max_answer_bytes
// (past it writes fail and the answer is dropped). The poller then sends the answer without
// blocking, under the answer's deadline (issue 20: slow readers held every worker while
// cpp-httplib wrote to them). Used only by http_server.cpp's workers.
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <string>

#include <httplib.h>

namespace gpuvet::monitor {

class BoundedBufferStream final : public httplib::Stream {
 public:
  // `received`: the request's bytes (and any pipelined after it); `sock` only names the peer.
  BoundedBufferStream(int sock, std::string received, std::size_t max_answer_bytes);

  // The received bytes cpp-httplib has not read (a pipelined request), moved out.
  std::string take_unread();
  // The answer written, moved out; empty when it went past the cap.
  std::string take_answer();
  [[nodiscard]] bool answer_too_large() const { return too_large_; }

  bool is_readable() const override { return begin_ < received_.size(); }
  bool is_writable() const override { return !too_large_; }
  // From the received bytes only; 0 (end of stream) when they are used up.
  ssize_t read(char* ptr, size_t size) override;
  ssize_t write(const char* ptr, size_t size) override;
  void get_remote_ip_and_port(std::string& ip, int& port) const override;
  void get_local_ip_and_port(std::string& ip, int& port) const override;
  socket_t socket() const override { return sock_; }

 private:
  int sock_;
  std::string received_;
  std::size_t begin_ = 0;  // received_ is read by cpp-httplib from here on
  std::size_t max_answer_bytes_;
  std::string answer_;
  bool too_large_ = false;
};

}  // namespace gpuvet::monitor
