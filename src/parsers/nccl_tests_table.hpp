// The result table of nccl-tests (one row per message size): the column header, the row cells,
// and the line prefixes launchers add (srun -l "0: ", mpirun --tag-output "[1,0]<stdout>:").
// Used by nccl_tests_parser.cpp; the layouts follow nccl-tests src/util.cu and src/<test>.cu.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/collective.hpp"
#include "core/error.hpp"

namespace gpuvet::parsers {

// Which columns the table has. Since nccl-tests 2.13 (2022) every test prints
// "size count type redop root" + 2 x "time algbw busbw #wrong"; before that each test printed its
// own set: all_gather "size count type", all_reduce/alltoall/reduce_scatter "... redop",
// broadcast "... root", reduce "... redop root", and "error" (a max deviation) instead of #wrong.
struct NcclColumns {
  bool known = false;          // a column header was seen
  bool has_redop = false;
  bool has_root = false;
  bool per_iter = false;       // -I 1: i_min i_max i_p99 i_cv% after each #wrong
  bool error_column = false;   // old "error" (max deviation) instead of "#wrong" (a count)
  bool cpu_time = false;       // -C 1: "cputime" instead of "time"
};

// Removes one launcher prefix: srun -l "0: " / "12: ", mpirun "[1,0]<stdout>:". Sets *had_prefix.
std::string_view strip_launcher_prefix(std::string_view line, bool* had_prefix);

// Reads a "#  size  count  type ..." header; nullopt when the line is not one.
std::optional<NcclColumns> parse_nccl_column_header(std::string_view line);

// True when the first two cells are unsigned integers (size and count): the line is meant as a
// table row, so a bad shape after that is an error rather than unrelated text.
bool looks_like_nccl_row(const std::vector<std::string>& cells);

// Parses one row. When columns.known is false (a paste without the header) the layout is
// taken from the cell count. A blank redop cell (old alltoall) leaves redop absent.
// The error message does not name the file or line; the caller adds them.
core::Result<core::CollectiveRow> parse_nccl_row(const std::vector<std::string>& cells,
                                                 const NcclColumns& columns);

// Bytes per element of an nccl-tests type name ("float" -> 4); nullopt for names we do not know.
std::optional<int> nccl_type_size_bytes(std::string_view type);

// True for the reduction operators nccl-tests prints in the redop column (sum, prod, ...).
bool is_nccl_reduction(std::string_view redop);

// "2.27.3" for the NCCL_VERSION_CODE 22703 (2.9.9 and older: 2909 = X*1000 + Y*100 + Z).
std::string nccl_version_from_code(int code);

// Parses a whole decimal/float cell ("12.5", "1.2e+07"); nullopt unless the whole cell is a number.
std::optional<double> parse_nccl_number(std::string_view cell);

}  // namespace gpuvet::parsers
