// The lines of an nccl-tests log around its table: "Rank N ... device D [BUS] NAME" lines in every
// form nccl-tests printed (2018 without Group/Pid, [0x21] and [0000:2d:00] bus ids, a Rank line cut
// by the paste), and the lines that say the run failed. Used by nccl_tests_parser.cpp.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/collective.hpp"

namespace gpuvet::parsers {

// One "Rank" line (the text after '#'); nullopt when it is not one. `cut` is set when the line
// stops before the device name (a paste cut inside it): rank and host are kept.
std::optional<core::RankDevice> read_nccl_rank_line(std::string_view after_hash, bool* cut);

// "[0x21]" -> "0000:21:00.0", "[0000:2d:00]" -> "0000:2d:00.0"; "" for "[0x00]" (nccl-tests 1.x
// printed 0 for every GPU) or anything else.
std::string nccl_bus_id(std::string_view bracketed);

// A line in which nccl-tests or NCCL says the run failed: "NCCL failure FILE:LINE '...'",
// "Test NCCL failure", "Test failure", "Test CUDA failure", "unhandled system error",
// "unhandled cuda error", "MPI_ABORT", a crash (is_crash_line). NCCL INFO/WARN lines are not
// (WARN lines are judged by whether results followed).
bool is_nccl_failure_line(std::string_view t);

// "# Out of bounds values : 3 FAILED" -> 3; nullopt for "... : 0 OK" or other lines.
std::optional<long long> nccl_out_of_bounds(std::string_view t);

// "host:pid:tid [n] NCCL INFO ..." / "NCCL WARN" / "NCCL TRACE" lines of NCCL_DEBUG.
bool is_nccl_debug_line(std::string_view t);
bool is_nccl_warn_line(std::string_view t);

}  // namespace gpuvet::parsers
