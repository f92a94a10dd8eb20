// The MPI session over MPI_COMM_WORLD: gathers of variable-length texts, broadcasts of an int or bytes.
#include "backends/mpi/mpi_session.hpp"

#include <mpi.h>

#include <string>

namespace gpuvet::mpi {
namespace {

std::string mpi_words(int code) {
  char text[MPI_MAX_ERROR_STRING] = {};
  int length = 0;
  MPI_Error_string(code, text, &length);
  return std::string(text, static_cast<std::size_t>(length));
}

core::Error failed(const char* what, int code) {
  return core::environment_error(std::string(what) + " failed: " + mpi_words(code));
}

class WorldSession final : public Session {
 public:
  WorldSession(int rank, int size) : rank_(rank), size_(size) {}
  ~WorldSession() override { MPI_Finalize(); }
  WorldSession(const WorldSession&) = delete;
  WorldSession& operator=(const WorldSession&) = delete;

  [[nodiscard]] int rank() const override { return rank_; }
  [[nodiscard]] int size() const override { return size_; }

  core::Result<std::vector<std::string>> gather(const std::string& text) override {
    int length = static_cast<int>(text.size());
    std::vector<int> lengths(static_cast<std::size_t>(size_));
    if (int rc = MPI_Gather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, 0, MPI_COMM_WORLD); rc != MPI_SUCCESS) {
      return failed("MPI_Gather of report sizes", rc);
    }
    std::vector<int> offsets(static_cast<std::size_t>(size_), 0);
    int total = 0;
    for (std::size_t r = 0; r < lengths.size(); ++r) {
      offsets[r] = total;
      total += lengths[r];
    }
    std::string all(rank_ == 0 ? static_cast<std::size_t>(total) : 0, '\0');
    if (int rc = MPI_Gatherv(text.data(), length, MPI_CHAR, all.data(), lengths.data(), offsets.data(), MPI_CHAR, 0,
                             MPI_COMM_WORLD);
        rc != MPI_SUCCESS) {
      return failed("MPI_Gatherv of reports", rc);
    }
    std::vector<std::string> out;
    if (rank_ != 0) return out;
    for (std::size_t r = 0; r < lengths.size(); ++r) {
      out.push_back(all.substr(static_cast<std::size_t>(offsets[r]), static_cast<std::size_t>(lengths[r])));
    }
    return out;
  }

  core::Result<int> broadcast(int value) override {
    if (int rc = MPI_Bcast(&value, 1, MPI_INT, 0, MPI_COMM_WORLD); rc != MPI_SUCCESS) return failed("MPI_Bcast", rc);
    return value;
  }

  core::Result<std::string> broadcast(const std::string& bytes) override {
    int length = static_cast<int>(bytes.size());
    if (int rc = MPI_Bcast(&length, 1, MPI_INT, 0, MPI_COMM_WORLD); rc != MPI_SUCCESS) {
      return failed("MPI_Bcast of a size", rc);
    }
    std::string out = rank_ == 0 ? bytes : std::string(static_cast<std::size_t>(length), '\0');
    if (int rc = MPI_Bcast(out.data(), length, MPI_CHAR, 0, MPI_COMM_WORLD); rc != MPI_SUCCESS) {
      return failed("MPI_Bcast of bytes", rc);
    }
    return out;
  }

  core::Result<std::vector<std::string>> all_gather(const std::string& text) override {
    int length = static_cast<int>(text.size());
    std::vector<int> lengths(static_cast<std::size_t>(size_));
    if (int rc = MPI_Allgather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, MPI_COMM_WORLD); rc != MPI_SUCCESS) {
      return failed("MPI_Allgather of sizes", rc);
    }
    std::vector<int> offsets(static_cast<std::size_t>(size_), 0);
    int total = 0;
    for (std::size_t r = 0; r < lengths.size(); ++r) {
      offsets[r] = total;
      total += lengths[r];
    }
    std::string all(static_cast<std::size_t>(total), '\0');
    if (int rc = MPI_Allgatherv(text.data(), length, MPI_CHAR, all.data(), lengths.data(), offsets.data(), MPI_CHAR,
                                MPI_COMM_WORLD);
        rc != MPI_SUCCESS) {
      return failed("MPI_Allgatherv", rc);
    }
    std::vector<std::string> out;
    for (std::size_t r = 0; r < lengths.size(); ++r) {
      out.push_back(all.substr(static_cast<std::size_t>(offsets[r]), static_cast<std::size_t>(lengths[r])));
    }
    return out;
  }

 private:
  int rank_;
  int size_;
};

}  // namespace

bool built_with_mpi() { return true; }

core::Result<std::unique_ptr<Session>> join() {
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (initialized != 0) return core::internal_error("MPI joined twice in one process");
  if (int rc = MPI_Init(nullptr, nullptr); rc != MPI_SUCCESS) return failed("MPI_Init", rc);
  // Errors come back as return codes instead of aborting the job, so they reach main().
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int rank = 0;
  int size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  return std::unique_ptr<Session>(new WorldSession(rank, size));
}

}  // namespace gpuvet::mpi
