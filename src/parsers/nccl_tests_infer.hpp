// What an nccl-tests table says about itself when the log does not: which collective it is and
// how many ranks ran it. Every inference leaves a note in the run; nothing is guessed silently.
// Used by the text and JSON parsers of nccl-tests output.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/collective.hpp"
#include "parsers/nccl_tests_table.hpp"

namespace gpuvet::parsers {

// How the bandwidths were printed: text cells round to 2 decimals in a 6-wide cell (fewer for big
// numbers), -J JSON prints "%lf" (6 decimals). Sets how far a printed busbw/algbw may be off.
enum class NcclPrecision { text, json };

// "all_reduce" for "all_reduce_perf", "./build/all_reduce_perf", "alltoall_perf_mpi", ...;
// nullopt for anything that is not an nccl-tests binary we know.
std::optional<std::string> nccl_op_from_binary(std::string_view word);

// The first nccl-tests binary named anywhere in a line (a command line, "Collective test starting").
std::optional<std::string> find_nccl_binary_op(std::string_view line);

// The nccl-tests collectives whose output the table could be, in a fixed order. Uses the column
// set (old per-test headers), the redop and root cells, size/count (ops that print the per-rank
// count) and busbw/algbw (the factors of doc/PERFORMANCE.md). ranks narrows it when known.
std::vector<std::string> nccl_ops_fitting(const std::vector<core::CollectiveRow>& rows,
                                          const NcclColumns& columns, const core::Reading<int>& ranks,
                                          NcclPrecision precision);

// The op of the run: the binary named in the log if any; else the one op the table fits; else
// the one candidate the file name names; else "unknown". Adds a note for every choice but the first.
std::string choose_nccl_op(const std::optional<std::string>& binary_op,
                           const std::vector<core::CollectiveRow>& rows, const NcclColumns& columns,
                           const core::Reading<int>& ranks, NcclPrecision precision,
                           const std::string& file_name, std::vector<std::string>& notes);

// Ranks from the table of a known op, for logs that do not list devices: size/count for ops that
// print the per-rank count, else busbw/algbw when exactly one whole number of ranks fits the
// rounding of every row. Absent (with the reason) otherwise; adds a note when it infers.
core::Reading<int> infer_nccl_ranks(const std::string& op, const std::vector<core::CollectiveRow>& rows,
                                    NcclPrecision precision, std::vector<std::string>& notes);

}  // namespace gpuvet::parsers
