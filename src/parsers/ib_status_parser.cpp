// ibstat / ibv_devinfo -> NICs (see ib_status_parser.hpp). Layouts from rdma-core
// libibverbs/examples/devinfo.c and infiniband-diags src/ibstat.c.
#include "parsers/ib_status_parser.hpp"

#include <cstdlib>
#include <fmt/format.h>
#include <vector>

#include "parsers/text_lines.hpp"

namespace gpuvet::parsers {

namespace {

// "Active" / "PORT_ACTIVE (4)" -> "ACTIVE".
std::string state_word(std::string_view v) {
  auto w = std::string(trim(v.substr(0, v.find('('))));
  if (starts_with(w, "PORT_")) w = w.substr(5);
  for (auto& c : w) c = static_cast<char>(c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c);
  if (w == "INITIALIZING") w = "INIT";
  return w;
}

std::string value_after_colon(std::string_view t) {
  const auto colon = t.find(':');
  return colon == std::string_view::npos ? std::string() : std::string(trim(t.substr(colon + 1)));
}

struct Port {
  std::string device;
  int number = 1;
  std::string state;
  double rate = 0;   // Gb/s; 0 when not printed
  double width = 0;  // ibv_devinfo -v: lanes
  double speed = 0;  // ibv_devinfo -v: Gb/s per lane
  std::string link_layer;
};

Port new_port(const std::string& device, int number) {
  Port p;
  p.device = device;
  p.number = number;
  return p;
}

core::Nic to_nic(const Port& p) {
  core::Nic n;
  n.label = p.number > 1 ? fmt::format("{} port {}", p.device, p.number) : p.device;
  n.name = p.device;
  const double rate = p.rate > 0 ? p.rate : p.width * p.speed;
  n.rate_gbit_s = rate > 0 ? core::Reading<double>(rate)
                           : core::Reading<double>::absent("ibv_devinfo prints the rate only with -v");
  n.state = p.state.empty() ? core::Reading<std::string>::absent("not printed") : core::Reading<std::string>(p.state);
  n.link_layer = p.link_layer.empty() ? core::Reading<std::string>::absent("not printed") : core::Reading<std::string>(p.link_layer);
  n.gpu_proximity = core::Reading<std::vector<core::Link>>::absent("ibstat does not show the PCIe path to the GPUs");
  return n;
}

}  // namespace

core::Result<core::Machine> parse_ib_status(std::string_view text, const std::string& file_name) {
  std::vector<Port> ports;
  std::string device;
  for (const auto& line : split_lines(text)) {
    const auto t = trim(line.text);
    if (starts_with(t, "CA '") && t.size() > 5 && t.back() == '\'') {
      device = std::string(t.substr(4, t.size() - 5));
    } else if (starts_with(t, "hca_id:")) {
      device = value_after_colon(t);
    } else if (!device.empty() && starts_with(t, "Port ") && t.back() == ':') {
      ports.push_back(new_port(device, std::atoi(std::string(t.substr(5)).c_str())));
    } else if (!device.empty() && starts_with(t, "port:")) {
      ports.push_back(new_port(device, std::atoi(value_after_colon(t).c_str())));
    } else if (!ports.empty() && ports.back().device == device) {
      auto& p = ports.back();
      if (starts_with(t, "State:") || starts_with(t, "state:")) p.state = state_word(value_after_colon(t));
      else if (starts_with(t, "Rate:")) p.rate = std::atof(value_after_colon(t).c_str());
      else if (starts_with(t, "Link layer:") || starts_with(t, "link_layer:")) p.link_layer = value_after_colon(t);
      else if (starts_with(t, "active_width:")) p.width = std::atof(value_after_colon(t).c_str());
      else if (starts_with(t, "active_speed:")) p.speed = std::atof(value_after_colon(t).c_str());
    }
  }
  if (ports.empty()) return core::input_error(file_name + ": no RDMA port in this ibstat / ibv_devinfo output");
  core::Machine m;
  m.source = "ibstat/ibv_devinfo (" + file_name + ")";
  std::vector<core::Nic> nics;
  for (const auto& p : ports) nics.push_back(to_nic(p));
  m.nics = std::move(nics);
  m.notes.push_back(fmt::format("{}: {} RDMA port(s) and no GPU: give nvidia-smi topo -m and -q of the same node for the GPUs",
                                file_name, ports.size()));
  return m;
}

bool looks_like_ib_status(std::string_view text) {
  const auto lines = split_lines(text);
  for (size_t i = 0; i < lines.size(); ++i) {
    const auto t = trim(lines[i].text);
    if (starts_with(t, "hca_id:")) return true;
    if (starts_with(t, "CA '") && i + 1 < lines.size() && starts_with(trim(lines[i + 1].text), "CA type:")) return true;
  }
  return false;
}

}  // namespace gpuvet::parsers
