// Per-GPU calls with a deadline on an abandonable worker thread (see deadline_caller.hpp).
#include "monitor/deadline_caller.hpp"

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <set>

namespace gpuvet::monitor {

// State shared by the caller and every worker it started, abandoned ones included.
struct DeadlineCaller::Shared {
  std::mutex mutex;
  std::condition_variable changed;
  std::set<int> busy;  // GPUs with an abandoned call still inside the source
};

// One worker's mailbox (guarded by Shared::mutex).
struct DeadlineCaller::Worker {
  std::function<void()> job;
  int gpu = -1;
  bool has_job = false;
  bool done = false;
  bool stop = false;
  bool abandoned = false;
};

namespace {

void work(const std::shared_ptr<DeadlineCaller::Shared>& shared, const std::shared_ptr<DeadlineCaller::Worker>& w) noexcept {
  std::unique_lock lock(shared->mutex);
  for (;;) {
    shared->changed.wait(lock, [&] { return w->has_job || w->stop; });
    if (w->stop) return;
    std::function<void()> job = std::move(w->job);
    w->has_job = false;
    lock.unlock();
    try {
      job();
    } catch (...) {
      // A source call must not throw; if it does, the call simply produced nothing.
    }
    job = nullptr;  // release what the call captured outside the lock
    lock.lock();
    w->done = true;
    if (w->abandoned) {
      shared->busy.erase(w->gpu);
      return;  // the caller has a new worker; this thread ends here
    }
    shared->changed.notify_all();
  }
}

}  // namespace

DeadlineCaller::DeadlineCaller(double deadline_s) : deadline_s_(deadline_s), shared_(std::make_shared<Shared>()) {}

DeadlineCaller::~DeadlineCaller() {
  if (!worker_) return;
  {
    std::lock_guard lock(shared_->mutex);
    worker_->stop = true;
  }
  shared_->changed.notify_all();
  thread_.join();
}

bool DeadlineCaller::run(int gpu, std::function<void()> call) {
  if (!worker_) {
    worker_ = std::make_shared<Worker>();
    thread_ = std::thread([shared = shared_, w = worker_] { work(shared, w); });
  }
  std::unique_lock lock(shared_->mutex);
  if (shared_->busy.count(gpu) != 0) return false;
  worker_->job = std::move(call);
  worker_->gpu = gpu;
  worker_->done = false;
  worker_->has_job = true;
  shared_->changed.notify_all();
  const auto deadline = std::chrono::duration<double>(deadline_s_);
  if (shared_->changed.wait_for(lock, deadline, [&] { return worker_->done; })) return true;
  worker_->abandoned = true;
  shared_->busy.insert(gpu);
  lock.unlock();
  thread_.detach();
  worker_.reset();
  return false;
}

bool DeadlineCaller::busy(int gpu) const {
  std::lock_guard lock(shared_->mutex);
  return shared_->busy.count(gpu) != 0;
}

std::size_t DeadlineCaller::hung_calls() const {
  std::lock_guard lock(shared_->mutex);
  return shared_->busy.size();
}

}  // namespace gpuvet::monitor
