// A fixed pool of worker threads with a bounded queue of accepted connections, for cpp-httplib's
// Server (its own ThreadPool queues without limit). When every worker is busy and the queue is
// full, enqueue() waits: the accept thread stops accepting and further connections wait in the
// kernel's listen backlog, so a flood of connections costs bounded memory and never reaches the
// sampling thread. Called by the server's accept thread (enqueue, shutdown) only.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include <httplib.h>

namespace gpuvet::monitor {

class BoundedTaskQueue final : public httplib::TaskQueue {
 public:
  BoundedTaskQueue(std::size_t workers, std::size_t max_queued);
  ~BoundedTaskQueue() override;
  BoundedTaskQueue(const BoundedTaskQueue&) = delete;
  BoundedTaskQueue& operator=(const BoundedTaskQueue&) = delete;

  void enqueue(std::function<void()> job) override;
  // Runs what is queued (each job closes its connection), then joins the workers.
  void shutdown() override;

 private:
  void work();

  std::size_t max_queued_;
  std::mutex mutex_;
  std::condition_variable job_ready_;
  std::condition_variable slot_free_;
  std::deque<std::function<void()>> jobs_;
  bool shutting_down_ = false;
  std::vector<std::thread> workers_;
};

}  // namespace gpuvet::monitor
