// Fuzzes the burn-in database reader (`gpuvet report --db`): the input is written to a file and
// opened as a SQLite database; it must give a BurninRecord or an Error naming the file.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "core/telemetry.hpp"
#include "telemetry/telemetry_store.hpp"

namespace {

void remove_db(const std::string& path) {
  for (const char* suffix : {"", "-wal", "-shm", "-journal"}) std::remove((path + suffix).c_str());
}

// One private directory per process, so parallel fuzzing jobs (-jobs=N) do not share files;
// removed when the process exits normally.
struct ScratchDb {
  std::string dir;
  std::string path;
  ScratchDb() {
    const char* tmp = std::getenv("TMPDIR");
    dir = std::string(tmp && *tmp ? tmp : "/tmp") + "/gpuvet-fuzz-XXXXXX";
    if (!mkdtemp(dir.data())) std::abort();
    path = dir + "/burnin.db";
  }
  ~ScratchDb() {
    remove_db(path);
    rmdir(dir.c_str());
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const ScratchDb scratch;
  const std::string& path = scratch.path;
  remove_db(path);
  std::FILE* file = std::fopen(path.c_str(), "wb");
  if (!file) std::abort();
  if (size > 0 && std::fwrite(data, 1, size, file) != size) std::abort();
  std::fclose(file);
  const auto record = gpuvet::telemetry::load_burnin(path);
  if (!record && record.error().message.find(path) == std::string::npos) __builtin_trap();
  remove_db(path);
  return 0;
}
