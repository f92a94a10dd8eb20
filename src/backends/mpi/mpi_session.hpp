// Multi-node runs: one gpuvet rank per node under mpirun or srun. Each rank measures its own node;
// rank 0 gathers the ranks' reports; collectives across the nodes exchange bootstrap bytes
// (NCCL's unique id) and samples through all_gather and broadcast. MPI calls live only here; a build without MPI (optional at
// configure time) has a join() that says so (mpi_unavailable.cpp).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/error.hpp"

namespace gpuvet::mpi {

// Whether this binary was built with MPI.
bool built_with_mpi();

class Session {
 public:
  virtual ~Session() = default;
  [[nodiscard]] virtual int rank() const = 0;
  [[nodiscard]] virtual int size() const = 0;
  // Collective: rank 0 receives every rank's text in rank order (its own first); the other
  // ranks receive an empty vector.
  virtual core::Result<std::vector<std::string>> gather(const std::string& text) = 0;
  // Collective: every rank receives rank 0's value.
  virtual core::Result<int> broadcast(int value) = 0;
  // Collective: every rank receives rank 0's bytes (the others' argument is ignored).
  virtual core::Result<std::string> broadcast(const std::string& bytes) = 0;
  // Collective: every rank receives every rank's text, in rank order.
  virtual core::Result<std::vector<std::string>> all_gather(const std::string& text) = 0;
};

// Joins the MPI job (MPI_Init; MPI_Finalize when the session is destroyed). Called once per
// process, from the main thread, only when the process manager says there are several ranks.
// Environment error when this build has no MPI or MPI_Init fails.
core::Result<std::unique_ptr<Session>> join();

}  // namespace gpuvet::mpi
