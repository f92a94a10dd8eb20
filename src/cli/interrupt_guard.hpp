// The SIGINT/SIGTERM handling that ends a live burn-in cleanly with everything recorded so far
// (`gpuvet burnin` and the burn-in stage of `gpuvet accept`).
#pragma once

#include <atomic>

namespace gpuvet::cli {

// While alive, SIGINT and SIGTERM set flag() instead of killing the process; the previous
// handlers come back on destruction. One at a time.
class InterruptGuard {
 public:
  InterruptGuard();
  ~InterruptGuard();
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;
  [[nodiscard]] static const std::atomic<bool>* flag();

 private:
  void (*previous_int_)(int) = nullptr;
  void (*previous_term_)(int) = nullptr;
};

}  // namespace gpuvet::cli
