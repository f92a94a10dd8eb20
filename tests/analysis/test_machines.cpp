// Test catalogue and machine builders for the judge's tests.
#include "test_machines.hpp"

namespace gpuvet::analysis::testing {
namespace {

core::GpuModel model(std::string id, std::string display, std::string pattern, std::string form, std::string arch,
                     core::CardClass cls, double gib, std::uint64_t reported_mib, std::string mem_type, int nvlinks,
                     double link_gbps, int pcie_gen) {
  core::GpuModel m;
  m.id = std::move(id);
  m.display_name = std::move(display);
  m.name_patterns = {std::move(pattern)};
  m.form_factor = std::move(form);
  m.architecture = std::move(arch);
  m.card_class = cls;
  m.memory_gib = gib;
  m.memory_reported_mib = reported_mib;
  m.memory_type = std::move(mem_type);
  m.nvlink_generation = nvlinks > 0 ? 3 : 0;
  m.nvlink_links = nvlinks;
  if (nvlinks > 0) m.nvlink_link_gbps = link_gbps;
  m.pcie_gen = pcie_gen;
  m.pcie_width = 16;
  return m;
}

}  // namespace

const core::Catalog& catalog() {
  using core::CardClass;
  static const core::Catalog kCatalog({
      model("h100-sxm5-80gb", "H100 SXM5 80GB", "H100 80GB HBM3", "sxm", "Hopper", CardClass::training, 80, 81559,
            "HBM3", 18, 25, 5),
      model("a100-sxm4-80gb", "A100 SXM4 80GB", "A100-SXM4-80GB", "sxm", "Ampere", CardClass::training, 80, 81920,
            "HBM2e", 12, 25, 4),
      model("a100-pcie-80gb", "A100 PCIe 80GB", "A100 80GB PCIe", "pcie", "Ampere", CardClass::training, 80, 81920,
            "HBM2e", 12, 25, 4),
      model("v100-sxm2-16gb", "V100 SXM2 16GB", "V100-SXM2-16GB", "sxm", "Volta", CardClass::training, 16, 16160,
            "HBM2", 6, 25, 3),
      model("rtx-4090", "RTX 4090", "RTX 4090", "pcie", "Ada Lovelace", CardClass::consumer, 24, 24564, "GDDR6X", 0, 0,
            4),
      model("rtx-a6000", "RTX A6000", "RTX A6000", "pcie", "Ampere", CardClass::workstation, 48, 49140, "GDDR6", 4,
            14.0625, 4),
      model("l40s", "L40S", "L40S", "pcie", "Ada Lovelace", CardClass::inference, 48, 46068, "GDDR6", 0, 0, 4),
      model("h100-nvl", "H100 NVL", "H100 NVL", "nvl", "Hopper", CardClass::training, 94, 95830, "HBM3", 18, 25, 5),
  });
  return kCatalog;
}

core::Gpu gpu(int index, const std::string& name) {
  core::Gpu g;
  g.index = index;
  g.name = name;
  return g;
}

core::Machine machine(int n, const std::string& name) {
  core::Machine m;
  m.source = "test";
  m.attached_gpus = n;
  for (int i = 0; i < n; ++i) m.gpus.push_back(gpu(i, name));
  return m;
}

core::Link nv(int count) { return core::Link{core::LinkKind::nvlink, count}; }
core::Link pcie(core::LinkKind kind) { return core::Link{kind, 0}; }

core::LinkMatrix nv_mesh(int n, int count) {
  core::LinkMatrix l(n);
  for (int a = 0; a < n; ++a) {
    for (int b = a + 1; b < n; ++b) l.set_symmetric(a, b, nv(count));
  }
  return l;
}

core::LinkMatrix pcie_matrix(int n, core::LinkKind kind) {
  core::LinkMatrix l(n);
  for (int a = 0; a < n; ++a) {
    for (int b = a + 1; b < n; ++b) l.set_symmetric(a, b, pcie(kind));
  }
  return l;
}

std::vector<std::string> codes(const core::Assessment& a) {
  std::vector<std::string> out;
  for (const auto& f : a.findings) out.push_back(f.code);
  return out;
}

std::vector<core::Finding> with_code(const core::Assessment& a, const std::string& code) {
  std::vector<core::Finding> out;
  for (const auto& f : a.findings) {
    if (f.code == code) out.push_back(f);
  }
  return out;
}

core::Assessment judge(const core::Machine& m, const Expectations& expect) {
  return judge_machine(m, catalog(), expect);
}

core::Nic nic(const std::string& label, const std::string& state, double rate_gbit_s) {
  core::Nic n;
  n.label = label;
  n.name = "mlx5_" + label.substr(3);
  n.state = state;
  n.rate_gbit_s = rate_gbit_s;
  n.link_layer = std::string("InfiniBand");
  return n;
}

std::vector<GalleryEntry> gallery() {
  std::vector<GalleryEntry> out;
  {
    auto m = machine(8, kH100);
    m.links = nv_mesh(8, 18);
    out.push_back({"hgx-h100-healthy", m, {}});
    auto broken = m;
    for (int b = 0; b < 8; ++b) {
      if (b != 3) broken.links.value().set_symmetric(3, b, nv(17));
    }
    broken.gpus[5].vbios = std::string("96.00.99.00.01");
    for (int i = 0; i < 8; ++i) {
      if (i != 5) broken.gpus[static_cast<size_t>(i)].vbios = std::string("96.00.74.00.0D");
    }
    broken.gpus[2].memory_health.remap_pending = true;
    broken.gpus[4].memory_health.remap_failure = true;
    broken.gpus[6].memory_health.remapped_rows_correctable = 2;
    broken.gpus[6].memory_health.remap_pending = false;
    broken.gpus[7].memory_health.retired_pages_sbe = 3;
    broken.gpus[7].memory_health.retired_pages_pending = true;
    broken.gpus[1].clocks_event_reasons = std::vector<std::string>{"HW Slowdown"};
    broken.gpus[0].memory_total_mib = 40960;
    broken.gpus[0].pcie = {5, 5, 8, 16};
    broken.attached_gpus = 9;
    broken.gpus[5].fabric_state = std::string("In Progress");
    out.push_back({"hgx-h100-broken", broken, {}});
  }
  {
    auto m = machine(3, kA6000);
    core::LinkMatrix l = pcie_matrix(3, core::LinkKind::node);
    l.set_symmetric(0, 1, nv(4));
    m.links = l;
    m.gpus[2].nvlinks = std::vector<core::NvLinkPort>{};  // no bridge on GPU 2
    out.push_back({"a6000-bridged-pair", m, Expectations{core::InterconnectClass::nvswitch_full_mesh, false, {}, {}, "train"}});
  }
  {
    auto m = machine(8, kRtx4090);
    m.links = pcie_matrix(8, core::LinkKind::sys);
    for (int i = 0; i < 8; ++i) m.gpus[static_cast<size_t>(i)].numa_node = i < 5 ? 0 : 1;
    m.gpus[7].numa_node = 1;
    m.links.value().set_symmetric(4, 5, pcie(core::LinkKind::pix));
    m.links.value().set_symmetric(4, 6, pcie(core::LinkKind::pix));
    m.links.value().set_symmetric(5, 6, pcie(core::LinkKind::pix));
    out.push_back({"rtx4090-numa", m, {}});
  }
  {
    auto m = machine(2, kL40s);
    m.gpus.push_back(gpu(2, kH100));
    m.attached_gpus = 3;
    out.push_back({"mixed-classes", m, {}});
  }
  {
    auto m = machine(2, kH100);
    m.nics = std::vector<core::Nic>{nic("NIC0", "ACTIVE", 400), nic("NIC1", "DOWN", 400)};
    out.push_back({"nic-down", m, {}});
  }
  out.push_back({"logged-trouble", logged_trouble_machine(), {}});
  {
    // An A100 PCIe box sold as A100 SXM4, one batch promised, GPU 1 on other firmware.
    auto m = machine(2, kA100Pcie);
    m.gpus[0].vbios = std::string("92.00.25.00.08");
    m.gpus[1].vbios = std::string("92.00.45.00.03");
    Expectations sold;
    sold.model_id = "a100-sxm4-80gb";
    sold.same_batch = true;
    out.push_back({"model-and-batch-as-sold", m, sold});
  }
  return out;
}

core::Machine logged_trouble_machine() {
  auto m = machine(2, kH100);
  m.gpus[0].pci_bus_id = std::string("0000:18:00.0");
  m.gpus[1].pci_bus_id = std::string("0000:2a:00.0");
  m.gpus[1].mig_enabled = true;
  core::NvLinkPort port;
  port.link = 3;
  port.active = true;
  port.error_counters = std::vector<core::NvLinkCounter>{{"Replay Errors", 12}, {"CRC Errors", 65535}, {"Recovery Errors", 0}};
  m.gpus[0].nvlinks = std::vector<core::NvLinkPort>{port};
  const auto event = [](core::GpuEventKind kind, const char* bus, int xid, const char* text) {
    core::GpuEvent e;
    e.kind = kind;
    e.pci_bus_id = std::string(bus);
    e.xid = xid;
    e.text = text;
    e.where = "k.txt: line 1";
    return e;
  };
  m.events = {event(core::GpuEventKind::xid, "0000:18:00.0", 48, "Xid (PCI:0000:18:00): 48, pid=1, DBE"),
              event(core::GpuEventKind::fallen_off_bus, "0000:2a:00.0", 0, "GPU at 0000:2a:00.0 has fallen off the bus."),
              event(core::GpuEventKind::inforom_corrupted, "0000:18:00.0", 0, "WARNING: infoROM is corrupted at gpu 0000:18:00.0")};
  return m;
}

}  // namespace gpuvet::analysis::testing
