// The stage loop of `gpuvet accept`.
#include "accept/runner.hpp"

#include <exception>

#include <fmt/format.h>

namespace gpuvet::accept {

namespace {

StageRecord skipped(std::vector<ClauseResult> clauses, StageStatus status, const std::string& reason) {
  StageRecord r;
  r.status = status;
  r.reason = reason;
  for (auto& c : clauses) {
    c.status = ClauseStatus::not_run;
    c.reason = reason;
  }
  r.clauses = std::move(clauses);
  return r;
}

const StageRecord* find_resumed(const std::vector<StageRecord>& resumed, const std::string& id) {
  for (const auto& r : resumed) {
    if (r.id == id && r.status == StageStatus::done) return &r;
  }
  return nullptr;
}

// Fail-closed: the stage's answer must cover exactly the clauses it was asked to decide.
void reconcile(StageRecord& record, const std::vector<ClauseResult>& asked) {
  std::vector<ClauseResult> out;
  for (const auto& want : asked) {
    const ClauseResult* got = nullptr;
    for (const auto& c : record.clauses) {
      if (c.id == want.id) got = &c;
    }
    if (got != nullptr) {
      out.push_back(*got);
    } else {
      auto c = want;
      c.status = ClauseStatus::not_run;
      c.reason = record.reason.empty() ? "the stage did not decide this clause" : record.reason;
      out.push_back(std::move(c));
    }
  }
  record.clauses = std::move(out);
}

bool any_failed(const StageRecord& r) {
  for (const auto& c : r.clauses) {
    if (c.status == ClauseStatus::fail) return true;
  }
  return false;
}

}  // namespace

std::vector<StageRecord> run_stages(const std::vector<std::unique_ptr<Stage>>& stages, const StageContext& ctx,
                                    const RunOptions& options, const std::vector<StageRecord>& resumed,
                                    const RunHooks& hooks) {
  std::vector<StageRecord> out;
  std::string stopped_by;
  auto now = [&] { return hooks.seconds_now ? hooks.seconds_now() : 0.0; };
  for (size_t i = 0; i < stages.size(); ++i) {
    const Stage& stage = *stages[i];
    auto asked = stage.clauses(ctx.spec);
    if (hooks.started) hooks.started(stage, i, stages.size());
    const double start = now();
    StageRecord record;
    if (asked.empty()) {
      record = skipped({}, StageStatus::not_run, "the spec asks nothing of this stage");
    } else if (const auto* earlier = stage.quick_gate() ? nullptr : find_resumed(resumed, stage.id())) {
      // The quick gates are observed again on every run: they take no time, and they are what
      // tells a resumed run that it still has the machine the earlier stages measured.
      record = *earlier;
      record.resumed = true;
    } else if (!stopped_by.empty()) {
      record = skipped(asked, StageStatus::not_run, "--fail-fast: stopped after " + stopped_by + " failed");
    } else if (options.quick && stage.long_running()) {
      record = skipped(asked, StageStatus::not_run, "skipped by --quick");
    } else if (auto a = stage.applicable(ctx); !a.applicable) {
      record = a.unavailable ? skipped(asked, StageStatus::not_run, a.reason)
                             : skipped(asked, StageStatus::waived, "waived: " + a.reason);
    } else {
      try {
        record = stage.run(ctx, asked);
      } catch (const std::exception& e) {
        record = skipped(asked, StageStatus::error, fmt::format("stage error: {}", e.what()));
      }
    }
    record.id = stage.id();
    record.title = stage.title();
    if (!record.resumed) record.seconds = now() - start;
    reconcile(record, asked);
    if (options.fail_fast && stopped_by.empty() && any_failed(record)) stopped_by = stage.id();
    if (hooks.finished) hooks.finished(record);
    out.push_back(std::move(record));
  }
  return out;
}

analysis::Expectations expectations_of(const spec::Spec& spec) {
  analysis::Expectations e;
  if (spec.interconnect) {
    e.interconnect = spec.interconnect->value.cls;
    e.interconnect_any_nvlink_mesh = spec.interconnect->value.any_nvlink_mesh;
  }
  if (spec.memory_gib) e.memory_gib = spec.memory_gib->value;
  if (spec.gpu_count) e.gpu_count = spec.gpu_count->value;
  if (spec.workload) e.workload = std::string(spec::to_string(spec.workload->value));
  return e;
}

}  // namespace gpuvet::accept
