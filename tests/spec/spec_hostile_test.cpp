// Specs a hostile or careless hand wrote: nothing crashes, nothing is silently dropped, nothing
// runs for ever; every error names its line (issue 11).
#include <gtest/gtest.h>

#include <string>

#include "catalog/gpu_catalog.hpp"
#include "spec/spec.hpp"

namespace gpuvet::spec {
namespace {

core::Result<Spec> parse(const std::string& text) { return parse_spec(text, "t.yaml", catalog::gpu_catalog()); }

std::string error_of(const std::string& text) {
  auto r = parse(text);
  EXPECT_FALSE(r.ok()) << text.substr(0, 200);
  return r.ok() ? std::string() : r.error().message;
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(SpecHostile, DuplicateKeysAreErrorsWithBothLines) {
  EXPECT_EQ(error_of("gpu:\n  count: 8\n  count: 4\n"),
            "t.yaml: line 3: gpu.count: written twice (first on line 2): a spec states each promise once");
  EXPECT_TRUE(has(error_of("gpu: {count: 8}\ngpu: {count: 4}\n"), "line 2: gpu: written twice (first on line 1)"));
  EXPECT_TRUE(has(error_of("collectives:\n  all_reduce: {2: auto, 2: 1}\n"), "collectives.all_reduce.2: written twice"));
}

TEST(SpecHostile, ASecondDocumentIsAnError) {
  const auto e = error_of("gpu: {count: 8}\n---\ngpu: {count: 4}\n");
  EXPECT_TRUE(has(e, "line 2: a second YAML document")) << e;  // the `---` line
}

TEST(SpecHostile, AStrayCommaEndsInsteadOfLoadingDocumentsForEver) {
  // fuzz/regressions/spec_fuzzer: yaml-cpp 0.7's LoadAll never returns on these.
  EXPECT_TRUE(has(error_of(",\n"), "not valid YAML")) << error_of(",\n");
  EXPECT_TRUE(has(error_of("gpu: {count: 8}\n,\n"), "not valid YAML"));
}

TEST(SpecHostile, DurationsOutsideWhatABurnInCanBeAreErrors) {
  for (const char* d : {"10000000h", "0.001", "0", "31d", "59s"}) {
    const auto e = error_of(std::string("burnin:\n  duration: ") + d + "\n");
    EXPECT_TRUE(has(e, "line 2: burnin.duration: expected a duration from 1m to 30 days")) << d << ": " << e;
  }
  EXPECT_TRUE(has(error_of("burnin:\n  duration: " + std::string(400, '9') + "\n"), "burnin.duration: expected"));
  std::string long_duration;
  for (int i = 0; i < 20000; ++i) long_duration += "1h";
  EXPECT_TRUE(has(error_of("burnin:\n  duration: " + long_duration + "\n"), "burnin.duration: expected"));
  ASSERT_TRUE(parse("burnin:\n  duration: 1h30m\n").ok());
  EXPECT_EQ(parse("burnin:\n  duration: 1h30m\n")->burnin->value.duration_s, 5400);
  EXPECT_EQ(parse("burnin:\n  duration: 30d\n")->burnin->value.duration_s, 30 * 86400);
}

TEST(SpecHostile, TextThatIsNotUtf8IsRefusedWithItsLine) {
  EXPECT_EQ(error_of("gpu: {count: 8}\nname: \"bad \xFF\xFE name\"\n"),
            "t.yaml: line 2: not valid UTF-8 text (a spec is UTF-8)");
  EXPECT_TRUE(parse("name: \"H100 \xC3\xA9quipe \xE2\x80\x94 8x\"\n").ok());
}

TEST(SpecHostile, DeepNestingIsRefusedBeforeTheParserRecurses) {
  EXPECT_TRUE(has(error_of("name: " + std::string(100000, '[') + "\n"), "nested deeper than 64 levels"));
  EXPECT_TRUE(has(error_of("gpu:\n" + std::string(300, ' ') + "count: 8\n"), "line 2: indented deeper than"));
  EXPECT_TRUE(has(error_of(std::string(2u << 20, '#')), "a spec is at most"));
}

}  // namespace
}  // namespace gpuvet::spec
