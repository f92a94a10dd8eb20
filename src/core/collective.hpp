// A run of an NCCL collective benchmark (nccl-tests all_reduce_perf etc., or gpuvet's own
// probe): one row per message size, in nccl-tests vocabulary (algbw, busbw, #wrong).
// Bandwidths are GB/s = 1e9 B/s, as nccl-tests prints them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/reading.hpp"

namespace gpuvet::core {

struct CollectiveResult {
  Reading<double> time_us;
  Reading<double> algbw_gbps;
  Reading<double> busbw_gbps;
  Reading<std::int64_t> wrong;  // absent when the run did not check ("N/A" with -c 0)
};

struct CollectiveRow {
  std::uint64_t size_bytes = 0;
  Reading<std::uint64_t> count;     // elements
  Reading<std::string> type;        // "float"
  Reading<std::string> redop;       // "sum"; absent for all_gather and old column sets
  Reading<int> root;                // -1 where not applicable
  CollectiveResult out_of_place;
  CollectiveResult in_place;
};

// One "Rank N ... on HOST device D [BUS] NAME" line of the log.
struct RankDevice {
  int rank = 0;
  std::string host;     // as printed; "" when the line names none
  int device = -1;      // CUDA device index on that host
  std::string bus_id;   // normalised "0000:21:00.0"; "" when the log prints none (or only 0x00)
  std::string name;     // "NVIDIA H200"
};

struct CollectiveRun {
  std::string op;                          // "all_reduce", "all_gather", "alltoall", ... (nccl-tests names)
  Reading<int> ranks;                      // total ranks (GPUs) in the communicator
  Reading<int> nodes;                      // distinct hosts, when the log names them
  Reading<std::string> nccl_version;
  std::vector<std::string> device_names;   // per rank, as "Using devices" lists them (may be empty)
  std::vector<CollectiveRow> rows;
  Reading<double> printed_avg_busbw_gbps;  // "# Avg bus bandwidth" as nccl-tests printed it
  std::string source;                      // "nccl-tests (<file>)"
  std::vector<std::string> notes;
  std::vector<RankDevice> rank_devices;    // the Rank lines, by rank (may be a partial list)
  // The run's own words that it failed, quoted with their line ("line 12: NCCL failure ...
  // 'unhandled cuda error'"): NCCL failure / Test failure lines, "Out of bounds values : N FAILED",
  // a crash; NCCL WARN lines when no result row followed. Empty when the log shows none.
  std::vector<std::string> failures;
  // > 1 when the file held that many separate runs of the same test, each of one process
  // (nccl-tests built without MPI and started under mpirun): this run is one of them.
  int separate_runs = 1;
  // From NCCL_DEBUG=INFO lines (empty without them): the (host, CUDA device) pairs their
  // "host:pid:tid [dev]" prefixes name, kept only when no Rank line lists the devices (rank -1,
  // name ""); and the lines that show the paths between GPUs, quoted with their line number.
  std::vector<RankDevice> debug_devices;
  std::string nvswitch_evidence;   // NVLS support, "NVL[..] - NVS/": the GPUs sit on NVSwitches
  std::string nvlink_evidence;     // "type NVL/...", "+ NVL[": NVLink between the node's GPUs
  std::string pcie_path_evidence;  // "type PIX/..." (PHB, SYS, ...): NCCL's ring runs over PCIe
};

// What the judge makes of one run: the numbers a buyer compares and the envelope it expected.
struct CollectiveSummary {
  std::string op;
  std::string source;
  Reading<int> ranks;
  Reading<int> nodes;
  Reading<double> printed_avg_busbw_gbps;
  Reading<double> avg_busbw_gbps;        // recomputed from the table
  Reading<double> peak_busbw_gbps;
  Reading<std::uint64_t> peak_size_bytes;
  Reading<std::uint64_t> max_size_bytes;
  Reading<std::int64_t> wrong;
  Reading<double> expected_busbw_gbps;   // large-message busbw the machine should reach
  std::string expected_basis;            // how the expectation was derived (or why there is none)
};

// Mean of every busbw the table holds (out-of-place and in-place), which is how nccl-tests
// computes its "Avg bus bandwidth"; absent when the table has none.
Reading<double> average_busbw_gbps(const CollectiveRun& run);
// Largest busbw in the table (either column).
Reading<double> peak_busbw_gbps(const CollectiveRun& run);
// Sum of #wrong over rows that checked; absent when no row did.
Reading<std::int64_t> wrong_total(const CollectiveRun& run);

}  // namespace gpuvet::core
