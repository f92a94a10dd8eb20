// gpuvet bench in a terminal: each matrix as nvbandwidth prints it, then what was expected of
// it, VRAM results, findings and the verdict.
#include <fmt/format.h>

#include "report/machine_report.hpp"
#include "report/text_blocks.hpp"
#include "report/text_table.hpp"
#include "report/text_wrap.hpp"

namespace gpuvet::report {
namespace {

std::string number(const core::Reading<double>& v) {
  if (!v) return "N/A";
  return *v >= 100 ? fmt::format("{:.1f}", *v) : fmt::format("{:.2f}", *v);
}

std::string gib(const core::Reading<std::uint64_t>& bytes) {
  return bytes ? fmt::format("{:.2f}", static_cast<double>(*bytes) / 1073741824.0) : "n/a";
}

const core::BandwidthSummary* summary_of(const core::Assessment& a, const std::string& source, const std::string& testcase) {
  for (const auto& s : a.bandwidth) {
    if (s.source == source && s.testcase == testcase) return &s;
  }
  return nullptr;
}

std::string matrix_block(const core::BandwidthMatrix& mx, const core::BandwidthSummary* s) {
  std::vector<std::string> header = {""};
  header.insert(header.end(), mx.column_labels.begin(), mx.column_labels.end());
  TextTable table(header);
  for (std::size_t r = 0; r < mx.values.size(); ++r) {
    std::vector<std::string> row = {r < mx.row_labels.size() ? mx.row_labels[r] : "?"};
    for (std::size_t c = 0; c < mx.values[r].size(); ++c) {
      const bool self = r < mx.row_labels.size() && c < mx.column_labels.size() && mx.row_labels[r] == mx.column_labels[c] &&
                        mx.row_labels.size() > 1;
      row.push_back(self ? "-" : number(mx.values[r][c]));
    }
    table.add_row(row);
  }
  std::string out = fmt::format("{} ({})\n  {}\n", mx.testcase, mx.unit, mx.title);
  if (mx.status) out += "  status: " + *mx.status + "\n";
  out += table.render(2);
  if (s != nullptr && s->cells > 0) {
    out += fmt::format("  min {}  median {}  max {}", number(s->min), number(s->median), number(s->max));
    out += s->expected_gbps ? fmt::format("  expected >= {} per cell: {}\n", number(s->expected_gbps), s->expected_basis)
                            : fmt::format("  ({})\n", s->expected_basis);
  }
  return out;
}

std::string vram_block(const core::VramRun& run) {
  TextTable table({"GPU", "Name", "Reported GiB", "Tested GiB", "Patterns", "Bad words", "Seconds", "Status"});
  for (const auto& c : run.gpus) {
    std::uint64_t bad = 0;
    for (const auto& m : c.miscompares) bad += m.words;
    table.add_row({std::to_string(c.gpu), c.name, gib(c.total_bytes), gib(c.tested_bytes), std::to_string(c.patterns.size()),
                   std::to_string(bad), c.seconds ? fmt::format("{:.1f}", *c.seconds) : "n/a",
                   c.error ? *c.error : (bad > 0 ? "MISCOMPARE" : "ok")});
  }
  return fmt::format("VRAM check ({}; GiB = 2^30 B; random pattern seed {:#x})\n", run.source, run.seed) + table.render(2);
}

}  // namespace

std::string render_bench_text(const MachineReport& report, const TextOptions& options) {
  const auto& m = report.machine;
  std::string out;
  if (m.simulated) {
    out += "SIMULATED: every number below comes from the simulator's model of the profile; nothing was measured.\n";
  }
  out += fmt::format("Machine: {} ({} GPUs; {})\n", m.source, m.gpus.size(), report.assessment.interconnect.headline);
  if (report.measurements != nullptr) {
    for (const auto& run : report.measurements->bandwidth) {
      out += fmt::format("\n{}\n", run.source);
      for (const auto& note : run.notes) out += "  note: " + note + "\n";
      for (const auto& mx : run.matrices) out += "\n" + matrix_block(mx, summary_of(report.assessment, run.source, mx.testcase));
    }
    if (report.measurements->vram) out += "\n" + vram_block(*report.measurements->vram);
  }
  out += "\nFindings\n" + findings_block(report.assessment.findings, options.color);
  if (!report.assessment.unverified.empty()) {
    out += "\nNot verified (the verdict cannot be pass)\n";
    for (const auto& item : report.assessment.unverified) out += "  " + item + "\n";
  }
  out += "\n" + verdict_line(report.assessment, report.verdict, options.color);
  return fit_lines(out);
}

}  // namespace gpuvet::report
