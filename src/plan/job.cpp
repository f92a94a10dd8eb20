// Names of the job vocabulary, spelled as on the command line and in JSON.
#include "plan/job.hpp"

namespace gpuvet::plan {

std::string_view to_string(Workload w) { return w == Workload::train ? "train" : "infer"; }

std::string_view to_string(Precision p) {
  switch (p) {
    case Precision::fp32: return "fp32";
    case Precision::bf16: return "bf16";
    case Precision::fp16: return "fp16";
    case Precision::fp8: return "fp8";
    case Precision::int8: return "int8";
    case Precision::int4: return "int4";
  }
  return "bf16";
}

bool parse_precision(std::string_view text, Precision& out) {
  for (auto p : {Precision::fp32, Precision::bf16, Precision::fp16, Precision::fp8, Precision::int8, Precision::int4}) {
    if (text == to_string(p)) {
      out = p;
      return true;
    }
  }
  return false;
}

double bytes(Precision p) {
  switch (p) {
    case Precision::fp32: return 4;
    case Precision::bf16:
    case Precision::fp16: return 2;
    case Precision::fp8:
    case Precision::int8: return 1;
    case Precision::int4: return 0.5;
  }
  return 2;
}

}  // namespace gpuvet::plan
