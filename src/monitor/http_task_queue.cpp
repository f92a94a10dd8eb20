// The monitor HTTP server's worker pool and inline accept queue (see http_task_queue.hpp).
#include "monitor/http_task_queue.hpp"

namespace gpuvet::monitor {

BoundedTaskQueue::BoundedTaskQueue(std::size_t workers, std::size_t max_queued)
    : max_queued_(max_queued == 0 ? 1 : max_queued) {
  if (workers == 0) workers = 1;
  workers_.reserve(workers);
  for (std::size_t i = 0; i < workers; ++i) workers_.emplace_back([this] { work(); });
}

BoundedTaskQueue::~BoundedTaskQueue() { shutdown(); }

void BoundedTaskQueue::enqueue(std::function<void()> job) {
  std::unique_lock lock(mutex_);
  slot_free_.wait(lock, [this] { return jobs_.size() < max_queued_ || shutting_down_; });
  if (shutting_down_) {
    // The job is what closes the accepted socket: run it rather than leak the descriptor.
    lock.unlock();
    try {
      job();
    } catch (...) {  // NOLINT(bugprone-empty-catch): the connection is closed either way
    }
    return;
  }
  jobs_.push_back(std::move(job));
  job_ready_.notify_one();
}

void BoundedTaskQueue::shutdown() {
  {
    std::lock_guard lock(mutex_);
    if (shutting_down_ && workers_.empty()) return;
    shutting_down_ = true;
  }
  job_ready_.notify_all();
  slot_free_.notify_all();
  for (auto& worker : workers_) {
    if (worker.joinable()) worker.join();
  }
  workers_.clear();
}

void BoundedTaskQueue::work() {
  for (;;) {
    std::function<void()> job;
    {
      std::unique_lock lock(mutex_);
      job_ready_.wait(lock, [this] { return !jobs_.empty() || shutting_down_; });
      if (jobs_.empty()) return;  // shutting down and drained
      job = std::move(jobs_.front());
      jobs_.pop_front();
    }
    slot_free_.notify_one();
    // No exception may leave a thread entry point; a handler that throws loses one answer only.
    try {
      job();
    } catch (...) {  // NOLINT(bugprone-empty-catch)
    }
  }
}

void InlineTaskQueue::enqueue(std::function<void()> job) {
  try {
    job();
  } catch (...) {  // NOLINT(bugprone-empty-catch): no exception may stop the accept loop
  }
}

}  // namespace gpuvet::monitor
