// The "What was accepted" section of report.md and report.html: every GPU's serial, UUID, bus
// id, VBIOS and board part number, and the software versions (driver, CUDA, NCCL, fabric
// manager, kernel, OS) with where each was read. Unknown values say why. Pure.
#pragma once

#include <string>

#include "accept/accept_model.hpp"

namespace gpuvet::report {

// "## What was accepted" with a software table and a GPU table.
std::string render_identity_markdown(const accept::AcceptReport& report);
// <h2 id="identity"> with the same two tables.
std::string render_identity_html(const accept::AcceptReport& report);

}  // namespace gpuvet::report
