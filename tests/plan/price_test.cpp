// Prices on the command line: --price AMOUNT/gpu-h or AMOUNT/machine-h with a currency label,
// for the --offer just before it or a named offer; bad prices are exit 2 naming the flag.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "../cli/cli_runner.hpp"
#include "catalog/gpu_catalog.hpp"
#include "plan/offer.hpp"

namespace gpuvet::plan {
namespace {

using testing::run_cli;

TEST(PlanPrice, ParsesUnitsAndCurrencyLabels) {
  struct Case {
    const char* text;
    double amount;
    bool per_machine;
    const char* currency;
  };
  const Case cases[] = {
      {"2.49/gpu-h", 2.49, false, "USD"},          {"19.92/machine-h", 19.92, true, "USD"},
      {"EUR 2.49/gpu-h", 2.49, false, "EUR"},      {"2.49 eur/gpu-h", 2.49, false, "EUR"},
      {"$3/GPU-H", 3, false, "USD"},               {"\xe2\x82\xac" "20/machine-h", 20, true, "EUR"},
      {"2.5", 2.5, false, "USD"},                  {"0.01/gpu-h", 0.01, false, "USD"},
      {"1000000/gpu-h", 1e6, false, "USD"},
  };
  for (const auto& c : cases) {
    auto p = parse_price(c.text);
    ASSERT_TRUE(p) << c.text << ": " << p.error().message;
    EXPECT_DOUBLE_EQ(p->amount, c.amount) << c.text;
    EXPECT_EQ(p->per_machine, c.per_machine) << c.text;
    EXPECT_EQ(p->currency, c.currency) << c.text;
  }
  for (const char* bad : {"-2/gpu-h", "abc/gpu-h", "2.49/day", "", "/gpu-h", "EUR 2 USD/gpu-h", "2,49/gpu-h", "inf/gpu-h",
                          "0/gpu-h", "1e308/gpu-h", "0x10/gpu-h", "1e2", "+2/gpu-h", "2./gpu-h.", "1.2.3/gpu-h", "nan",
                          "1000001/gpu-h", "10000001/machine-h"}) {
    auto p = parse_price(bad);
    EXPECT_FALSE(p) << bad;
    if (!p) {
      EXPECT_EQ(p.error().kind, core::ErrorKind::usage) << bad;
      EXPECT_NE(p.error().message.find("expected AMOUNT/gpu-h or AMOUNT/machine-h"), std::string::npos) << p.error().message;
    }
  }
  EXPECT_NE(parse_price("-2/gpu-h").error().message.find("must not be negative"), std::string::npos);
}

TEST(PlanPrice, PricesAreStrictDecimalsWithAnErrorNamingTheText) {
  // Issue 20: 1e308 printed "inf USD", 0x10 read as 16, and "=2" was a price for no offer.
  for (const char* text : {"1e308/gpu-h", "0x10/gpu-h", "0/gpu-h", "=2", "2000000/gpu-h"}) {
    const auto r = run_cli({"plan", "--model", "llama-3-8b", "--offer", "hgx-h100-8x", "--price", text});
    EXPECT_EQ(r.exit_code, 2) << text << ": " << r.out;
    EXPECT_NE(r.err.find(std::string("--price ") + text + ": "), std::string::npos) << r.err;
    EXPECT_EQ(r.out.find("inf"), std::string::npos) << r.out;
  }
}

TEST(PlanPrice, EachPriceGoesToTheOfferBeforeIt) {
  const auto r = run_cli({"plan", "--model", "llama-3-8b", "--offer", "hgx-h100-8x", "--price", "2.49/gpu-h", "--offer",
                          "l40s-8x", "--price", "8/machine-h", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["currency"], "USD");
  for (const auto& o : j["offers"]) {
    const double want = o["name"] == "hgx-h100-8x" ? 2.49 : 1.0;  // 8 per machine-hour / 8 GPUs
    EXPECT_DOUBLE_EQ(o["price_per_gpu_hour"].get<double>(), want) << o["name"];
    ASSERT_FALSE(o["cost"].is_null());
    EXPECT_NEAR(o["cost"].get<double>(), o["gpu_hours"].get<double>() * want, 1e-6 * o["cost"].get<double>());
  }
}

TEST(PlanPrice, NamedPricesAndCurrencyLabelInTheText) {
  const auto r = run_cli({"plan", "--model", "llama-3-8b", "--offer", "hgx-h100-8x", "--offer", "l40s-8x", "--price",
                          "l40s-8x=EUR 1.1/gpu-h", "--price", "hgx-h100-8x=EUR 2.2/gpu-h"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("Cost EUR"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(" EUR), "), std::string::npos) << "the reason names the currency";
}

TEST(PlanPrice, BadPricesAreExit2NamingTheFlag) {
  const auto negative = run_cli({"plan", "--model", "llama-3-8b", "--offer", "hgx-h100-8x", "--price=-2/gpu-h"});
  EXPECT_EQ(negative.exit_code, 2);
  EXPECT_NE(negative.err.find("--price -2/gpu-h: a price must not be negative"), std::string::npos) << negative.err;
  const auto unit = run_cli({"plan", "--model", "llama-3-8b", "--offer", "hgx-h100-8x", "--price", "2/day"});
  EXPECT_EQ(unit.exit_code, 2);
  EXPECT_NE(unit.err.find("--price 2/day: unknown unit 'day'"), std::string::npos) << unit.err;
  const auto which = run_cli({"plan", "--model", "llama-3-8b", "--price", "2/gpu-h", "--offer", "hgx-h100-8x", "--offer",
                              "l40s-8x"});
  EXPECT_EQ(which.exit_code, 2);
  EXPECT_NE(which.err.find("--price 2/gpu-h: which offer?"), std::string::npos) << which.err;
  const auto mixed = run_cli({"plan", "--model", "llama-3-8b", "--offer", "hgx-h100-8x", "--price", "EUR 2/gpu-h",
                              "--offer", "l40s-8x", "--price", "1/gpu-h"});
  EXPECT_EQ(mixed.exit_code, 2);
  EXPECT_NE(mixed.err.find("EUR and USD"), std::string::npos) << mixed.err;
  const auto twice = run_cli({"plan", "--model", "llama-3-8b", "--offer", "hgx-h100-8x", "--price", "2.5/gpu-h", "--price",
                              "3/gpu-h"});
  EXPECT_EQ(twice.exit_code, 2);  // the second price replaced the first without a word
  EXPECT_NE(twice.err.find("--price 3/gpu-h: offer hgx-h100-8x already has a price (--price 2.5/gpu-h)"), std::string::npos)
      << twice.err;
  const auto named_twice = run_cli({"plan", "--model", "llama-3-8b", "--offer", "hgx-h100-8x", "--price", "2.5/gpu-h",
                                    "--offer", "l40s-8x", "--price", "hgx-h100-8x=3/gpu-h"});
  EXPECT_EQ(named_twice.exit_code, 2);
  const auto unknown = run_cli({"plan", "--model", "llama-3-8b", "--offer", "hgx-h100-8x", "--price", "nope=2/gpu-h"});
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_NE(unknown.err.find("no offer is called nope"), std::string::npos) << unknown.err;
}

TEST(PlanPrice, OffersFileCarriesACurrency) {
  const auto& catalog = catalog::gpu_catalog();
  auto offers = parse_offers("offers:\n  - name: x\n    gpu: l40s-48gb\n    price_per_gpu_hour: 1\n    currency: EUR\n",
                             "o.yaml", catalog);
  ASSERT_TRUE(offers) << offers.error().message;
  EXPECT_EQ(offers->front().currency, "EUR");
  auto bad = parse_offers("offers:\n  - name: x\n    gpu: l40s-48gb\n    currency: 12\n", "o.yaml", catalog);
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("o.yaml: offers[0].currency (line 4): expected a currency label"), std::string::npos)
      << bad.error().message;
}

}  // namespace
}  // namespace gpuvet::plan
