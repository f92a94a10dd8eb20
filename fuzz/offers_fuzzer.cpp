// Fuzzes gpuvet plan's offers YAML file (plan/offer.cpp parse_offers) and a --price text
// (parse_price): any input gives offers or a bad_input Error naming the file (usage for a price),
// never a crash or a hang; every offer read has GPUs, and every price is finite and more than 0.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "catalog/gpu_catalog.hpp"
#include "plan/offer.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto offers = gpuvet::plan::parse_offers(text, "fuzz-offers.yaml", gpuvet::catalog::gpu_catalog());
  if (!offers) {
    const auto& error = offers.error();
    if (error.kind != gpuvet::core::ErrorKind::bad_input || error.message.find("fuzz-offers.yaml") == std::string::npos) {
      __builtin_trap();
    }
  } else {
    for (const auto& o : offers.value()) {
      if (o.gpus() < 1) __builtin_trap();
      if (const auto price = o.gpu_hour_price(); price && !(std::isfinite(*price) && *price >= 0)) __builtin_trap();
    }
  }
  // The first line as a --price text.
  const auto price = gpuvet::plan::parse_price(text.substr(0, text.find('\n')));
  if (price) {
    if (!(std::isfinite(price.value().amount) && price.value().amount > 0)) __builtin_trap();
  } else if (price.error().kind != gpuvet::core::ErrorKind::usage) {
    __builtin_trap();
  }
  return 0;
}
