// Do the files given to `gpuvet analyze` describe one machine? The benchmark logs' device lines
// (nccl-tests Rank lines, nvbandwidth "Device N:", p2pBandwidthLatencyTest "Device: N") are
// checked against the machine description and fill what it lacks; a topo -m with NVLink on a
// model that has none, and a kernel log naming GPUs the description does not have, are caught.
#pragma once

#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/gpu_model.hpp"
#include "core/machine.hpp"
#include "cli/output.hpp"

namespace gpuvet::cli {

// One device a benchmark log names: its GPU on its host, with what the line shows.
struct LogDevice {
  std::string label;    // "rank 3" / "device 3", for messages
  std::string host;     // "" when the log names none
  int index = -1;       // CUDA device number on its host (-1 when not shown)
  std::string bus_id;   // normalised, "" when not shown
  std::string name;     // "" when not shown
};

struct LogDevices {
  std::string file;  // the log's file
  std::vector<LogDevice> devices;
};

// The device lines of each log that has any.
std::vector<LogDevices> log_devices(const Benchmarks& runs);

// Checks each log's devices against `machine` (merged from `parts`, the described files) and fills
// the GPUs' unknown name and bus id, and the host name, from a one-host log that agrees with it.
// Refused (bad_input, naming both files and the GPU): a log with more GPUs on one host than the
// machine has attached; a log GPU whose model differs from the described GPU of its bus id (or,
// without bus ids, of its device number; a multi-host log: from every described model); a log bus
// id not on a machine that lists every GPU's bus id. A log with fewer GPUs is fine. Names fill by
// bus id, or by device number when the log has the machine's GPU count and shows no bus ids.
core::Result<core::Machine> reconcile_with_logs(core::Machine machine, const std::vector<core::Machine>& parts,
                                                const std::vector<LogDevices>& logs, const core::Catalog& catalog);

// A link matrix with NV# between GPUs whose model (catalogue) has no NVLink: bad_input naming the
// pair, the topo file, the model and the file that names it.
core::Result<core::Machine> check_nvlink_models(core::Machine machine, const std::vector<core::Machine>& parts,
                                                const std::vector<LogDevices>& logs, const core::Catalog& catalog);

// A kernel log's events on bus ids that are not GPUs of a machine listing every bus id: a note
// naming them (most of them, not all lost GPUs: the log may be from another host); the log's own
// advice to give -q goes when the machine names every GPU's bus id.
void note_foreign_events(core::Machine& machine);

// Same GPU model? Equal names up to case and a leading "NVIDIA ", the same catalogue model, or
// a name cut with "..." that begins the other.
bool same_model(const std::string& a, const std::string& b, const core::Catalog& catalog);

}  // namespace gpuvet::cli
