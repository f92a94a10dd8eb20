// posix_spawnp with stdout and stderr on pipes, read with poll until both close or the deadline.
#include "platform/process_runner.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

extern char** environ;

namespace gpuvet::platform {

namespace {

constexpr size_t kMaxOutputBytes = size_t{64} << 20;

struct Pipe {
  int fd[2] = {-1, -1};
  ~Pipe() {
    for (int f : fd) {
      if (f >= 0) ::close(f);
    }
  }
  void close_end(int i) {
    if (fd[i] >= 0) ::close(fd[i]);
    fd[i] = -1;
  }
};

ProcessResult failure(const std::string& what) {
  ProcessResult r;
  r.err = what + ": " + std::strerror(errno);
  return r;
}

}  // namespace

ProcessResult SystemProcessRunner::run(const std::vector<std::string>& argv, std::chrono::milliseconds timeout) {
  if (argv.empty()) return ProcessResult{true, false, -1, "", "no program given", false};
  Pipe out;
  Pipe err;
  if (::pipe2(out.fd, O_CLOEXEC) != 0 || ::pipe2(err.fd, O_CLOEXEC) != 0) return failure("pipe");
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, out.fd[1], 1);
  posix_spawn_file_actions_adddup2(&actions, err.fd[1], 2);
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = -1;
  const int rc = ::posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) {
    ProcessResult r;
    r.found = !(rc == ENOENT || rc == ENOTDIR);
    r.err = argv[0] + ": " + std::strerror(rc);
    return r;
  }
  out.close_end(1);
  err.close_end(1);

  ProcessResult r;
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  pollfd fds[2] = {{out.fd[0], POLLIN, 0}, {err.fd[0], POLLIN, 0}};
  std::string* sinks[2] = {&r.out, &r.err};
  char buf[65536];
  while (fds[0].fd >= 0 || fds[1].fd >= 0) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      r.timed_out = true;
      break;
    }
    const int n = ::poll(fds, 2, static_cast<int>(left.count()));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) break;
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || fds[i].revents == 0) continue;
      const ssize_t got = ::read(fds[i].fd, buf, sizeof buf);
      if (got > 0) {
        const auto room = kMaxOutputBytes - std::min(kMaxOutputBytes, sinks[i]->size());
        sinks[i]->append(buf, std::min(room, static_cast<size_t>(got)));
        r.truncated = r.truncated || static_cast<size_t>(got) > room;
      } else if (got == 0 || errno != EINTR) {
        fds[i].fd = -1;  // closed (the Pipe closes the descriptor)
      }
    }
  }
  if (r.timed_out) ::kill(pid, SIGKILL);  // our own child, started above
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (r.timed_out) r.exit_code = -1;
  else if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
  else if (WIFSIGNALED(status)) r.exit_code = 128 + WTERMSIG(status);
  return r;
}

}  // namespace gpuvet::platform
