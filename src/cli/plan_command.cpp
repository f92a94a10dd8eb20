// gpuvet plan: which offer fits this model and what the run costs. Wiring only: the model from a
// preset, a config.json or --params; the job from options; offers from --offer/--offers; the
// arithmetic in plan/, the output in report/plan_*. Exit 0, or 1 when no offer fits; bad input 2.
#include <algorithm>
#include <filesystem>
#include <ostream>

#include <fmt/format.h>

#include "catalog/gpu_catalog.hpp"
#include "cli/commands.hpp"
#include "cli/option_checks.hpp"
#include "cli/plan_bundles.hpp"
#include "cli/plan_offers.hpp"
#include "platform/user_file.hpp"
#include "plan/model_sources.hpp"
#include "plan/plan.hpp"
#include "report/plan_report.hpp"
#include "report/text_wrap.hpp"

namespace gpuvet::cli {

namespace {

struct PlanOptions {
  std::string model;
  double params = 0;
  std::string workload = "train";
  double tokens = 0;
  int seq_len = 4096;
  int global_batch = 1024;
  int micro_batch = 1;
  std::string precision = "bf16";
  int zero = -1;
  bool fsdp = false;
  int tp = 0;
  int pp = 0;
  int ep = 0;
  std::string recompute = "none";
  std::string weights = "bf16";
  std::string kv_dtype = "bf16";
  int context = 8192;
  int concurrent = 32;
  double mfu = 0;
  double availability = 1.0;
  bool no_overlap = false;
  std::vector<std::string> offers;
  std::string offers_file;
  std::string key;  // --key PUBKEY: a bundle offer only when its MANIFEST is signed by its private key
  std::vector<std::string> prices;  // [NAME=]AMOUNT/gpu-h|machine-h (a bare number: USD per GPU-hour)
  std::vector<int> price_after_offer;  // per --price: index of the offer given just before it, or -1
  bool json = false;
  bool markdown = false;
  bool html = false;
  bool list_models = false;
};

core::Result<plan::ModelSpec> load_model(const PlanOptions& o) {
  if (!o.model.empty() && o.params > 0) return core::usage_error("--model and --params: choose one");
  // A count no model has would reach the estimate's double-to-int conversions out of range.
  if (o.params > plan::kMaxParams) {
    return core::usage_error(fmt::format("--params {:g}: more than {:g} parameters: not a model gpuvet can plan", o.params,
                                         plan::kMaxParams));
  }
  if (o.params > 0) return plan::estimate_from_params(o.params);
  if (o.model.empty()) return core::usage_error("give --model PRESET|config.json or --params N (gpuvet plan --list-models)");
  if (const auto* preset = plan::find_preset(o.model)) return *preset;
  std::error_code ec;
  if (!std::filesystem::exists(o.model, ec)) {
    std::string names;
    for (const auto& m : plan::model_presets()) names += (names.empty() ? "" : ", ") + m.name;
    return core::usage_error(fmt::format("--model {}: neither a preset ({}) nor a file", o.model, names));
  }
  auto text = platform::read_user_file(o.model);
  if (!text) return text.error();
  return plan::parse_hf_config(*text, o.model);
}

core::Result<plan::Job> make_job(const PlanOptions& o) {
  plan::Job job;
  if (o.workload != "train" && o.workload != "infer") return core::usage_error("--workload: train or infer");
  job.workload = o.workload == "train" ? plan::Workload::train : plan::Workload::infer;
  auto& t = job.train;
  if (o.tokens > 0) t.tokens = o.tokens;
  t.seq_len = o.seq_len;
  t.global_batch = o.global_batch;
  t.micro_batch = o.micro_batch;
  if (!plan::parse_precision(o.precision, t.precision) ||
      (t.precision != plan::Precision::bf16 && t.precision != plan::Precision::fp8)) {
    return core::usage_error("--precision: bf16 or fp8");
  }
  t.zero = o.fsdp ? 3 : o.zero;
  t.tp = o.tp;
  t.pp = o.pp;
  t.ep = o.ep;
  if (o.recompute != "none" && o.recompute != "full") return core::usage_error("--recompute: none or full");
  t.recompute = o.recompute == "full" ? plan::Recompute::full : plan::Recompute::none;
  auto& i = job.infer;
  if (!plan::parse_precision(o.weights, i.weights)) return core::usage_error("--weights: bf16, fp16, fp8, int8 or int4");
  if (!plan::parse_precision(o.kv_dtype, i.kv_cache) || bytes(i.kv_cache) < 1) return core::usage_error("--kv-dtype: bf16, fp16 or fp8");
  i.context = o.context;
  i.concurrent = o.concurrent;
  i.tp = o.tp;
  if (o.tokens > 0) i.tokens = o.tokens;
  if (o.mfu > 0) job.mfu = o.mfu;
  job.availability = o.availability;
  job.overlap = !o.no_overlap;
  return job;
}

core::Result<core::ExitCode> run_plan(const PlanOptions& o, Streams& streams) {
  if (o.list_models) {
    for (const auto& m : plan::model_presets()) {
      streams.out << report::wrap_line(fmt::format("{:<14} {:>7.1f}B  {}", m.name, plan::count_params(m).total / 1e9, m.source), 25);
    }
    return core::ExitCode::pass;
  }
  if (static_cast<int>(o.json) + static_cast<int>(o.markdown) + static_cast<int>(o.html) > 1) {
    return core::usage_error("--json, --markdown and --html: choose one");
  }
  auto model = load_model(o);
  if (!model) return model.error();
  auto job = make_job(o);
  if (!job) return job.error();
  if (o.ep > 1 && !model->moe()) {
    return core::usage_error(fmt::format("--ep {}: {} is not a mixture of experts (no experts to split)", o.ep, model->name));
  }
  if (o.ep > 1 && model->experts % o.ep != 0) {
    return core::usage_error(fmt::format("--ep {}: must divide {}'s {} experts", o.ep, model->name, model->experts));
  }
  const auto& catalog = catalog::gpu_catalog();
  std::vector<plan::Offer> offers;
  std::vector<std::string> notes;  // bundles read without --key: what was not checked
  if (!o.offers_file.empty()) {
    auto file = offers_from_file(o.offers_file, catalog, o.key, notes);
    if (!file) return file.error();
    offers = std::move(file).value();
  }
  const int file_offers = static_cast<int>(offers.size());
  for (const auto& name : o.offers) {
    std::error_code ec;
    auto offer = std::filesystem::is_directory(name, ec) ? offer_from_bundle(name, catalog, o.key, notes)
                                                         : offer_from_profile(name, catalog);
    if (!offer) return offer.error();
    offers.push_back(std::move(offer).value());
  }
  for (const auto& n : notes) streams.err << "gpuvet plan: " << n << "\n";
  if (offers.empty()) return core::usage_error("no offers: give --offers FILE or --offer PROFILE|BUNDLE (gpuvet sim list)");
  if (auto bad = check_layout_fits_offers(*model, *job, offers); !bad) return bad.error();
  std::vector<int> after_offer;
  for (int k : o.price_after_offer) after_offer.push_back(k > 0 ? file_offers + k - 1 : -1);
  auto priced = apply_prices(o.prices, after_offer, offers);
  if (!priced) return priced.error();
  const plan::Plan result = plan::make_plan(*model, *job, offers);
  if (o.json) {
    streams.out << report::render_plan_json(result);
  } else if (o.markdown) {
    streams.out << report::render_plan_markdown(result);
  } else if (o.html) {
    streams.out << report::render_plan_html(result);
  } else {
    streams.out << report::render_plan_text(result);
  }
  const bool any_fits = std::any_of(result.offers.begin(), result.offers.end(), [](const auto& p) { return p.fits; });
  return any_fits ? core::ExitCode::pass : core::ExitCode::fail;
}

// The job's options (all but the model and the offers), shared with `compare --plan`.
void add_job_options(CLI::App* cmd, PlanOptions& o) {
  cmd->add_option("--workload", o.workload, "train or infer (default train)");
  cmd->add_option("--tokens", o.tokens, "Tokens to train on (default 1e12), or output tokens to serve")->check(CLI::PositiveNumber);
  cmd->add_option("--seq-len", o.seq_len, "Training sequence length (default 4096)")->check(CLI::Range(1, 10'000'000));
  cmd->add_option("--global-batch", o.global_batch, "Sequences per optimizer step (default 1024)")->check(CLI::Range(1, 100'000'000));
  cmd->add_option("--micro-batch", o.micro_batch, "Sequences per GPU per pass (default 1)")->check(CLI::Range(1, 1'000'000));
  cmd->add_option("--precision", o.precision, "Training math: bf16 or fp8 (default bf16)");
  cmd->add_option("--zero", o.zero, "ZeRO stage 0-3 (default: the smallest that fits)")->check(CLI::Range(0, 3));
  cmd->add_flag("--fsdp", o.fsdp, "Fully sharded data parallel (= ZeRO-3)");
  cmd->add_option("--tp", o.tp, "Tensor-parallel size (default: the smallest that fits)")->check(CLI::Range(1, 64));
  cmd->add_option("--pp", o.pp, "Pipeline-parallel size (default: the smallest that fits)")->check(CLI::Range(1, 1024));
  cmd->add_option("--ep", o.ep, "MoE expert-parallel size (default: the smallest that fits)")->check(CLI::Range(1, 4096));
  cmd->add_option("--recompute", o.recompute, "Activation recomputation: none or full (default none)");
  cmd->add_option("--weights", o.weights, "Inference weights: bf16, fp8, int8, int4 (default bf16)");
  cmd->add_option("--kv-dtype", o.kv_dtype, "KV cache: bf16 or fp8 (default bf16)");
  cmd->add_option("--context", o.context, "Inference context per sequence (default 8192)")->check(CLI::Range(1, 10'000'000));
  cmd->add_option("--concurrent", o.concurrent, "Sequences decoded together (default 32)")->check(CLI::Range(1, 1'000'000));
  cmd->add_option("--mfu", o.mfu, "Utilisation of the dense peak (default: published figure per GPU)")->check(CLI::Range(0.01, 1.0));
  cmd->add_option("--availability", o.availability, "Share of wall time spent training (default 1.0)")->check(CLI::Range(0.05, 1.0));
  cmd->add_flag("--no-overlap", o.no_overlap, "Days without hiding data-parallel traffic behind compute");
  cmd->add_option("--price", o.prices,
                  "[NAME=]AMOUNT/gpu-h or AMOUNT/machine-h (e.g. 2.49/gpu-h, 19.92/machine-h, EUR 2.49/gpu-h): the price "
                  "of offer NAME, or of the --offer just before it (repeatable)")
      ->allow_extra_args(false);  // one value each: never swallow the bundles after it
}

}  // namespace

BundlePlanRunner add_bundle_plan_options(CLI::App* cmd) {
  auto o = std::make_shared<PlanOptions>();
  add_job_options(cmd, *o);
  return [o](const std::string& model, const std::vector<std::string>& bundles, const std::string& key,
             const std::string& format, Streams& streams) {
    PlanOptions options = *o;
    options.key = key;
    std::error_code ec;
    if (std::filesystem::exists(model, ec) || plan::find_preset(model) != nullptr) {
      options.model = model;
    } else {
      try {
        std::size_t used = 0;
        options.params = std::stod(model, &used);
        if (used != model.size() || !(options.params > 0)) options.model = model;  // the error names it below
      } catch (const std::exception&) {
        options.model = model;
      }
    }
    options.offers = bundles;
    options.json = format == "json";
    options.markdown = format == "markdown";
    options.html = format == "html";
    return run_plan(options, streams);
  };
}

void add_plan_command(CLI::App& app, Action& action) {
  auto o = std::make_shared<PlanOptions>();
  auto* cmd = app.add_subcommand("plan", "Which offer fits this model: memory per GPU, communication share, days and cost");
  cmd->add_option("--model", o->model, "Preset (--list-models) or a Hugging Face config.json");
  cmd->add_option("--params", o->params, "Parameter count (e.g. 70e9); the architecture is estimated and labelled")
      ->check(CLI::PositiveNumber);
  add_job_options(cmd, *o);
  cmd->add_option("--offer", o->offers, "Simulator profile (gpuvet sim list) or acceptance bundle directory (repeatable)")
      ->allow_extra_args(false);
  cmd->add_option("--offers", o->offers_file, "Offers YAML file (docs/json.md, 'gpuvet plan')");
  cmd->add_option("--key", o->key,
                  "Public key (KEY.pub from `gpuvet keygen`): read a bundle offer only when its MANIFEST is signed by its "
                  "private key")
      ->check(non_empty_path());
  cmd->add_flag("--json", o->json, "Print JSON (schema gpuvet.plan/1)");
  cmd->add_flag("--markdown", o->markdown, "Print Markdown");
  cmd->add_flag("--html", o->html, "Print a self-contained HTML page with the step-time chart");
  cmd->add_flag("--list-models", o->list_models, "List the model presets and their sources");
  cmd->callback([o, cmd, &action] {
    // Which --offer each --price follows, from the order the options were given in.
    o->price_after_offer.clear();
    int offers_seen = 0;
    for (const CLI::Option* opt : cmd->parse_order()) {
      if (opt->check_lname("offer")) ++offers_seen;
      if (opt->check_lname("price")) o->price_after_offer.push_back(offers_seen);
    }
    action = [o](Streams& s) { return run_plan(*o, s); };
  });
}

}  // namespace gpuvet::cli
