// Parser of what `ibstat` and `ibv_devinfo [-v]` print about a node's RDMA ports into the NICs of
// a core::Machine (no GPUs): name, port state, rate (Gb/s) and link layer. Used by analyze to
// judge multi-node nccl-tests logs against the NICs between the nodes.
#pragma once

#include <string>
#include <string_view>

#include "core/error.hpp"
#include "core/machine.hpp"

namespace gpuvet::parsers {

// ibstat: "CA 'mlx5_0'" blocks, "Port N:" with "State: Active", "Rate: 400", "Link layer: ...".
// ibv_devinfo: "hca_id: mlx5_0" blocks, "port: N" with "state: PORT_ACTIVE (4)", "link_layer:";
// the rate only with -v ("active_width: 4X (2)" x "active_speed: 100.0 Gbps (64)"), else absent.
// One Nic per port ("mlx5_0", or "mlx5_0 port 2" beyond port 1); states as ACTIVE, DOWN, INIT,
// ARMED. A bad_input Error names the file when no port is found. Never throws.
core::Result<core::Machine> parse_ib_status(std::string_view text, const std::string& file_name);

// True for an ibstat "CA '...'" line followed by "CA type:" or a "hca_id:" line.
bool looks_like_ib_status(std::string_view text);

}  // namespace gpuvet::parsers
