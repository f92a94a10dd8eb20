// Test support: simulated machine + spec -> stage records and verdict.
#include "accept_test_support.hpp"

#include <gtest/gtest.h>

#include "analysis/judge.hpp"
#include "backends/sim/simulator.hpp"
#include "catalog/gpu_catalog.hpp"
#include "spec/spec_templates.hpp"

namespace gpuvet::accept::testing {

const ClauseResult& Outcome::clause(const std::string& id) const {
  for (const auto& s : stages) {
    for (const auto& c : s.clauses) {
      if (c.id == id) return c;
    }
  }
  ADD_FAILURE() << "no clause " << id;
  static const ClauseResult kNone;
  return kNone;
}

std::string gates_only(const std::string& template_name) {
  auto text = spec::template_text(template_name);
  EXPECT_TRUE(text.ok()) << template_name;
  std::string out;
  bool keep = true;
  size_t pos = 0;
  const std::string& t = *text;
  while (pos < t.size()) {
    size_t end = t.find('\n', pos);
    if (end == std::string::npos) end = t.size();
    const std::string line = t.substr(pos, end - pos);
    pos = end + 1;
    if (!line.empty() && line[0] != ' ' && line[0] != '#') {
      keep = line.rfind("bandwidth", 0) != 0 && line.rfind("vram", 0) != 0 && line.rfind("collectives", 0) != 0 &&
             line.rfind("burnin", 0) != 0;
    }
    if (keep) out += line + "\n";
  }
  return out;
}

Outcome run_on_sim(const std::string& profile, const std::vector<std::string>& fault_texts, const std::string& spec_text,
                   StageProviders providers, RunOptions options, const std::vector<StageRecord>& resumed) {
  std::vector<sim::FaultSpec> faults;
  for (const auto& f : fault_texts) faults.push_back(sim::parse_fault(f).value());
  auto machine = sim::simulate_machine(profile, faults);
  EXPECT_TRUE(machine.ok()) << (machine.ok() ? "" : machine.error().message);
  auto spec = spec::parse_spec(spec_text, "spec.yaml", catalog::gpu_catalog());
  EXPECT_TRUE(spec.ok()) << (spec.ok() ? "" : spec.error().message);
  Outcome out;
  if (!machine.ok() || !spec.ok()) return out;
  const auto assessment = analysis::judge_machine(*machine, catalog::gpu_catalog(), expectations_of(*spec));
  const StageContext ctx{*machine, *spec, catalog::gpu_catalog(), assessment, options.quick};
  const auto stages = make_stages(std::move(providers));
  out.stages = run_stages(stages, ctx, options, resumed, {});
  out.verdict = decide(out.stages, out.why);
  return out;
}

}  // namespace gpuvet::accept::testing
