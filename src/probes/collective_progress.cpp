// CollectiveProgress: "\r" + the line + erase-to-end, at most every redraw_every.
#include "probes/collective_progress.hpp"

#include <fmt/format.h>

#include "probes/collective_probe.hpp"

namespace gpuvet::probes {
namespace {

std::string size_text(std::uint64_t bytes) {
  if (bytes >= (1ull << 30)) return fmt::format("{:g} GiB", static_cast<double>(bytes) / (1ull << 30));
  if (bytes >= (1ull << 20)) return fmt::format("{:g} MiB", static_cast<double>(bytes) / (1ull << 20));
  return fmt::format("{} B", bytes);
}

}  // namespace

void CollectiveProgress::on_row(api::CollectiveOp op, const std::vector<int>& gpus, const core::CollectiveRow& row) {
  ++rows_;
  const auto now = std::chrono::steady_clock::now();
  if (drawn_ && now - last_ < redraw_every_) return;
  last_ = now;
  std::string list;
  for (int g : gpus) list += (list.empty() ? "" : ",") + std::to_string(g);
  const auto& busbw = row.out_of_place.busbw_gbps;
  out_ << fmt::format("\r  {} on GPUs {}: {} busbw {} ({} sizes measured)\x1b[K", api::to_string(op), list,
                      size_text(row.size_bytes), busbw ? fmt::format("{:.1f} GB/s", *busbw) : "n/a (" + busbw.reason() + ")",
                      rows_)
       << std::flush;
  drawn_ = true;
}

bool CollectiveProgress::finish() {
  if (!drawn_) return false;
  out_ << "\r\x1b[K" << std::flush;
  drawn_ = false;
  rows_ = 0;
  return true;
}

}  // namespace gpuvet::probes
