// Terminal rendering of a machine report: a GPU table in nvidia-smi's terms, the link matrix
// as topo -m prints it, NICs, the interconnect verdict in one line, and the findings.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <optional>

#include "core/finding_codes.hpp"
#include "report/finding_fold.hpp"
#include "report/machine_report.hpp"
#include "report/text_blocks.hpp"
#include "report/text_table.hpp"
#include "report/text_wrap.hpp"

namespace gpuvet::report {

namespace {

template <class T>
std::string show(const core::Reading<T>& r) {
  if (!r) return "n/a";
  if constexpr (std::is_same_v<T, std::string>) return *r;
  else return fmt::format("{}", *r);
}

std::string memory_cell(const core::Gpu& gpu) {
  if (!gpu.memory_total_mib) return "n/a";
  return fmt::format("{:.1f} GiB", static_cast<double>(*gpu.memory_total_mib) / 1024.0);
}

std::string pcie_cell(const core::PcieLink& pcie) {
  if (!pcie.gen_current && !pcie.width_current) return "n/a";
  std::string s = fmt::format("Gen{} x{}", show(pcie.gen_current), show(pcie.width_current));
  if ((pcie.gen_max && pcie.gen_current && *pcie.gen_max != *pcie.gen_current) ||
      (pcie.width_max && pcie.width_current && *pcie.width_max != *pcie.width_current)) {
    s += fmt::format(" (max Gen{} x{})", show(pcie.gen_max), show(pcie.width_max));
  }
  return s;
}

// The value every GPU shares, or nullopt when they differ (or there are none).
std::optional<std::string> shared(const core::Machine& machine, std::string (*get)(const core::Gpu&)) {
  if (machine.gpus.empty()) return std::nullopt;
  const std::string first = get(machine.gpus.front());
  for (const auto& gpu : machine.gpus) {
    if (get(gpu) != first) return std::nullopt;
  }
  return first;
}

std::string vbios_of(const core::Gpu& gpu) { return show(gpu.vbios); }
std::string part_of(const core::Gpu& gpu) { return show(gpu.board_part_number); }

// Columns whose value every GPU shares (the usual case for VBIOS and part number) move to one
// line under the table, so the table fits a terminal and a differing value stands out.
std::string gpu_table(const core::Machine& machine) {
  const auto vbios = shared(machine, vbios_of);
  const auto part = shared(machine, part_of);
  std::vector<std::string> header = {"GPU", "Name", "Memory", "Bus Id", "PCIe", "NUMA", "CPU Affinity"};
  if (!vbios) header.push_back("VBIOS");
  if (!part) header.push_back("Board Part Number");
  TextTable table(header);
  for (const auto& gpu : machine.gpus) {
    std::vector<std::string> row = {std::to_string(gpu.index), show(gpu.name), memory_cell(gpu), show(gpu.pci_bus_id),
                                    pcie_cell(gpu.pcie), show(gpu.numa_node), show(gpu.cpu_affinity)};
    if (!vbios) row.push_back(show(gpu.vbios));
    if (!part) row.push_back(show(gpu.board_part_number));
    table.add_row(row);
  }
  std::string out = table.render();
  if (vbios || part) {
    std::vector<std::string> same;
    if (vbios) same.push_back("VBIOS " + *vbios);
    if (part) same.push_back("board part number " + *part);
    out += fmt::format("All GPUs: {}\n", fmt::join(same, ", "));
  }
  return out;
}

std::string link_matrix(const core::Machine& machine) {
  if (!machine.links) return fmt::format("  link matrix: n/a ({})\n", machine.links.reason());
  const auto& m = *machine.links;
  std::vector<std::string> header = {""};
  for (const auto& gpu : machine.gpus) header.push_back("GPU" + std::to_string(gpu.index));
  const bool has_nics = machine.nics && !machine.nics->empty();
  if (has_nics) {
    for (const auto& nic : *machine.nics) header.push_back(nic.label);
  }
  header.push_back("NUMA");
  TextTable table(header);
  for (int a = 0; a < m.size(); ++a) {
    const auto& gpu = machine.gpus[static_cast<size_t>(a)];
    std::vector<std::string> row = {"GPU" + std::to_string(gpu.index)};
    for (int b = 0; b < m.size(); ++b) row.push_back(core::to_string(m.at(a, b)));
    if (has_nics) {
      for (const auto& nic : *machine.nics) {
        const bool known = nic.gpu_proximity && static_cast<int>(nic.gpu_proximity->size()) > a;
        row.push_back(known ? core::to_string((*nic.gpu_proximity)[static_cast<size_t>(a)]) : "n/a");
      }
    }
    row.push_back(show(gpu.numa_node));
    table.add_row(row);
  }
  return table.render(2);
}

std::string nic_table(const core::Machine& machine) {
  if (!machine.nics) return fmt::format("  NICs: n/a ({})\n", machine.nics.reason());
  if (machine.nics->empty()) return "  NICs: none found\n";
  TextTable table({"NIC", "Name", "Rate", "State", "Link layer", "Bus Id", "NUMA"});
  for (const auto& nic : *machine.nics) {
    const std::string rate = nic.rate_gbit_s ? fmt::format("{:g} Gb/s", *nic.rate_gbit_s) : "n/a";
    table.add_row({nic.label, show(nic.name), rate, show(nic.state), show(nic.link_layer), show(nic.pci_bus_id),
                   show(nic.numa_node)});
  }
  return table.render(2);
}

std::string severity_tag(core::Severity severity, bool color) {
  const auto name = std::string(core::to_string(severity));
  std::string tag = name == "fail" ? "FAIL" : name == "warn" ? "WARN" : "info";
  if (!color) return tag;
  const char* code = severity == core::Severity::fail ? "\x1b[1;31m" : severity == core::Severity::warn ? "\x1b[33m" : "\x1b[2m";
  return std::string(code) + tag + "\x1b[0m";
}

// The interconnect_class finding is shown as the Interconnect section, not repeated here.
bool shown_as_interconnect(const core::Finding& f) { return f.code == core::code::interconnect_class; }

}  // namespace

// Findings folded (one per culprit, one per repeated shape) and wrapped to kTextWidth: the
// message continues under itself, evidence and next step under their key.
std::string findings_block(const std::vector<core::Finding>& findings, bool color) {
  std::string out;
  for (const auto& entry : fold_findings(findings)) {
    const auto& f = entry.finding;
    if (shown_as_interconnect(f)) continue;
    out += wrap_line(fmt::format("  {}  {:<26} {}", severity_tag(f.severity, color), f.code, f.message), 35);
    for (const auto& [key, value] : f.evidence) out += wrap_line(fmt::format("        {}: {}", key, value), 10);
    if (!entry.summary.empty()) out += wrap_line("        " + entry.summary, 10);
    if (!f.next_step.empty()) out += wrap_line(fmt::format("        next step: {}", f.next_step), 10);
  }
  return out.empty() ? "  none\n" : out;
}

std::string interconnect_block(const core::Assessment& assessment) {
  const auto& ic = assessment.interconnect;
  std::string out = "\nInterconnect: " + (ic.headline.empty() ? std::string(core::to_string(ic.cls)) : ic.headline) + "\n";
  out += fmt::format("  class: {}\n", core::to_string(ic.cls));
  if (!ic.reasoning.empty()) out += "  why: " + ic.reasoning + "\n";
  for (const auto& f : assessment.findings) {
    if (shown_as_interconnect(f) && !f.next_step.empty()) out += "  next step: " + f.next_step + "\n";
  }
  return out;
}

std::string verdict_line(const core::Assessment& assessment, core::Verdict v, bool color) {
  int fails = 0, warns = 0;
  for (const auto& f : assessment.findings) {
    if (f.severity == core::Severity::fail) ++fails;
    if (f.severity == core::Severity::warn) ++warns;
  }
  std::string verdict = v == core::Verdict::pass ? "PASS" : v == core::Verdict::fail ? "FAIL" : "INCOMPLETE";
  if (color) verdict = (v == core::Verdict::pass ? "\x1b[1;32m" : "\x1b[1;31m") + verdict + "\x1b[0m";
  std::string line = fmt::format("Verdict: {} ({} failing, {} warning findings", verdict, fails, warns);
  if (!assessment.unverified.empty()) {
    line += fmt::format(", {} expectation(s) not verified", assessment.unverified.size());
  }
  return line + ")\n";
}

namespace {

std::string gbps_cell(const core::Reading<double>& r) { return r ? fmt::format("{:.2f}", *r) : "n/a"; }

std::string size_cell(const core::Reading<std::uint64_t>& bytes) {
  if (!bytes) return "n/a";
  const double b = static_cast<double>(*bytes);
  if (*bytes >= (1ull << 30)) return fmt::format("{:g} GiB", b / (1ull << 30));
  if (*bytes >= (1ull << 20)) return fmt::format("{:g} MiB", b / (1ull << 20));
  if (*bytes >= (1ull << 10)) return fmt::format("{:g} KiB", b / (1ull << 10));
  return fmt::format("{} B", *bytes);
}

std::string collectives_block(const std::vector<core::CollectiveSummary>& runs) {
  // The source (often a long file path) goes under the table with the basis, so the table fits.
  TextTable table({"Run", "Op", "Ranks", "Nodes", "Avg busbw printed/recomputed", "Peak busbw (size)", "Expected", "#wrong"});
  std::string bases;
  int run = 0;
  for (const auto& c : runs) {
    ++run;
    table.add_row({std::to_string(run), c.op, show(c.ranks), show(c.nodes),
                   fmt::format("{} / {} GB/s", gbps_cell(c.printed_avg_busbw_gbps), gbps_cell(c.avg_busbw_gbps)),
                   fmt::format("{} GB/s ({})", gbps_cell(c.peak_busbw_gbps), size_cell(c.peak_size_bytes)),
                   c.expected_busbw_gbps ? fmt::format("{:.0f} GB/s", *c.expected_busbw_gbps) : "n/a", show(c.wrong)});
    bases += wrap_line(fmt::format("  run {}: {}", run, c.source), 4);
    bases += wrap_line(fmt::format("    {} expected: {}", c.op, c.expected_basis), 6);
  }
  return table.render(2) + bases;
}

// One table per source file: testcase spread against the expected value of one GPU or pair.
std::string bandwidth_block(const std::vector<core::BandwidthSummary>& rows) {
  std::string out;
  for (size_t start = 0; start < rows.size();) {
    size_t end = start;
    while (end < rows.size() && rows[end].source == rows[start].source) ++end;
    TextTable table({"Testcase", "Cells", "Min", "Median", "Max", "Expected"});
    std::string bases;
    for (size_t i = start; i < end; ++i) {
      const auto& b = rows[i];
      auto cell = [](const core::Reading<double>& r) { return r ? fmt::format("{:.2f}", *r) : std::string("n/a"); };
      table.add_row({b.testcase, b.status ? *b.status : std::to_string(b.cells), cell(b.min), cell(b.median),
                     cell(b.max), b.expected_gbps ? fmt::format("{:.1f}", *b.expected_gbps) : "n/a"});
      if (b.expected_gbps) bases += fmt::format("  {} expected: {}\n", b.testcase, b.expected_basis);
    }
    out += "  " + rows[start].source + "\n" + table.render(2) + bases;
    start = end;
  }
  return out;
}

}  // namespace

std::string render_text(const MachineReport& report, const TextOptions& options) {
  const auto& m = report.machine;
  std::string out;
  if (m.simulated) {
    out += "SIMULATED MACHINE: every value below comes from a built-in profile; nothing was read or measured.\n";
  }
  out += fmt::format("Source: {}\n", m.source);
  out += fmt::format("Host {}   Driver {}   CUDA {}   GPUs {}", show(m.hostname), show(m.driver_version),
                     show(m.cuda_version), m.gpus.size());
  if (m.attached_gpus && *m.attached_gpus != static_cast<int>(m.gpus.size())) {
    out += fmt::format(" (of {} attached)", *m.attached_gpus);
  }
  out += "\n\n";
  if (m.gpus.empty()) {
    out += "Machine: not described (give nvidia-smi topo -m and nvidia-smi -q of the same machine to judge it)\n";
  } else {
    out += gpu_table(m);
    out += "\nTopology (nvidia-smi topo -m terms: NV# = # bonded NVLinks; PIX/PXB/PHB/NODE/SYS = PCIe paths)\n";
    out += link_matrix(m);
    out += "\nNICs\n" + nic_table(m);
    out += interconnect_block(report.assessment);
  }
  if (!report.assessment.collectives.empty()) {
    out += "\nCollectives (nccl-tests; busbw in GB/s = 1e9 B/s as nccl-tests prints it)\n";
    out += collectives_block(report.assessment.collectives);
  }
  if (!report.assessment.bandwidth.empty()) {
    out += "\nCopy bandwidth (GB/s = 1e9 B/s; latency testcases in us; expected per GPU or GPU pair)\n";
    out += bandwidth_block(report.assessment.bandwidth);
  }
  out += "\nFindings\n" + findings_block(report.assessment.findings, options.color);
  if (!report.assessment.unverified.empty()) {
    out += "\nNot verified (the verdict cannot be pass)\n";
    for (const auto& item : report.assessment.unverified) out += "  " + item + "\n";
  }
  for (const auto& note : m.notes) out += "note: " + note + "\n";
  out += "\n" + verdict_line(report.assessment, report.verdict, options.color);
  return fit_lines(out);
}

}  // namespace gpuvet::report
