// Parsers of nccl-tests output (all_reduce_perf, all_gather_perf, alltoall_perf,
// reduce_scatter_perf, broadcast_perf, sendrecv_perf, ...) into a core::CollectiveRun.
// Pure text -> model; the CLI reads the files. Bandwidths stay as nccl-tests printed them (GB/s).
#pragma once

#include <string>
#include <string_view>

#include "core/collective.hpp"
#include "core/error.hpp"

namespace gpuvet::parsers {

// The text nccl-tests prints on stdout, whole or pasted in part. Accepts the old (pre-2022,
// per-test columns, "error") and new ("redop root", "#wrong") column sets, per-iteration (-I)
// and timestamp (-S) cells, srun -l "0: " / mpirun --tag-output prefixes on every line,
// interleaved "NCCL INFO" lines, and table-only pastes (no header, no Avg line).
// - op: from a *_perf binary named in the log ("# Collective test starting:", a command line);
//   else inferred from the table, or from file_name when the table fits several; else
//   "unknown". Every inference adds a note.
// - ranks: the "Rank N ... on HOST device D [..] NAME" lines; without them, inferred from the
//   table (note) or absent. nodes: distinct HOSTs in those lines, absent without them.
// - device_names, nccl_version ("NCCL version x.y.z" or nccl-tests' "nccl-library=CODE"),
//   printed_avg_busbw_gbps ("# Avg bus bandwidth : X").
// Errors (core::ErrorKind::bad_input) name the file and line: a row (a line whose first two
// cells are integers) with the wrong cell count or a non-numeric cell; a header with no rows;
// a second table after the first; no table at all. Never throws.
core::Result<core::CollectiveRun> parse_nccl_tests(std::string_view text, const std::string& file_name);

// True when the text looks like nccl-tests output: the "#  size  count  type" column header,
// the "# nThread .. nGpus" / "# Collective test starting" header, or table rows behind an
// srun "N: " prefix.
bool looks_like_nccl_tests(std::string_view text);

// The JSON document nccl-tests writes with -J FILE.json (format version 3 of src/util.cu:
// config, results[], average_bus_bandwidth). ranks = nthreads x ngpus x entries of
// config.devices (one entry per process); nodes = distinct hostnames there. device_names are
// filled only when each process drives one GPU (the JSON lists one device per process).
core::Result<core::CollectiveRun> parse_nccl_tests_json(std::string_view text, const std::string& file_name);

}  // namespace gpuvet::parsers
