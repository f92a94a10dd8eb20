// The per-link values of nvidia-smi nvlink views other than -s: error counters (-e, -ec),
// remote devices (-R) and capabilities (-c). Used by the nvlink -s parser for each Link line.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace gpuvet::parsers {

enum class LinkValueKind {
  counter,     // "Replay Errors: 0", "CRC Flit Errors: 5" (nvlink -e / -ec)
  remote,      // "Remote Device 00000000:07:00.0: Link 46" (nvlink -R)
  other,       // a value gpuvet does not judge ("Tx packets: 12", "Effective BER: 1e-15", "FEC Errors - 3: 9")
};

struct LinkValue {
  LinkValueKind kind = LinkValueKind::other;
  std::string name;             // counter name as printed
  std::uint64_t value = 0;      // counter value
  std::string remote_bus_id;    // normalised PCI address of the remote device
  int remote_link = -1;         // its port number
};

// What follows "Link L: " on a line that is not nvlink -s ("<speed> GB/s", "<inactive>") or
// nvlink -gt d ("Data Tx: N KiB"); nullopt when it is none of the forms above.
std::optional<LinkValue> read_link_value(std::string_view rest);

// True for counter names that count errors (names with "Error", "discard" or "failed"), except
// the FEC and symbol counters of NVLink 5, which count what forward error correction repaired.
bool is_error_counter(std::string_view name);

// True for a counter pinned at the largest value of a 16-, 32- or 64-bit counter: it saturated
// and no longer says how many errors there were.
bool counter_saturated(std::uint64_t value);

}  // namespace gpuvet::parsers
