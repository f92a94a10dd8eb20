// Parser of the CUDA samples' p2pBandwidthLatencyTest output into a core::BandwidthRun.
// Pure text -> model; the CLI reads the files. Bandwidths in GB/s, latencies in us, as printed.
#pragma once

#include <string>
#include <string_view>

#include "core/bandwidth.hpp"
#include "core/error.hpp"

namespace gpuvet::parsers {

// The text p2pBandwidthLatencyTest prints, whole or a pasted part (one matrix is enough).
// - device_names from "Device: N, NAME, pciBusID: ..." lines.
// - p2p_access[i][j] from the "P2P Connectivity Matrix" (preferred) or the "Device=i CAN/CANNOT
//   Access Peer Device=j" lines (diagonal true); absent when neither is printed. A disagreement
//   between the two adds a note.
// - matrices keyed as in core/bandwidth.hpp: p2p_{unidirectional,bidirectional}_p2p_{disabled,
//   enabled} (GB/s) and p2p_latency_{gpu,cpu}_p2p_{disabled,enabled} (us; the latency titles
//   print a GPU block, then a CPU block). tool_version, driver_version and printed_sum absent
//   (the sample prints none of them).
// Errors (core::ErrorKind::bad_input) name the file and line: a row with the wrong cell count or
// a non-numeric cell, a title without its column header or rows, a matrix that is not square or
// whose size differs from the listed devices, a connectivity cell other than 0/1; no matrix at
// all. Never throws.
core::Result<core::BandwidthRun> parse_p2p_test(std::string_view text, const std::string& file_name);

// True for the "P2P Connectivity Matrix", "... Bandwidth Matrix (GB/s)" or "... Latency ...
// Matrix (us)" headers of p2pBandwidthLatencyTest, or its "[P2P (Peer-to-Peer) GPU Bandwidth
// Latency Test]" banner.
bool looks_like_p2p_test(std::string_view text);

}  // namespace gpuvet::parsers
