// Every shipped template parses and states the core clauses; templates for offers the simulator
// also models carry the simulator profile's name and the same GPU model and count.
#include <gtest/gtest.h>

#include <set>

#include "backends/sim/simulator.hpp"
#include "catalog/gpu_catalog.hpp"
#include "spec/spec.hpp"
#include "spec/spec_templates.hpp"

namespace gpuvet::spec {
namespace {

TEST(SpecTemplates, EveryTemplateParsesAndStatesTheOffer) {
  const auto templates = list_templates();
  ASSERT_GE(templates.size(), 8u);
  for (const auto& t : templates) {
    auto text = template_text(t.name);
    ASSERT_TRUE(text.ok()) << t.name;
    auto s = parse_spec(*text, t.name, catalog::gpu_catalog());
    ASSERT_TRUE(s.ok()) << s.error().message;
    EXPECT_EQ(s->name, t.name);
    EXPECT_EQ(t.description.find(t.name), std::string::npos) << t.name << ": the description says the offer in words";
    EXPECT_NE(t.description.find("GB"), std::string::npos) << t.description;
    EXPECT_NE(text->find("Template " + t.name + ": " + t.description + "."), std::string::npos) << t.name;
    EXPECT_TRUE(s->gpu_model && s->gpu_count && s->interconnect && s->numa && s->nics && s->burnin) << t.name;
    EXPECT_GT(s->gpu_model->line, 0) << t.name << ": the model is written, not defaulted";
  }
}

TEST(SpecTemplates, CommonOffersAreThere) {
  std::set<std::string> names;
  for (const auto& t : list_templates()) names.insert(t.name);
  for (const char* want : {"hgx-h100-8x", "hgx-h200-8x", "hgx-a100-8x", "h800-8x", "a800-8x", "l40s-8x", "rtx4090-8x",
                           "hgx-h100-4x", "h100-nvl-4x"}) {
    EXPECT_TRUE(names.contains(want)) << want;
  }
}

TEST(SpecTemplates, SameNameAsASimulatorProfileMeansTheSameOffer) {
  int shared = 0;
  for (const auto& profile : sim::list_profiles()) {
    auto text = template_text(profile.name);
    if (!text) continue;
    ++shared;
    auto s = parse_spec(*text, profile.name, catalog::gpu_catalog());
    ASSERT_TRUE(s.ok());
    EXPECT_EQ(s->gpu_count->value, profile.gpu_count) << profile.name;
    EXPECT_EQ(catalog::gpu_catalog().by_id(s->gpu_model->value)->display_name, profile.gpu_model) << profile.name;
  }
  EXPECT_GE(shared, 6);
}

TEST(SpecTemplates, UnknownTemplateListsTheKnownOnes) {
  auto r = template_text("dgx-b300");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, core::ErrorKind::usage);
  EXPECT_NE(r.error().message.find("hgx-h100-8x"), std::string::npos);
}

}  // namespace
}  // namespace gpuvet::spec
