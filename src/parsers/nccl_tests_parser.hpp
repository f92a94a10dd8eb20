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
// cells are integers) with the wrong cell count or a non-numeric cell, unless it is the last line;
// nothing of nccl-tests at all. Never throws.
// A log that shows no result row (a header only, a run that hung, NCCL died at init) is a run
// with no rows, not an error: ranks and devices come from its Rank lines and `failures` quote the
// lines that say it failed ("NCCL failure ...", "Test failure", "Out of bounds values : N FAILED",
// a crash; NCCL WARN lines when no result followed). A paste cut inside its last row or Rank line
// keeps what is before it, with a note. Rank lines that do not start at 0 (a partial paste) leave
// ranks and nodes absent ("at least N"). Returns the first run of the file (see below).
core::Result<core::CollectiveRun> parse_nccl_tests(std::string_view text, const std::string& file_name);

// Every run in the file: a header after rows starts another; the same Rank line or row size
// appearing again (processes not joined by MPI print theirs interleaved) belongs to the next run.
// Runs of the same op over the same sizes get separate_runs = their number; an identical table
// pasted twice is read once.
core::Result<std::vector<core::CollectiveRun>> parse_nccl_tests_runs(std::string_view text, const std::string& file_name);

// True when the text looks like nccl-tests output: the "#  size  count  type" (or 2018
// "# bytes N type") column header, the "# nThread .. nGpus" / "# Collective test starting"
// header, a "# Rank N ... device D [..] NAME" line, "host:pid:tid [n] NCCL INFO|WARN" lines, or
// table rows behind an srun "N: " prefix or under the "(B) (elements)" units line.
bool looks_like_nccl_tests(std::string_view text);

// The JSON document nccl-tests writes with -J FILE.json (format version 3 of src/util.cu:
// config, results[], average_bus_bandwidth). ranks = nthreads x ngpus x entries of
// config.devices (one entry per process); nodes = distinct hostnames there. device_names are
// filled only when each process drives one GPU (the JSON lists one device per process).
core::Result<core::CollectiveRun> parse_nccl_tests_json(std::string_view text, const std::string& file_name);

}  // namespace gpuvet::parsers
