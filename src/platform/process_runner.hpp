// Running a read-only program and capturing what it prints (gpuvet collect runs nvidia-smi,
// ibstat, lscpu ...). Injected: the collect command takes a ProcessRunner, tests may give their
// own. Called from the main thread; one program at a time.
#pragma once

#include <chrono>
#include <string>
#include <vector>

namespace gpuvet::platform {

struct ProcessResult {
  bool found = true;        // false: the program is not on PATH (nothing ran)
  bool timed_out = false;   // killed after the timeout; exit_code is then -1
  int exit_code = -1;       // the program's exit status; 128 + N when killed by signal N
  std::string out;          // standard output (at most max_output_bytes)
  std::string err;          // standard error (at most max_output_bytes)
  bool truncated = false;   // output went past max_output_bytes and was cut
};

class ProcessRunner {
 public:
  virtual ~ProcessRunner() = default;
  // Runs argv[0] (looked up on PATH unless it holds a '/') with argv[1..], standard input from
  // /dev/null. Never throws; an unexpected system failure is exit_code -1 with err saying why.
  virtual ProcessResult run(const std::vector<std::string>& argv, std::chrono::milliseconds timeout) = 0;
};

// posix_spawnp + pipes + poll; output past 64 MiB per stream is cut.
class SystemProcessRunner final : public ProcessRunner {
 public:
  ProcessResult run(const std::vector<std::string>& argv, std::chrono::milliseconds timeout) override;
};

}  // namespace gpuvet::platform
