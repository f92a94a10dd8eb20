// The directory `gpuvet accept` writes its bundle to when no --out is given:
// gpuvet-accept-<host>-<UTC date-time> in the current directory, never an existing one.
#pragma once

#include <ctime>
#include <filesystem>
#include <string>
#include <string_view>

#include "core/error.hpp"

namespace gpuvet::bundle {

// "gpuvet-accept-<host>-<YYYYMMDD>T<HHMMSS>Z": the host reduced to letters, digits, '.', '-' and
// '_' ("unknown-host" when nothing is left). Pure.
std::string default_out_dir_name(std::string_view host, std::time_t utc);

// Creates and returns base/<default_out_dir_name>, or with "-2", "-3", ... appended when that
// name exists (the directory is created here, so two runs starting in the same second never share
// one). Environment error naming the directory when it cannot be created.
core::Result<std::filesystem::path> create_default_out_dir(const std::filesystem::path& base, std::string_view host,
                                                           std::time_t utc);

}  // namespace gpuvet::bundle
