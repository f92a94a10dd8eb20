// Where gpuvet plan's offers come from (CLI wiring, I/O): an offers YAML file, a simulator
// profile (--offer PROFILE: catalogue numbers, no price), or an acceptance bundle directory whose
// verified report.json supplies measured busbw, bandwidth, TFLOP/s and memory.
#pragma once

#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/gpu_model.hpp"
#include "plan/job.hpp"
#include "plan/model.hpp"
#include "plan/offer.hpp"

namespace gpuvet::cli {

core::Result<plan::Offer> offer_from_profile(const std::string& profile, const core::Catalog& catalog);
// A bundle read through bundle::read_bundle_report: with a public `key` only when its MANIFEST is
// signed by its private key; without, `notes` gets "DIR: unsigned: ..." (what was not checked).
core::Result<plan::Offer> offer_from_bundle(const std::string& dir, const core::Catalog& catalog, const std::string& key,
                                            std::vector<std::string>& notes);
// The offers of a YAML file; a `bundle:` path is read relative to the file's directory, as above.
core::Result<std::vector<plan::Offer>> offers_from_file(const std::string& path, const core::Catalog& catalog,
                                                        const std::string& key, std::vector<std::string>& notes);

// --price [NAME=]AMOUNT/gpu-h|machine-h (plan/offer.hpp parse_price): each price goes to the offer
// called NAME or, without a name, to the offer at `after_offer[k]` (the --offer just before the
// k-th --price; -1 when none) or the only offer. Errors (usage) name --price; every priced offer
// must carry the same currency.
core::Result<bool> apply_prices(const std::vector<std::string>& prices, const std::vector<int>& after_offer,
                                std::vector<plan::Offer>& offers);

// A layout fixed on the command line (--tp, --pp, --ep) that cannot be placed on some offer's GPUs:
// a usage error naming the flags and the offer.
core::Result<bool> check_layout_fits_offers(const plan::ModelSpec& model, const plan::Job& job,
                                            const std::vector<plan::Offer>& offers);

}  // namespace gpuvet::cli
