// Journal-format lines: "<priority>gpuvet: message", a newline inside a message kept on one line.
#include "monitor/journal_log.hpp"

#include <string>

namespace gpuvet::monitor {

void JournalLog::write(int priority, std::string_view message) {
  std::string line = "<" + std::to_string(priority) + ">gpuvet: ";
  for (const char c : message) line += (c == '\n' || c == '\r') ? ' ' : c;
  line += '\n';
  std::lock_guard lock(mutex_);
  out_ << line << std::flush;
}

}  // namespace gpuvet::monitor
