// The explicit stage list, and the four quick gates decided from the machine picture.
#include "accept/registry.hpp"

#include "accept/clauses.hpp"
#include "accept/gate_checks.hpp"

namespace gpuvet::accept {

namespace {

const char* const kNotBuilt = "not built into this binary yet";

class GateStage final : public Stage {
 public:
  using ClauseFn = std::vector<ClauseResult> (*)(const spec::Spec&);
  GateStage(const char* id, const char* title, ClauseFn clause_fn) : id_(id), title_(title), clauses_(clause_fn) {}
  [[nodiscard]] std::string id() const override { return id_; }
  [[nodiscard]] std::string title() const override { return title_; }
  [[nodiscard]] bool quick_gate() const override { return true; }
  [[nodiscard]] std::vector<ClauseResult> clauses(const spec::Spec& spec) const override { return clauses_(spec); }
  StageRecord run(const StageContext& ctx, std::vector<ClauseResult> clauses) const override {
    StageRecord record;
    record.status = StageStatus::done;
    for (auto& c : clauses) {
      decide_gate_clause(c, ctx);
      // The findings behind this stage's clauses travel with it (report: evidence per stage).
      for (const auto& f : ctx.assessment.findings) {
        bool listed = false;
        for (const auto& have : record.findings) listed = listed || (have.code == f.code && have.message == f.message);
        for (const auto& code : c.findings) {
          if (!listed && code == f.code) {
            record.findings.push_back(f);
            listed = true;
          }
        }
      }
    }
    record.clauses = std::move(clauses);
    return record;
  }

 private:
  const char* id_;
  const char* title_;
  ClauseFn clauses_;
};

std::unique_ptr<Stage> or_unavailable(std::unique_ptr<Stage> stage, const char* id, const char* title,
                                      UnavailableStage::ClauseFn clauses, bool long_running = false) {
  if (stage) return stage;
  return std::make_unique<UnavailableStage>(id, title, clauses, kNotBuilt, long_running);
}

}  // namespace

std::vector<std::unique_ptr<Stage>> make_stages(StageProviders providers) {
  std::vector<std::unique_ptr<Stage>> out;
  out.push_back(std::make_unique<GateStage>("inventory", "GPU inventory", inventory_clauses));
  out.push_back(std::make_unique<GateStage>("topology", "Interconnect, PCIe and network", topology_clauses));
  out.push_back(std::make_unique<GateStage>("numa", "NUMA layout", numa_clauses));
  out.push_back(std::make_unique<GateStage>("memory", "GPU memory", memory_clauses));
  out.push_back(or_unavailable(std::move(providers.bandwidth), "bandwidth", "Copy bandwidth (H2D, P2P)", bandwidth_clauses));
  out.push_back(or_unavailable(std::move(providers.vram), "vram", "Usable VRAM", vram_clauses));
  out.push_back(or_unavailable(std::move(providers.collectives), "collectives", "NCCL collectives", collectives_clauses));
  out.push_back(or_unavailable(std::move(providers.burnin), "burnin", "Burn-in", burnin_clauses, true));
  return out;
}

}  // namespace gpuvet::accept
