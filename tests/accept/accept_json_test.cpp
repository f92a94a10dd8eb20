// report.json and the state file round-trip; compare tables mark where offers differ.
#include <gtest/gtest.h>

#include "accept/accept_json.hpp"
#include "accept/compare.hpp"
#include "accept_test_support.hpp"

namespace gpuvet::accept::testing {
namespace {

AcceptReport report_of(const Outcome& out, const std::string& source) {
  AcceptReport r;
  r.tool_version = "0.1.0";
  r.spec_name = "hgx-a100-8x";
  r.spec_file = "spec.yaml";
  r.machine_source = source;
  r.simulated = true;
  r.hostname = "h";
  r.driver_version = "535";
  r.cuda_version = "12.2";
  r.started_utc = "2026-01-01T00:00:00Z";
  r.finished_utc = "2026-01-01T00:00:01Z";
  r.stages = out.stages;
  r.verdict = decide(r.stages, r.why);
  return r;
}

TEST(AcceptJson, ReportRoundTrips) {
  auto out = run_on_sim("nvlink-4plus4-8x", {}, gates_only("hgx-a100-8x"));
  auto r = report_of(out, "simulated: nvlink-4plus4-8x");
  r.stages[4].heatmaps.push_back({"H2D", "GB/s", {"GPU0"}, {"host"}, {{std::nullopt}}, 55.0});
  r.other_findings.push_back({"throttle_active", core::Severity::warn, {2}, "held back", {{"reason", "HW"}}, "cool it"});
  r.stages[7].series.push_back({"temp", "C", {"GPU0"}, {{{0, 40}, {60, 70}}}, {{10, 20}}, {{30, "XID 79"}}});
  const auto text = render_report_json(r);
  EXPECT_NE(text.find("\"schema\": \"gpuvet.accept/1\""), std::string::npos);
  auto back = parse_report_json(text, "report.json");
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(render_report_json(*back), text);
  EXPECT_EQ(back->verdict, core::Verdict::fail);
}

// The burn-in's steady state is data in the burn-in stage record (read by trend and monitor
// --baseline); the other stages, and reports written before it, carry no such field.
TEST(AcceptJson, BurninSteadyStateRoundTripsAndIsAbsentElsewhere) {
  auto out = run_on_sim("nvlink-4plus4-8x", {}, gates_only("hgx-a100-8x"));
  auto r = report_of(out, "simulated: nvlink-4plus4-8x");
  const auto without = render_report_json(r);
  EXPECT_EQ(without.find("steady_state"), std::string::npos);
  auto no_field = parse_report_json(without, "report.json");
  ASSERT_TRUE(no_field.ok()) << no_field.error().message;
  for (const auto& s : no_field->stages) EXPECT_FALSE(s.steady_state) << s.id;

  r.stages[7].steady_state = std::vector<BurninSteadyState>{{0, 64.0, 689.4, 1782.0}, {1, std::nullopt, 690.1, std::nullopt}};
  const auto text = render_report_json(r);
  EXPECT_NE(text.find("\"median_temp_c\": null"), std::string::npos) << text;
  auto back = parse_report_json(text, "report.json");
  ASSERT_TRUE(back.ok()) << back.error().message;
  ASSERT_TRUE(back->stages[7].steady_state);
  ASSERT_EQ(back->stages[7].steady_state->size(), 2u);
  EXPECT_EQ((*back->stages[7].steady_state)[0].median_sm_clock_mhz, 1782.0);
  EXPECT_FALSE((*back->stages[7].steady_state)[1].median_temp_c);
  EXPECT_EQ(render_report_json(*back), text);
  auto state = parse_state(render_state("k", r.stages), "k", "state.json");  // a resumed burn-in keeps it
  ASSERT_TRUE(state.ok());
  EXPECT_TRUE(state->at(7).steady_state);
}

// A clause whose reason joins several sentences keeps them as parts (report/why_fold folds them
// without editing text); a clause with one reason writes no parts.
TEST(AcceptJson, ReasonPartsRoundTripAndAreAbsentForOneReason) {
  auto out = run_on_sim("nvlink-4plus4-8x", {}, gates_only("hgx-a100-8x"));
  auto r = report_of(out, "simulated: nvlink-4plus4-8x");
  EXPECT_EQ(render_report_json(r).find("reason_parts"), std::string::npos);
  auto& clause = r.stages[0].clauses.at(0);
  clause.reason_parts = {"GPU 3 slows every collective it joins", "and 2 more"};
  clause.reason = "GPU 3 slows every collective it joins; and 2 more";
  const auto text = render_report_json(r);
  auto back = parse_report_json(text, "report.json");
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(back->stages[0].clauses.at(0).reason_parts, clause.reason_parts);
  EXPECT_EQ(render_report_json(*back), text);
}

TEST(AcceptJson, OtherSchemaOrGarbageIsBadInput) {
  auto other = parse_report_json(R"({"schema": "gpuvet.machine/1"})", "x.json");
  ASSERT_FALSE(other.ok());
  EXPECT_EQ(other.error().message, "x.json: schema \"gpuvet.machine/1\", this gpuvet reads \"gpuvet.accept/1\"");
  auto garbage = parse_report_json("{", "y.json");
  ASSERT_FALSE(garbage.ok());
  EXPECT_EQ(garbage.error().kind, core::ErrorKind::bad_input);
}

TEST(AcceptJson, StateIsResumedOnlyUnderItsKey) {
  auto out = run_on_sim("hgx-h100-8x", {}, gates_only("hgx-h100-8x"));
  const auto text = render_state("key-1", out.stages);
  auto same = parse_state(text, "key-1", "state.json");
  ASSERT_TRUE(same.ok());
  EXPECT_EQ(same->size(), out.stages.size());
  auto other = parse_state(text, "key-2", "state.json");
  ASSERT_TRUE(other.ok());
  EXPECT_TRUE(other->empty());
}

TEST(AcceptCompare, MarksRowsWhereOffersDiffer) {
  auto good = report_of(run_on_sim("hgx-a100-8x", {}, gates_only("hgx-a100-8x")), "simulated: hgx-a100-8x");
  auto trap = report_of(run_on_sim("nvlink-4plus4-8x", {}, gates_only("hgx-a100-8x")), "simulated: nvlink-4plus4-8x");
  const auto t = compare_reports({{"vendor-a", good}, {"vendor-b", trap}});
  ASSERT_EQ(t.labels.size(), 2u);
  EXPECT_EQ(t.verdicts[0], core::Verdict::pass);
  EXPECT_EQ(t.verdicts[1], core::Verdict::fail);
  bool saw_interconnect = false;
  for (const auto& row : t.rows) {
    if (row.id == "interconnect") {
      saw_interconnect = true;
      EXPECT_TRUE(row.differs);
      EXPECT_EQ(cell_text(row.cells[0]), "PASS");
      EXPECT_EQ(cell_text(row.cells[1]), "FAIL");
    }
    if (row.id == "gpu.count") {
      EXPECT_FALSE(row.differs);
      EXPECT_EQ(cell_text(row.cells[0]), "PASS 100.0 %");
    }
  }
  EXPECT_TRUE(saw_interconnect);
}

}  // namespace
}  // namespace gpuvet::accept::testing
