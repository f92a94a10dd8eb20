// The monitor HTTP server's threads. BoundedTaskQueue: a fixed pool of worker threads with a bounded
// queue of requests whose head has arrived (handed over by the connection poller; the poller's
// connection limit keeps the queue below its bound, and were it full, enqueue() would wait).
// InlineTaskQueue: what cpp-httplib's accept loop hands each accepted socket to; it runs the job at
// once, and the job only gives the socket to the poller, so accepting never waits on a worker.
// Neither touches the sampling thread.
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

// cpp-httplib's task queue for the accept loop: runs each job on the accept thread itself.
class InlineTaskQueue final : public httplib::TaskQueue {
 public:
  void enqueue(std::function<void()> job) override;
  void shutdown() override {}
};

}  // namespace gpuvet::monitor
