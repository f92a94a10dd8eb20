// The daemon's log: one line per message on a stream (stderr), each prefixed with its syslog
// priority as sd-daemon(3) documents ("<6>gpuvet: sampling 8 GPUs every 1 s"), so journald files
// it at the right level and a terminal still reads it. Thread-safe: the sampling thread and the
// signal watcher both log.
#pragma once

#include <mutex>
#include <ostream>
#include <string_view>

namespace gpuvet::monitor {

class JournalLog {
 public:
  explicit JournalLog(std::ostream& out) : out_(out) {}
  void error(std::string_view message) { write(3, message); }    // LOG_ERR
  void warning(std::string_view message) { write(4, message); }  // LOG_WARNING
  void notice(std::string_view message) { write(5, message); }   // LOG_NOTICE
  void info(std::string_view message) { write(6, message); }     // LOG_INFO

 private:
  void write(int priority, std::string_view message);
  std::mutex mutex_;
  std::ostream& out_;
};

}  // namespace gpuvet::monitor
