// Hand-built burn-in records.
#include "test_burnin_records.hpp"

#include "analysis/burnin_judge.hpp"

namespace gpuvet::analysis::testing {

core::BurninRecord healthy_burnin(int gpus, double duration_s, double interval_s) {
  core::BurninRecord r;
  r.run.source = "test";
  r.run.interval_s = interval_s;
  r.run.planned_duration_s = duration_s;
  r.run.status = core::BurninStatus::completed;
  r.run.ended_t_s = duration_s;
  for (int g = 0; g < gpus; ++g) {
    core::BurninGpu info;
    info.index = g;
    info.name = std::string("NVIDIA H100 80GB HBM3");
    info.power_limit_w = 700.0;
    info.shutdown_temp_c = 92.0;
    info.slowdown_temp_c = 89.0;
    info.max_sm_clock_mhz = 1980.0;
    r.gpus.push_back(info);
  }
  for (double t = interval_s; t <= duration_s + 1e-9; t += interval_s) {
    for (int g = 0; g < gpus; ++g) {
      core::TelemetrySample s;
      s.gpu = g;
      s.t_s = t;
      const double wobble = static_cast<double>((g * 7 + static_cast<int>(t / interval_s)) % 5) - 2;  // -2..2
      s.gpu_temp_c = 66 + (g % 3) + 0.0 * wobble;
      s.mem_temp_c = 70.0;
      s.sm_clock_mhz = 1782 + wobble;
      s.mem_clock_mhz = 2619.0;
      s.power_w = 690 + wobble;
      s.energy_j = 690 * t;
      s.util_gpu_pct = 100.0;
      s.util_mem_pct = 45.0;
      s.clocks_event_reasons = core::clocks_event::sw_power_cap;
      s.pstate = 0;
      s.ecc_corrected = std::uint64_t{0};
      s.ecc_uncorrected = std::uint64_t{0};
      s.retired_pages_sbe = 0;
      s.retired_pages_dbe = 0;
      s.retired_pages_pending = false;
      s.remap_pending = false;
      s.pcie_replays = std::uint64_t{3};
      std::vector<core::NvLinkErrorSample> links;
      for (int l = 0; l < 18; ++l) {
        const core::Reading<std::uint64_t> zero(std::uint64_t{0});
        links.push_back(core::NvLinkErrorSample{l, zero, zero, zero, zero});
      }
      s.nvlink = links;
      s.tflops = 790 + wobble;
      s.miscompares = std::uint64_t{0};
      r.samples.push_back(s);
    }
  }
  return r;
}

void edit_samples(core::BurninRecord& record, int gpu, double from_s,
                  const std::function<void(core::TelemetrySample&)>& edit) {
  for (auto& s : record.samples) {
    if (s.gpu == gpu && s.t_s >= from_s) edit(s);
  }
}

namespace {

// The run with all traffic beside the load: an interval a minute, healthy rates, equal digests.
void with_traffic(core::BurninRecord& r) {
  r.run.traffic.kinds = {core::TrafficKind::all_reduce, core::TrafficKind::all_to_all, core::TrafficKind::copies};
  for (double t = 60; t <= r.run.planned_duration_s + 1e-9; t += 60) {
    core::TrafficInterval i{t - 60, t, {}, {}};
    i.collectives.push_back({"all_reduce", 450.0, std::int64_t{0}});
    i.collectives.push_back({"all_to_all", 240.0, std::int64_t{0}});
    for (const auto& g : r.gpus) {
      core::GpuTraffic rates;
      rates.gpu = g.index;
      rates.send_gbps = 360.0;
      rates.recv_gbps = 360.0;
      rates.h2d_gbps = 54.0;
      rates.d2h_gbps = 54.0;
      rates.wrong = std::int64_t{0};
      rates.gemm_digest = std::uint64_t{42};
      i.gpus.push_back(std::move(rates));
    }
    r.traffic.push_back(std::move(i));
  }
}

// Applies `edit` to GPU `gpu`'s traffic readings of every interval ending after `from_s`.
void edit_traffic(core::BurninRecord& r, int gpu, double from_s, const std::function<void(core::GpuTraffic&)>& edit) {
  for (auto& i : r.traffic) {
    for (auto& g : i.gpus) {
      if (g.gpu == gpu && i.t_s > from_s) edit(g);
    }
  }
}

}  // namespace

std::vector<BurninGalleryEntry> burnin_gallery() {
  std::vector<BurninGalleryEntry> out;
  auto add = [&](std::string name, std::string code, int gpu, const std::function<void(core::BurninRecord&)>& plant) {
    core::BurninRecord r = healthy_burnin();
    plant(r);
    out.push_back({std::move(name), std::move(code), gpu, std::move(r)});
  };
  add("straggler", "straggler_gpu", 5, [](auto& r) { edit_samples(r, 5, 0, [](auto& s) { s.tflops = *s.tflops * 0.8; }); });
  add("clock drop at 20 min", "clock_desync", 2, [](auto& r) {
    edit_samples(r, 2, 1200, [](auto& s) { s.sm_clock_mhz = 1500.0; });
  });
  add("hot card", "thermal_outlier", 4, [](auto& r) { edit_samples(r, 4, 0, [](auto& s) { s.gpu_temp_c = 84.0; }); });
  add("low power", "power_not_reached", 1, [](auto& r) { edit_samples(r, 1, 0, [](auto& s) { s.power_w = 520.0; }); });
  add("hardware slowdown", "throttle_reasons", 6, [](auto& r) {
    edit_samples(r, 6, 1800, [](auto& s) { s.clocks_event_reasons = core::clocks_event::hw_slowdown; });
  });
  add("corrected ECC", "ecc_errors_new", 3, [](auto& r) {
    edit_samples(r, 3, 0, [](auto& s) { s.ecc_corrected = static_cast<std::uint64_t>(s.t_s / 600); });
  });
  add("xid 48", "xid_event", 7, [](auto& r) {
    r.events.push_back({7, 1234, core::TelemetryEventKind::xid, 48, "Xid 48"});
  });
  add("lost without xid", "gpu_lost", 0, [](auto& r) {
    r.events.push_back({0, 2000, core::TelemetryEventKind::gpu_lost, 0, "GPU is lost"});
    std::erase_if(r.samples, [](const auto& s) { return s.gpu == 0 && s.t_s > 2000; });
  });
  add("nvlink crc", "nvlink_errors_growing", 2, [](auto& r) {
    edit_samples(r, 2, 0, [](auto& s) {
      auto links = *s.nvlink;
      links[4].crc_flit = static_cast<std::uint64_t>(s.t_s / 12);
      links[4].replay = static_cast<std::uint64_t>(s.t_s / 12);
      s.nvlink = links;
    });
  });
  add("pcie replays", "pcie_replays", 1, [](auto& r) {
    edit_samples(r, 1, 0, [](auto& s) { s.pcie_replays = static_cast<std::uint64_t>(3 + s.t_s / 5); });
  });
  add("miscompare", "compute_miscompare", 3, [](auto& r) {
    edit_samples(r, 3, 2500, [](auto& s) { s.miscompares = std::uint64_t{2}; });
  });
  add("remap pending", "row_remap_pending", 5, [](auto& r) {
    edit_samples(r, 5, 3000, [](auto& s) { s.remap_pending = true; });
  });
  add("retirement pending", "retired_pages", 4, [](auto& r) {
    edit_samples(r, 4, 3000, [](auto& s) { s.retired_pages_pending = true; });
  });
  add("crc under traffic", "link_errors_under_traffic", 2, [](auto& r) {
    with_traffic(r);
    edit_samples(r, 2, 0, [](auto& s) {
      auto links = *s.nvlink;
      links[4].crc_flit = static_cast<std::uint64_t>(s.t_s / 12);
      links[4].replay = static_cast<std::uint64_t>(s.t_s / 12);
      s.nvlink = links;
    });
  });
  add("slow links, normal GEMMs", "traffic_straggler", 3, [](auto& r) {
    with_traffic(r);
    edit_traffic(r, 3, 0, [](auto& g) {
      g.send_gbps = 270.0;
      g.recv_gbps = 270.0;
    });
  });
  add("fabric slows when hot", "busbw_fell_when_hot", 6, [](auto& r) {
    with_traffic(r);
    for (auto& i : r.traffic) {
      if (i.t_s > 60) i.collectives[0].busbw_gbps = 380.0;
    }
    edit_traffic(r, 6, 60, [](auto& g) { g.send_gbps = 300.0; });
  });
  add("silent corruption", "silent_data_corruption", 1, [](auto& r) {
    with_traffic(r);
    edit_traffic(r, 1, 2400, [](auto& g) {
      g.gemm_digest = std::uint64_t{7};
      g.wrong = std::int64_t{512};
    });
  });
  return out;
}

std::vector<core::Finding> burnin_gallery_findings() {
  std::vector<core::Finding> out;
  for (const auto& entry : burnin_gallery()) {
    for (auto& f : judge_burnin(entry.record).findings) out.push_back(std::move(f));
  }
  return out;
}

}  // namespace gpuvet::analysis::testing
