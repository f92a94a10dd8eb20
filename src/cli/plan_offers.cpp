// gpuvet plan's offer sources (simulator profiles, acceptance bundles, offers YAML files), the
// prices given on the command line, and the check that a fixed layout fits each offer.
#include "cli/plan_offers.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <map>

#include "analysis/judge.hpp"
#include "backends/sim/simulator.hpp"
#include "bundle/bundle_report.hpp"
#include "platform/user_file.hpp"
#include "plan/memory.hpp"

namespace gpuvet::cli {

namespace {

// The largest group of GPUs joined by NVLink (connected components of the link matrix).
int largest_nvlink_group(const core::Machine& machine) {
  if (!machine.links) return 1;
  const auto& links = *machine.links;
  const int n = links.size();
  std::vector<int> group(n, -1);
  int best = n > 0 ? 1 : 0;
  for (int start = 0; start < n; ++start) {
    if (group[start] >= 0) continue;
    int size = 0;
    std::vector<int> stack = {start};
    group[start] = start;
    while (!stack.empty()) {
      const int a = stack.back();
      stack.pop_back();
      ++size;
      for (int b = 0; b < n; ++b) {
        if (b != a && group[b] < 0 && links.at(a, b).is_nvlink()) {
          group[b] = start;
          stack.push_back(b);
        }
      }
    }
    best = std::max(best, size);
  }
  return best;
}

// "8x H100 SXM5 80GB" or "4x A100 SXM4 80GB, 4x A100 PCIe 80GB" (or "... + ...") -> the first model's name.
std::string first_model_name(const std::string& observed) {
  std::string s = observed.substr(0, std::min(observed.find(','), observed.find(" + ")));
  const auto x = s.find("x ");
  if (x != std::string::npos && x > 0 && std::all_of(s.begin(), s.begin() + static_cast<long>(x), ::isdigit)) s = s.substr(x + 2);
  return s;
}

}  // namespace

core::Result<plan::Offer> offer_from_profile(const std::string& profile, const core::Catalog& catalog) {
  auto machine = sim::simulate_machine(profile, {});
  if (!machine) return machine.error().with_context("--offer " + profile);
  plan::Offer o;
  o.name = profile;
  o.source = "simulator profile " + profile + " (catalogue numbers, no price)";
  // The GPU model most GPUs have; on a tie the slower one, which paces the collective.
  std::map<std::string, int> counts;
  const core::GpuModel* model = nullptr;
  for (const auto& gpu : machine->gpus) {
    const core::GpuModel* m = gpu.name ? catalog.match(*gpu.name) : nullptr;
    if (m == nullptr) continue;
    const int c = ++counts[m->id];
    if (model == nullptr || c > counts[model->id] ||
        (c == counts[model->id] && m->bf16_tflops.value_or(0) < model->bf16_tflops.value_or(0))) {
      model = m;
    }
  }
  if (model == nullptr) return core::internal_error("simulator profile " + profile + ": no GPU in the catalogue");
  o.gpu = *model;
  o.gpus_per_node = static_cast<int>(machine->gpus.size());
  o.interconnect = analysis::classify_interconnect(*machine, catalog).cls;
  o.nvlink_island = largest_nvlink_group(*machine);
  if (machine->nics) {
    double rate = 0;
    for (const auto& nic : *machine->nics) {
      if (nic.rate_gbit_s) {
        ++o.nics_per_node;
        rate += *nic.rate_gbit_s;
      }
    }
    if (o.nics_per_node > 0) o.nic_gbit_s = rate / o.nics_per_node;
  }
  return o;
}

core::Result<plan::Offer> offer_from_bundle(const std::string& dir, const core::Catalog& catalog, const std::string& key,
                                            std::vector<std::string>& notes) {
  namespace fs = std::filesystem;
  const std::string file = (fs::path(dir) / "report.json").string();
  auto read = bundle::read_bundle_report(fs::path(dir), key);
  if (!read) return read.error();
  if (!read->signature_checked) notes.push_back(fmt::format("{}: {}", dir, read->seal));
  const accept::AcceptReport* report = &read->report;
  std::string label = fs::path(dir).lexically_normal().filename().string();
  if (label.empty()) label = fs::path(dir).lexically_normal().parent_path().filename().string();
  plan::Offer o;
  o.name = label;
  o.measured = plan::measured_from_report(*report, dir);
  o.source = o.measured->source;
  const std::string gpu_name = first_model_name(o.measured->gpu_display_name);
  const core::GpuModel* model = plan::find_gpu(catalog, gpu_name);
  if (model == nullptr) return core::input_error(fmt::format("{}: clause gpu.model: unknown GPU model '{}'", file, gpu_name));
  o.gpu = *model;
  for (const auto* c : accept::all_clauses(*report)) {
    if (c->id == "gpu.count" && c->status != accept::ClauseStatus::not_run && c->measured && !o.measured->gpus) {
      return core::input_error(fmt::format("{}: clause gpu.count: {:g} GPUs: plan reads 1 to 64 GPUs per machine", file,
                                           *c->measured));
    }
  }
  if (o.measured->gpus) o.gpus_per_node = *o.measured->gpus;
  if (o.measured->interconnect) o.interconnect = *o.measured->interconnect;
  return o;
}

core::Result<std::vector<plan::Offer>> offers_from_file(const std::string& path, const core::Catalog& catalog,
                                                        const std::string& key, std::vector<std::string>& notes) {
  auto text = platform::read_user_file(path);
  if (!text) return text.error();
  auto offers = plan::parse_offers(*text, path, catalog);
  if (!offers) return offers.error();
  const auto base = std::filesystem::path(path).parent_path();
  for (std::size_t i = 0; i < offers->size(); ++i) {
    auto& o = offers.value()[i];
    if (o.bundle.empty()) continue;
    const auto dir = (base / o.bundle).string();
    auto measured = offer_from_bundle(dir, catalog, key, notes);
    if (!measured) return measured.error().with_context(fmt::format("{}: offers[{}].bundle", path, i));
    if (measured->gpu.id != o.gpu.id) {
      return core::input_error(fmt::format("{}: offers[{}].bundle: {} measured {}, the offer names {}", path, i, dir,
                                           measured->gpu.display_name, o.gpu.display_name));
    }
    o.measured = measured->measured;
  }
  return std::move(offers).value();
}

// --price [NAME=]AMOUNT/gpu-h|machine-h: the price of the offer called NAME or, without a name,
// of the --offer just before it (`after_offer`: its offer's index, -1 when none came before); a
// lone offer takes an unnamed price wherever it stands. Every priced offer must use one currency.
core::Result<bool> apply_prices(const std::vector<std::string>& prices, const std::vector<int>& after_offer,
                                std::vector<plan::Offer>& offers) {
  std::map<const plan::Offer*, std::string> priced;  // offer -> the --price that priced it
  for (std::size_t k = 0; k < prices.size(); ++k) {
    const std::string& text = prices[k];
    const auto eq = text.find('=');
    const std::string name = eq == std::string::npos ? "" : text.substr(0, eq);
    if (eq != std::string::npos && name.empty()) {
      return core::usage_error(fmt::format("--price {}: no offer name before '=' (write NAME=AMOUNT/gpu-h, or the amount "
                                           "alone right after its --offer)",
                                           text));
    }
    auto price = plan::parse_price(eq == std::string::npos ? text : text.substr(eq + 1));
    if (!price) return core::usage_error("--price " + (name.empty() ? "" : name + "=") + price.error().message);
    plan::Offer* target = nullptr;
    if (!name.empty()) {
      auto it = std::find_if(offers.begin(), offers.end(), [&](const plan::Offer& o) { return o.name == name; });
      if (it == offers.end()) {
        std::string names;
        for (const auto& o : offers) names += (names.empty() ? "" : ", ") + o.name;
        return core::usage_error(fmt::format("--price {}: no offer is called {} (offers: {})", text, name, names));
      }
      target = &*it;
    } else if (k < after_offer.size() && after_offer[k] >= 0 && after_offer[k] < static_cast<int>(offers.size())) {
      target = &offers[static_cast<std::size_t>(after_offer[k])];
    } else if (offers.size() == 1) {
      target = &offers.front();
    } else {
      return core::usage_error(fmt::format("--price {}: which offer? Put it right after its --offer, or write NAME={}",
                                           text, text));
    }
    // Two prices for one offer is a slip (a copied line, a misplaced --offer): never pick one silently.
    if (const auto seen = priced.find(target); seen != priced.end()) {
      return core::usage_error(fmt::format("--price {}: offer {} already has a price (--price {}); give one price per offer",
                                           text, target->name, seen->second));
    }
    priced[target] = text;
    plan::apply_price(*target, *price);
  }
  std::string currency;
  for (const auto& o : offers) {
    if (!o.gpu_hour_price()) continue;
    if (currency.empty()) currency = o.currency;
    if (o.currency != currency) {
      return core::usage_error(fmt::format("--price: offers priced in {} and {}; give every price in one currency "
                                           "(gpuvet converts nothing)", currency, o.currency));
    }
  }
  return true;
}

// A layout fixed on the command line (--tp, --pp, --ep) that cannot be placed on an offer's GPUs.
core::Result<bool> check_layout_fits_offers(const plan::ModelSpec& model, const plan::Job& job,
                                            const std::vector<plan::Offer>& offers) {
  const plan::ParamCounts params = plan::count_params(model);
  for (const auto& offer : offers) {
    if (plan::choose_layout(model, params, job, offer.gpus_per_node, offer.nodes, 1e30, true).placed) continue;
    const bool train = job.workload == plan::Workload::train;
    std::string asked;
    const int tp = train ? job.train.tp : job.infer.tp;
    if (tp > 0) asked += fmt::format(" --tp {}", tp);
    if (train && job.train.pp > 0) asked += fmt::format(" --pp {}", job.train.pp);
    if (train && job.train.ep > 0) asked += fmt::format(" --ep {}", job.train.ep);
    return core::usage_error(fmt::format(
        "{}: no such layout on offer {} ({} node(s) x {} GPUs): TP must be a power of two dividing the GPUs per node "
        "and the {} heads, PP must divide the layers and the GPUs left{}",
        asked.empty() ? std::string("layout") : asked.substr(1), offer.name, offer.nodes, offer.gpus_per_node, model.heads,
        model.moe() ? fmt::format(", EP must divide the data-parallel size and the {} experts", model.experts) : ""));
  }
  return true;
}

}  // namespace gpuvet::cli
