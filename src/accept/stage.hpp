// A stage of `gpuvet accept`: one named check that decides some spec clauses. Stages are listed
// explicitly in registry.cpp (no self-registration), run in that order by runner.cpp on the
// calling thread, and may decline with applicable(). A stage never prints and never throws on
// purpose: a measurement it cannot make is a not_run clause with the reason.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "accept/accept_model.hpp"
#include "core/assessment.hpp"
#include "core/gpu_model.hpp"
#include "core/machine.hpp"
#include "spec/spec.hpp"

namespace gpuvet::accept {

// What every stage may read. `assessment` is the judge's verdict on `machine` with the spec's
// expectations (interconnect, memory, GPU count, workload).
struct StageContext {
  const core::Machine& machine;
  const spec::Spec& spec;
  const core::Catalog& catalog;
  const core::Assessment& assessment;
  bool quick = false;
};

struct Applicability {
  bool applicable = true;
  std::string reason;        // why not, when it is not
  bool unavailable = false;  // the probe is missing (not_run), rather than the check declining (waived)
};

class Stage {
 public:
  virtual ~Stage() = default;
  [[nodiscard]] virtual std::string id() const = 0;     // stable: "bandwidth"
  [[nodiscard]] virtual std::string title() const = 0;  // "Copy bandwidth (H2D, P2P)"
  // Quick gates (seconds, no load on the GPUs) run first; --quick skips long-running stages.
  [[nodiscard]] virtual bool quick_gate() const { return false; }
  [[nodiscard]] virtual bool long_running() const { return false; }
  // The clauses of `spec` this stage decides, with status not_run and expected/source filled
  // (see clauses.hpp). Empty: the spec asks nothing of this stage, which then does not run.
  [[nodiscard]] virtual std::vector<ClauseResult> clauses(const spec::Spec& spec) const = 0;
  [[nodiscard]] virtual Applicability applicable(const StageContext&) const { return {}; }
  // Decides `clauses` (as returned above): sets status, observed, reason, findings, measured.
  // Returns the record with status done (or error with a reason); the runner fills id, title,
  // seconds, and turns any clause left not_run into an incomplete verdict.
  virtual StageRecord run(const StageContext& ctx, std::vector<ClauseResult> clauses) const = 0;
};

// A stage whose probe is not in this binary (or not on this machine): every clause not run.
class UnavailableStage final : public Stage {
 public:
  using ClauseFn = std::vector<ClauseResult> (*)(const spec::Spec&);
  UnavailableStage(std::string id, std::string title, ClauseFn clause_fn, std::string reason, bool long_running = false)
      : id_(std::move(id)), title_(std::move(title)), clauses_(clause_fn), reason_(std::move(reason)),
        long_running_(long_running) {}
  [[nodiscard]] std::string id() const override { return id_; }
  [[nodiscard]] std::string title() const override { return title_; }
  [[nodiscard]] bool long_running() const override { return long_running_; }
  [[nodiscard]] std::vector<ClauseResult> clauses(const spec::Spec& spec) const override { return clauses_(spec); }
  [[nodiscard]] Applicability applicable(const StageContext&) const override { return {false, reason_, true}; }
  StageRecord run(const StageContext&, std::vector<ClauseResult> clauses) const override {
    StageRecord r;
    r.status = StageStatus::not_run;
    r.reason = reason_;
    r.clauses = std::move(clauses);
    return r;
  }

 private:
  std::string id_;
  std::string title_;
  ClauseFn clauses_;
  std::string reason_;
  bool long_running_;
};

}  // namespace gpuvet::accept
