// The interconnect clause's Observed text: the class found, then, when the clause failed on a
// mesh, what is missing ("nvswitch_full_mesh, but GPU 2: 17 of 18 NVLink links up"). Readers of
// report.json that rank or plan by class (compare, plan) take the class part. Header-only: the
// accept outcome model and gpuvet_accept both use it.
#pragma once

#include <string_view>

namespace gpuvet::accept {

// The class part of an interconnect clause's Observed ("nvswitch_full_mesh").
inline std::string_view observed_interconnect_class(std::string_view observed) {
  return observed.substr(0, observed.find(','));
}

}  // namespace gpuvet::accept
