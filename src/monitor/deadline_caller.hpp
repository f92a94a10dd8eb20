// Runs a live telemetry source's per-GPU calls (probe, sample) on a worker thread and waits for
// each at most a deadline, so an NVML call that hangs costs the daemon one deadline instead of its
// sampling thread. The worker stuck in a call is abandoned (detached; it ends if the call ever
// returns) and a fresh worker takes the next call; the GPU stays busy, and is not called again,
// until the abandoned call returns. Used by the monitor daemon's thread only, for sources whose
// calls for different GPUs may run on different threads at once (NVML; the simulator is called
// inline). What a call writes must be owned by the call (shared_ptr), since it may outlive run().
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <thread>

namespace gpuvet::monitor {

class DeadlineCaller {
 public:
  explicit DeadlineCaller(double deadline_s);
  ~DeadlineCaller();  // stops and joins the current worker; abandoned ones are left as they are
  DeadlineCaller(const DeadlineCaller&) = delete;
  DeadlineCaller& operator=(const DeadlineCaller&) = delete;

  // Runs `call` for `gpu` on the worker. False when it did not return within the deadline (the
  // worker is abandoned) or when `gpu` is still busy with an abandoned call (`call` is not run).
  bool run(int gpu, std::function<void()> call);
  // An abandoned call on `gpu` has not returned yet.
  [[nodiscard]] bool busy(int gpu) const;
  // Abandoned calls that have not returned yet (all GPUs).
  [[nodiscard]] std::size_t hung_calls() const;
  [[nodiscard]] double deadline_s() const { return deadline_s_; }

  struct Shared;
  struct Worker;

 private:
  double deadline_s_;
  std::shared_ptr<Shared> shared_;
  std::shared_ptr<Worker> worker_;
  std::thread thread_;
};

}  // namespace gpuvet::monitor
