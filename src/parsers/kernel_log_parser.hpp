// Parser of pasted kernel log lines about NVIDIA GPUs (dmesg, journalctl -k, /var/log/messages):
// NVRM Xid lines, "GPU has fallen off the bus" and driver probe failures, as core::GpuEvent.
#pragma once

#include <string>
#include <string_view>

#include "core/error.hpp"
#include "core/machine.hpp"

namespace gpuvet::parsers {

// True when the text has at least one NVRM line this parser reads (an Xid, a GPU fallen off
// the bus, a failed probe or RmInitAdapter). Used by detect_format.
bool looks_like_kernel_log(std::string_view text);

// Reads "NVRM: Xid (PCI:0000:dc:00): 45, pid=..., ... caused by previous Xid 149" (the earlier
// Xid is recorded as referenced only), "NVRM: GPU at 0000:01:00.0 has fallen off the bus.", the
// same message spread over several NVRM lines (570+: "The NVIDIA GPU 0000:b3:00.0" ... "fallen
// off the bus"), "The NVIDIA probe routine failed for N device(s)" and "GPU 0000:..: RmInitAdapter
// failed". Timestamps ("[ 49.26]"), syslog and "kernel:" prefixes are dropped; identical events
// (kind, bus id, Xid) fold into one with a count. A kernel log does not list the GPUs: the
// machine has none, attached_gpus stays absent and a note says so. A last line cut before its
// Xid number is skipped with a note. Never an error for text that has no such line but was
// detected: that is a bad_input Error naming the file.
core::Result<core::Machine> parse_kernel_log(std::string_view text, const std::string& file_name);

}  // namespace gpuvet::parsers
