// NCCL collectives on the local GPUs: one process, one communicator per GPU set
// (ncclCommInitAll), CUDA events around every iteration on every rank's stream, a check pass
// counting wrong elements, and a deadline: work that has not completed by then is reported as
// hung and the communicators are aborted (ncclCommAbort), so the tool never waits forever.
// Across processes (one per node): rank 0's ncclGetUniqueId travels through the ProcessGroup
// and every process inits its GPUs' ranks (ncclCommInitRank in one group). An NVLS setting gets
// communicators of its own, NCCL_NVLS_ENABLE set around their init.
//
// Not run on real hardware from this tree (CI has no GPU): written against nccl.h 2.28.
#include "backends/cuda/nccl_backend.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <future>
#include <memory>
#include <optional>
#include <thread>

#include "backends/cuda/cuda_context.hpp"
#include "backends/cuda/nccl_kernels.hpp"
#include "backends/cuda/nccl_library.hpp"

namespace gpuvet::cuda {
namespace {

using Clock = std::chrono::steady_clock;
constexpr std::uint64_t kReservedBytes = 1ull << 30;  // left to the driver, NCCL's buffers, the context

// cudaMalloc's pointers, from the driver's allocation (unified addressing: the same numbers).
template <class T>
T* as_pointer(driver::CUdeviceptr p) {
  return reinterpret_cast<T*>(static_cast<std::uintptr_t>(p));
}
driver::CUdeviceptr as_address(const void* p) { return reinterpret_cast<std::uintptr_t>(p); }

// Sets an environment variable for the lifetime of the guard, then restores it. NCCL reads its
// settings from the environment at communicator init; gpuvet is single-threaded there.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const std::string& value, bool only_if_unset = false) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    if (only_if_unset && old_) return;
    ::setenv(name, value.c_str(), 1);
    changed_ = true;
  }
  ~ScopedEnv() {
    if (!changed_) return;
    if (old_) {
      ::setenv(name_, old_->c_str(), 1);
    } else {
      ::unsetenv(name_);
    }
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  const char* name_;
  std::optional<std::string> old_;
  bool changed_ = false;
};

// Which communicators are live: the GPU set, the NVLS setting, and whether they span processes.
struct CommKey {
  std::vector<int> gpus;
  int nvls = -1;       // -1 NCCL's choice, 0 or 1 NCCL_NVLS_ENABLE
  bool across = false;
  bool operator==(const CommKey&) const = default;
};

struct RankBuffers {
  driver::CUstream stream = nullptr;
  float* send = nullptr;
  float* recv = nullptr;
  std::uint64_t capacity = 0;  // bytes of each of send and recv
  unsigned long long* wrong = nullptr;
};

constexpr int kFirstNcclWithNoCache = 22900;  // 2.29.0: ncclGetVersion's major*10000 + minor*100 + patch

class NcclBackend final : public api::CollectiveBackend {
 public:
  NcclBackend(std::shared_ptr<Gpus> gpus, std::unique_ptr<nccl::Library> lib, std::vector<api::DeviceInfo> devices)
      : gpus_(std::move(gpus)), lib_(std::move(lib)), devices_(std::move(devices)) {}
  ~NcclBackend() override {
    // After a hang the GPUs may still run the aborted kernels; cuMemFree would wait for them.
    // The process is about to exit, so the memory and the primary contexts are left to the
    // driver, and the library stays loaded (a thread may still be inside it).
    if (hung_) {
      static_cast<void>(lib_.release());
      static_cast<void>(new std::shared_ptr<Gpus>(std::move(gpus_)));
      return;
    }
    release();
  }
  NcclBackend(const NcclBackend&) = delete;
  NcclBackend& operator=(const NcclBackend&) = delete;

  [[nodiscard]] std::string describe() const override {
    return fmt::format("NCCL {} ({}), {}", lib_->version(), lib_->name(), gpus_->describe());
  }
  [[nodiscard]] bool simulated() const override { return false; }
  void release() override {
    if (hung_) return;  // the GPUs may still be busy: nothing is freed before the process exits
    release_comms(false);
    const auto& api = gpus_->api();
    for (auto& [ordinal, b] : buffers_) {
      if (gpus_->use(ordinal)) continue;
      if (b.send != nullptr) api.mem_free(as_address(b.send));
      if (b.recv != nullptr) api.mem_free(as_address(b.recv));
      if (b.wrong != nullptr) api.mem_free(as_address(b.wrong));
      if (b.stream != nullptr) api.stream_destroy(b.stream);
    }
    buffers_.clear();
  }
  // NCCL 2.28.3's parameter loader has no NCCL_NO_CACHE; its successors' does (not yet checked on a
  // GPU). Below that, a second NVLS setting in this process would silently keep the first.
  [[nodiscard]] bool can_switch_nvls() const override {
    int code = 0;
    return lib_->api().get_version(&code) == nccl::ncclSuccess && code >= kFirstNcclWithNoCache;
  }
  core::Result<std::vector<api::DeviceInfo>> devices() override { return devices_; }

  core::Result<std::uint64_t> memory_per_gpu() override {
    std::uint64_t smallest = UINT64_MAX;
    for (const auto& d : devices_) {
      std::size_t free_bytes = 0;
      std::size_t total = 0;
      if (auto e = gpus_->use(d.ordinal)) return *e;
      if (auto rc = gpus_->api().mem_get_info(&free_bytes, &total); rc != driver::kSuccess) {
        return gpus_->driver().error(fmt::format("GPU {}: memory info", d.ordinal), rc);
      }
      const auto it = buffers_.find(d.ordinal);
      const std::uint64_t ours = it == buffers_.end() ? 0 : 2 * it->second.capacity;
      smallest = std::min<std::uint64_t>(smallest, free_bytes + ours);
    }
    return smallest > kReservedBytes ? smallest - kReservedBytes : 0;
  }

  core::Result<api::CollectiveSample> run(const api::CollectiveRequest& request) override { return run_on(request, nullptr); }
  core::Result<api::CollectiveSample> run_across(const api::CollectiveRequest& request, api::ProcessGroup& group) override {
    return run_on(request, &group);
  }

 private:
  core::Result<api::CollectiveSample> run_on(const api::CollectiveRequest& request, api::ProcessGroup* group);
  std::optional<core::Error> ensure_comms(const api::CollectiveRequest& request, api::ProcessGroup* group);
  std::optional<core::Error> init_across(const std::vector<int>& gpus, api::ProcessGroup& group,
                                         std::chrono::milliseconds timeout);
  std::optional<core::Error> ensure_buffers(int ordinal, std::uint64_t bytes);
  std::optional<core::Error> issue(const api::CollectiveRequest& request, std::size_t count);
  // Ranks (positions) whose `events` have not completed by the deadline.
  std::vector<int> wait(const std::vector<driver::CUevent>& events, Clock::time_point deadline);
  void release_comms(bool abort) {
    for (auto comm : comms_) (abort ? lib_->api().comm_abort : lib_->api().comm_destroy)(comm);
    comms_.clear();
    comm_key_ = CommKey{};
    first_rank_ = 0;
    total_ranks_ = 0;
  }
  api::CollectiveSample hung(const api::CollectiveRequest& request, const std::vector<int>& pending);
  // Fills the inputs with the pattern, runs the collective once and counts wrong elements
  // (sample.wrong), or reports a hang.
  core::Result<api::CollectiveSample> check(const api::CollectiveRequest& request, std::size_t count,
                                            Clock::time_point deadline);

  std::shared_ptr<Gpus> gpus_;  // declared first: outlives everything allocated in its contexts
  std::unique_ptr<nccl::Library> lib_;
  std::vector<api::DeviceInfo> devices_;
  CommKey comm_key_;
  std::vector<nccl::ncclComm_t> comms_;
  int first_rank_ = 0;   // global rank of this process's first GPU (0 unless across processes)
  int total_ranks_ = 0;  // ranks of the communicator in all processes
  std::map<int, RankBuffers> buffers_;
  bool hung_ = false;  // a collective timed out: no further runs, no blocking cleanup
};

std::optional<core::Error> NcclBackend::ensure_comms(const api::CollectiveRequest& request, api::ProcessGroup* group) {
  const CommKey key{request.gpus, request.nvls ? (*request.nvls ? 1 : 0) : -1, group != nullptr};
  if (key == comm_key_ && !comms_.empty()) return std::nullopt;
  release_comms(false);
  // NCCL caches NCCL_NVLS_ENABLE at its first read unless NCCL_NO_CACHE names it (see
  // make_nccl_backend); with a cached value the second setting would silently not apply.
  std::optional<ScopedEnv> nvls;
  if (request.nvls) nvls.emplace("NCCL_NVLS_ENABLE", *request.nvls ? "1" : "0");
  if (group != nullptr) {
    if (auto e = init_across(request.gpus, *group, request.timeout)) return e;
  } else {
    comms_.assign(request.gpus.size(), nullptr);
    const auto rc = lib_->api().comm_init_all(comms_.data(), static_cast<int>(request.gpus.size()), request.gpus.data());
    if (rc != nccl::ncclSuccess) {
      for (auto comm : comms_) {
        if (comm != nullptr) lib_->api().comm_abort(comm);
      }
      comms_.clear();
      return core::environment_error(fmt::format("ncclCommInitAll on {} GPUs: {}", request.gpus.size(), lib_->describe(rc)));
    }
    first_rank_ = 0;
    total_ranks_ = static_cast<int>(request.gpus.size());
  }
  comm_key_ = key;
  return std::nullopt;
}

// Rank 0 makes the unique id, every process learns it and the rank counts, then inits its GPUs'
// ranks in one NCCL group (one thread drives several GPUs). Between nodes NCCL is asked for rings
// (NCCL_ALGO=Ring unless the user set NCCL_ALGO): tree and NVLSTree busbw can exceed what the
// NICs carry on 2 nodes (nccl-tests#196), and the ring is what measures them.
std::optional<core::Error> NcclBackend::init_across(const std::vector<int>& gpus, api::ProcessGroup& group,
                                                    std::chrono::milliseconds timeout) {
  nccl::ncclUniqueId id{};
  std::string bytes;
  if (group.rank() == 0) {
    if (const auto rc = lib_->api().get_unique_id(&id); rc != nccl::ncclSuccess) {
      bytes.clear();  // the others learn of the failure from the empty id
    } else {
      bytes.assign(id.internal, sizeof(id.internal));
    }
  }
  auto shared = group.broadcast(bytes);
  if (!shared) return shared.error();
  if (shared->size() != sizeof(id.internal)) return core::environment_error("ncclGetUniqueId failed on rank 0");
  std::memcpy(id.internal, shared->data(), sizeof(id.internal));
  auto counts = group.all_gather(std::to_string(gpus.size()));
  if (!counts) return counts.error();
  int first = 0;
  int total = 0;
  for (int p = 0; p < static_cast<int>(counts->size()); ++p) {
    const int n = std::atoi((*counts)[static_cast<std::size_t>(p)].c_str());
    if (p < group.rank()) first += n;
    total += n;
  }
  const ScopedEnv ring("NCCL_ALGO", "Ring", /*only_if_unset=*/true);
  // Blocking ncclCommInitRank waits for every rank of every process, so a process that never
  // joins would hold this one forever. The group runs on a helper thread; past the timeout this
  // process gives up: the thread stays inside NCCL, so the backend counts as hung (nothing more
  // runs, the library stays loaded) and the error reaches the other processes through the group.
  struct Init {
    nccl::ncclResult_t rc = nccl::ncclSuccess;
    std::vector<nccl::ncclComm_t> comms;
  };
  const auto& api = lib_->api();
  auto promise = std::make_shared<std::promise<Init>>();
  auto done = promise->get_future();
  // The helper thread makes each GPU's primary context current before its rank's init: NCCL
  // (through the CUDA runtime) takes the current context's device as the rank's GPU.
  std::thread([promise, &api, all = gpus_, gpus, id, total, first] {
    Init init;
    init.comms.assign(gpus.size(), nullptr);
    api.group_start();
    for (std::size_t i = 0; i < gpus.size(); ++i) {
      if (all->use(gpus[i]) && init.rc == nccl::ncclSuccess) init.rc = nccl::ncclInvalidArgument;
      const auto rc = api.comm_init_rank(&init.comms[i], total, id, first + static_cast<int>(i));
      if (rc != nccl::ncclSuccess && init.rc == nccl::ncclSuccess) init.rc = rc;
    }
    const auto rc = api.group_end();
    if (init.rc == nccl::ncclSuccess) init.rc = rc;
    promise->set_value(std::move(init));
  }).detach();
  if (done.wait_for(timeout) != std::future_status::ready) {
    hung_ = true;
    return core::environment_error(fmt::format(
        "ncclCommInitRank of {} of {} ranks across {} processes did not finish within {} s: a process did not join "
        "(see the other ranks' errors)",
        gpus.size(), total, group.size(), std::chrono::duration<double>(timeout).count()));
  }
  Init init = done.get();
  comms_ = std::move(init.comms);
  if (init.rc != nccl::ncclSuccess) {
    // Communicators NCCL did create must be aborted, not dropped (their proxy threads live on).
    for (auto comm : comms_) {
      if (comm != nullptr) api.comm_abort(comm);
    }
    comms_.clear();
    return core::environment_error(
        fmt::format("ncclCommInitRank of {} of {} ranks across {} processes: {}", gpus.size(), total, group.size(),
                    lib_->describe(init.rc)));
  }
  first_rank_ = first;
  total_ranks_ = total;
  return std::nullopt;
}

std::optional<core::Error> NcclBackend::ensure_buffers(int ordinal, std::uint64_t bytes) {
  RankBuffers& b = buffers_[ordinal];
  const auto& api = gpus_->api();
  const auto& drv = gpus_->driver();
  if (auto e = gpus_->use(ordinal)) return e;
  if (b.stream == nullptr) {
    if (auto rc = api.stream_create(&b.stream, driver::kStreamNonBlocking); rc != driver::kSuccess) {
      b.stream = nullptr;
      return drv.error(fmt::format("GPU {}: create stream", ordinal), rc);
    }
    driver::CUdeviceptr wrong = 0;
    if (auto rc = api.mem_alloc(&wrong, sizeof(unsigned long long)); rc != driver::kSuccess) {
      return drv.error(fmt::format("GPU {}: allocate the check counter", ordinal), rc);
    }
    b.wrong = as_pointer<unsigned long long>(wrong);
  }
  if (b.capacity >= bytes) return std::nullopt;
  if (b.send != nullptr) api.mem_free(as_address(b.send));
  if (b.recv != nullptr) api.mem_free(as_address(b.recv));
  b.send = b.recv = nullptr;
  b.capacity = 0;
  const std::string what = fmt::format("GPU {}: allocate {} B", ordinal, bytes);
  driver::CUdeviceptr send = 0;
  driver::CUdeviceptr recv = 0;
  if (auto rc = api.mem_alloc(&send, bytes); rc != driver::kSuccess) return drv.error(what, rc);
  b.send = as_pointer<float>(send);
  if (auto rc = api.mem_alloc(&recv, bytes); rc != driver::kSuccess) return drv.error(what, rc);
  b.recv = as_pointer<float>(recv);
  b.capacity = bytes;
  return std::nullopt;
}

// One collective on every rank, enqueued as one NCCL group. `count` = elements of `bytes`.
std::optional<core::Error> NcclBackend::issue(const api::CollectiveRequest& request, std::size_t count) {
  const auto& api = lib_->api();
  const int local = static_cast<int>(request.gpus.size());
  const int n = total_ranks_;  // every rank of the communicator, in all processes
  const std::size_t part = count / static_cast<std::size_t>(n);
  api.group_start();
  for (int l = 0; l < local; ++l) {
    const int r = first_rank_ + l;  // global rank
    RankBuffers& b = buffers_[request.gpus[static_cast<std::size_t>(l)]];
    nccl::ncclComm_t comm = comms_[static_cast<std::size_t>(l)];
    float* out = request.in_place ? b.send : b.recv;
    const auto offset = static_cast<std::size_t>(r) * part;
    nccl::ncclResult_t rc = nccl::ncclSuccess;
    switch (request.op) {
      case api::CollectiveOp::all_reduce:
        rc = api.all_reduce(b.send, out, count, nccl::ncclFloat32, nccl::ncclSum, comm, b.stream);
        break;
      case api::CollectiveOp::all_gather:
        rc = api.all_gather(request.in_place ? b.send + offset : b.send, out, part, nccl::ncclFloat32, comm, b.stream);
        break;
      case api::CollectiveOp::reduce_scatter:
        rc = api.reduce_scatter(b.send, request.in_place ? b.send + offset : b.recv, part, nccl::ncclFloat32,
                                nccl::ncclSum, comm, b.stream);
        break;
      case api::CollectiveOp::broadcast:
        rc = api.broadcast(b.send, out, count, nccl::ncclFloat32, 0, comm, b.stream);
        break;
      case api::CollectiveOp::sendrecv:
        rc = api.send(b.send, count, nccl::ncclFloat32, (r + 1) % n, comm, b.stream);
        if (rc == nccl::ncclSuccess) rc = api.recv(b.recv, count, nccl::ncclFloat32, (r + n - 1) % n, comm, b.stream);
        break;
      case api::CollectiveOp::alltoall:
        for (int p = 0; p < n && rc == nccl::ncclSuccess; ++p) {
          rc = api.send(b.send + static_cast<std::size_t>(p) * part, part, nccl::ncclFloat32, p, comm, b.stream);
          if (rc == nccl::ncclSuccess) rc = api.recv(b.recv + static_cast<std::size_t>(p) * part, part, nccl::ncclFloat32, p, comm, b.stream);
        }
        break;
    }
    if (rc != nccl::ncclSuccess) {
      api.group_end();
      return core::environment_error(fmt::format("{} on rank {}: {}", api::to_string(request.op), r, lib_->describe(rc)));
    }
  }
  const auto rc = api.group_end();
  if (rc != nccl::ncclSuccess) return core::environment_error(fmt::format("ncclGroupEnd: {}", lib_->describe(rc)));
  return std::nullopt;
}

std::vector<int> NcclBackend::wait(const std::vector<driver::CUevent>& events, Clock::time_point deadline) {
  std::vector<int> pending;
  for (std::size_t r = 0; r < events.size(); ++r) pending.push_back(static_cast<int>(r));
  while (!pending.empty()) {
    pending.erase(std::remove_if(pending.begin(), pending.end(),
                                 [&](int r) { return gpus_->api().event_query(events[static_cast<std::size_t>(r)]) != driver::kErrorNotReady; }),
                  pending.end());
    if (pending.empty() || Clock::now() >= deadline) break;
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  return pending;
}

api::CollectiveSample NcclBackend::hung(const api::CollectiveRequest& request, const std::vector<int>& pending) {
  api::CollectiveSample sample;
  api::CollectiveHang hang;
  for (int r : pending) hang.pending_gpus.push_back(request.gpus[static_cast<std::size_t>(r)]);
  for (std::size_t r = 0; r < comms_.size(); ++r) {
    nccl::ncclResult_t async = nccl::ncclSuccess;
    if (lib_->api().comm_get_async_error(comms_[r], &async) == nccl::ncclSuccess && async != nccl::ncclSuccess) {
      hang.detail += fmt::format("{}rank {}: {}", hang.detail.empty() ? "" : "; ", r, lib_->describe(async));
    }
  }
  if (hang.detail.empty()) hang.detail = "no NCCL error reported; communicators aborted";
  release_comms(true);
  hung_ = true;
  sample.hang = std::move(hang);
  return sample;
}

core::Result<api::CollectiveSample> NcclBackend::check(const api::CollectiveRequest& request, std::size_t count,
                                                       Clock::time_point deadline) {
  using api::CollectiveOp;
  const int local = static_cast<int>(request.gpus.size());
  const int n = total_ranks_;
  const std::size_t part = count / static_cast<std::size_t>(n);
  for (int l = 0; l < local; ++l) {
    const int r = first_rank_ + l;  // global rank: the pattern and the check use it
    RankBuffers& b = buffers_[request.gpus[static_cast<std::size_t>(l)]];
    auto gpu = gpus_->get(request.gpus[static_cast<std::size_t>(l)]);
    if (!gpu) return gpu.error();
    if (auto e = (*gpu)->make_current()) return *e;
    if (auto rc = gpus_->api().memset_d8_async(as_address(b.wrong), 0, sizeof(unsigned long long), b.stream); rc != driver::kSuccess) {
      return gpus_->driver().error("clear the check counter", rc);
    }
    const std::size_t offset = static_cast<std::size_t>(r) * part;
    std::optional<core::Error> failed;
    if (request.op == CollectiveOp::all_gather) {
      failed = launch_fill(**gpu, request.in_place ? b.send + offset : b.send, part, r, 0, b.stream);
    } else {
      failed = launch_fill(**gpu, b.send, count, r, 0, b.stream);
    }
    if (failed) return failed->with_context("pattern fill kernel");
  }
  if (auto e = issue(request, count)) return *e;
  std::vector<driver::CUevent> done(static_cast<std::size_t>(local), nullptr);
  auto destroy = [&] {
    for (auto e : done) {
      if (e != nullptr) gpus_->api().event_destroy(e);
    }
  };
  for (int l = 0; l < local; ++l) {
    const int r = first_rank_ + l;
    RankBuffers& b = buffers_[request.gpus[static_cast<std::size_t>(l)]];
    auto gpu = gpus_->get(request.gpus[static_cast<std::size_t>(l)]);
    if (!gpu) {
      destroy();
      return gpu.error();
    }
    if (auto e = (*gpu)->make_current()) {
      destroy();
      return *e;
    }
    const std::size_t offset = static_cast<std::size_t>(r) * part;
    const float* out = request.in_place ? b.send : b.recv;
    std::size_t elements = count;
    CheckOp op = CheckOp::all_reduce;
    switch (request.op) {
      case CollectiveOp::all_reduce: op = CheckOp::all_reduce; break;
      case CollectiveOp::all_gather: op = CheckOp::all_gather; break;
      case CollectiveOp::reduce_scatter:
        op = CheckOp::reduce_scatter;
        out = request.in_place ? b.send + offset : b.recv;
        elements = part;
        break;
      case CollectiveOp::alltoall: op = CheckOp::alltoall; out = b.recv; break;
      case CollectiveOp::broadcast: op = CheckOp::broadcast; break;
      case CollectiveOp::sendrecv: op = CheckOp::sendrecv; out = b.recv; break;
    }
    if (auto e = launch_check(**gpu, out, elements, op, r, n, part, b.wrong, b.stream)) {
      destroy();
      return e->with_context("result check kernel");
    }
    gpus_->api().event_create(&done[static_cast<std::size_t>(l)], driver::kEventDefault);
    gpus_->api().event_record(done[static_cast<std::size_t>(l)], b.stream);
  }
  if (auto pending = wait(done, deadline); !pending.empty()) {
    destroy();
    return hung(request, pending);
  }
  destroy();
  api::CollectiveSample sample;
  std::int64_t total = 0;
  for (int l = 0; l < local; ++l) {
    unsigned long long wrong = 0;
    if (auto e = gpus_->use(request.gpus[static_cast<std::size_t>(l)])) return *e;
    if (auto rc = gpus_->api().memcpy_dtoh(&wrong, as_address(buffers_[request.gpus[static_cast<std::size_t>(l)]].wrong),
                                           sizeof(wrong));
        rc != driver::kSuccess) {
      return gpus_->driver().error("reading the wrong-element count", rc);
    }
    total += static_cast<std::int64_t>(wrong);
  }
  sample.wrong = total;
  return sample;
}

core::Result<api::CollectiveSample> NcclBackend::run_on(const api::CollectiveRequest& request, api::ProcessGroup* group) {
  if (hung_) {
    return core::environment_error("an earlier collective hung and was aborted; its GPUs may still be busy, so "
                                   "nothing more is run in this process");
  }
  const auto deadline = Clock::now() + request.timeout;
  const std::size_t count = request.bytes / sizeof(float);
  if (auto e = ensure_comms(request, group)) return *e;
  for (int g : request.gpus) {
    if (auto e = ensure_buffers(g, std::max<std::uint64_t>(request.bytes, sizeof(float)))) return *e;
  }
  const std::size_t n = request.gpus.size();
  const auto& cu = gpus_->api();
  std::vector<driver::CUevent> events(n * static_cast<std::size_t>(2 * request.iterations), nullptr);
  auto destroy_events = [&] {
    for (auto e : events) {
      if (e != nullptr) cu.event_destroy(e);
    }
  };
  for (std::size_t r = 0; r < n; ++r) {
    if (auto e = gpus_->use(request.gpus[r])) {
      destroy_events();
      return *e;
    }
    for (int i = 0; i < 2 * request.iterations; ++i) {
      auto& slot = events[r * static_cast<std::size_t>(2 * request.iterations) + static_cast<std::size_t>(i)];
      if (auto rc = cu.event_create(&slot, driver::kEventDefault); rc != driver::kSuccess) {
        slot = nullptr;
        destroy_events();
        return gpus_->driver().error(fmt::format("GPU {}: create event", request.gpus[r]), rc);
      }
    }
  }
  auto event = [&](std::size_t r, int i) { return events[r * static_cast<std::size_t>(2 * request.iterations) + static_cast<std::size_t>(i)]; };
  for (int i = 0; i < request.warmup + request.iterations; ++i) {
    const int timed = i - request.warmup;
    if (timed >= 0) {
      for (std::size_t r = 0; r < n; ++r) cu.event_record(event(r, 2 * timed), buffers_[request.gpus[r]].stream);
    }
    if (auto e = issue(request, count)) {
      destroy_events();
      return *e;
    }
    if (timed >= 0) {
      for (std::size_t r = 0; r < n; ++r) cu.event_record(event(r, 2 * timed + 1), buffers_[request.gpus[r]].stream);
    }
  }
  std::vector<driver::CUevent> last;
  for (std::size_t r = 0; r < n; ++r) last.push_back(event(r, 2 * request.iterations - 1));
  if (auto pending = wait(last, deadline); !pending.empty()) {
    destroy_events();
    return hung(request, pending);
  }
  for (std::size_t r = 0; r < n; ++r) {
    if (auto rc = cu.event_query(last[r]); rc != driver::kSuccess) {
      destroy_events();
      return gpus_->driver().error(fmt::format("{} on GPU {}", api::to_string(request.op), request.gpus[r]), rc);
    }
  }
  api::CollectiveSample sample;
  for (int i = 0; i < request.iterations; ++i) {
    float worst_ms = 0;
    for (std::size_t r = 0; r < n; ++r) {
      float ms = 0;
      cu.event_elapsed_time(&ms, event(r, 2 * i), event(r, 2 * i + 1));
      worst_ms = std::max(worst_ms, ms);
    }
    sample.iteration_us.push_back(static_cast<double>(worst_ms) * 1000.0);
  }
  destroy_events();
  if (request.check) {
    auto checked = check(request, count, deadline);
    if (!checked) return checked.error();
    if (checked->hang) return std::move(checked).value();
    sample.wrong = checked->wrong;
  }
  return sample;
}

}  // namespace

core::Result<std::unique_ptr<api::CollectiveBackend>> make_nccl_backend(const std::string& library) {
  auto gpus = Gpus::open();
  if (!gpus) return gpus.error();
  if ((*gpus)->count() == 0) return core::environment_error(fmt::format("{}: the CUDA driver sees no GPU", (*gpus)->describe()));
  std::vector<api::DeviceInfo> devices;
  for (int d = 0; d < (*gpus)->count(); ++d) {
    auto info = (*gpus)->info(d);
    if (!info) return info.error();
    devices.push_back(std::move(info).value());
  }
  // NCCL reads each setting once per process and caches it (NCCL_PARAM); releases that honour
  // NCCL_NO_CACHE re-read the ones it names, which lets one process init communicators with
  // NVLS off and on. Older releases keep the first value: the --nvls both docs say so.
  const char* no_cache = std::getenv("NCCL_NO_CACHE");
  if (no_cache == nullptr || *no_cache == '\0') ::setenv("NCCL_NO_CACHE", "NCCL_NVLS_ENABLE", 1);
  auto lib = nccl::Library::load(library);
  if (!lib) return lib.error();
  return std::unique_ptr<api::CollectiveBackend>(
      new NcclBackend(std::move(gpus).value(), std::move(lib).value(), std::move(devices)));
}

}  // namespace gpuvet::cuda
