// The MPI session in a build without MPI.
#include "backends/mpi/mpi_session.hpp"

namespace gpuvet::mpi {

bool built_with_mpi() { return false; }

core::Result<std::unique_ptr<Session>> join() {
  return core::environment_error(
      "launched with several ranks, but this gpuvet was built without MPI (install libopenmpi-dev and rebuild, "
      "or run one gpuvet per node without mpirun)");
}

}  // namespace gpuvet::mpi
