// Kernel, OS and fabric manager versions from files under the filesystem root.
#include "platform/host_software.hpp"

#include <cctype>
#include <regex>

namespace gpuvet::platform {

namespace {

std::string trim(std::string_view s) {
  std::size_t a = 0;
  std::size_t b = s.size();
  while (a < b && std::isspace(static_cast<unsigned char>(s[a]))) ++a;
  while (b > a && std::isspace(static_cast<unsigned char>(s[b - 1]))) --b;
  return std::string(s.substr(a, b - a));
}

// Calls each(line) for every line of text.
template <class Each>
void for_lines(std::string_view text, Each&& each) {
  std::size_t start = 0;
  while (start <= text.size()) {
    const auto end = text.find('\n', start);
    const auto line = text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
    if (!each(line)) return;
    if (end == std::string_view::npos) return;
    start = end + 1;
  }
}

// VALUE of KEY=VALUE or KEY="VALUE" (os-release quoting).
std::optional<std::string> os_release_field(std::string_view text, std::string_view key) {
  std::optional<std::string> found;
  for_lines(text, [&](std::string_view line) {
    const std::string l = trim(line);
    if (l.size() > key.size() && l.compare(0, key.size(), key) == 0 && l[key.size()] == '=') {
      std::string v = trim(std::string_view(l).substr(key.size() + 1));
      if (v.size() >= 2 && (v.front() == '"' || v.front() == '\'') && v.back() == v.front()) v = v.substr(1, v.size() - 2);
      if (!v.empty()) found = v;
    }
    return true;
  });
  return found;
}

}  // namespace

std::optional<std::string> os_release_name(std::string_view text) {
  if (auto pretty = os_release_field(text, "PRETTY_NAME")) return pretty;
  auto name = os_release_field(text, "NAME");
  if (!name) return std::nullopt;
  if (auto version = os_release_field(text, "VERSION")) return *name + " " + *version;
  return name;
}

// dpkg's status file is stanzas separated by blank lines; the fabric manager packages are
// nvidia-fabricmanager, nvidia-fabricmanager-<branch> and cuda-drivers-fabricmanager-<branch>.
std::optional<std::string> dpkg_fabric_manager_version(std::string_view status) {
  static const std::regex package_re(R"(^(nvidia-fabricmanager(-[0-9]+)?|cuda-drivers-fabricmanager(-[0-9]+)?)$)");
  std::optional<std::string> found;
  std::string package;
  std::string state;
  std::string version;
  auto close = [&] {
    if (!found && std::regex_match(package, package_re) && state.find(" installed") != std::string::npos && !version.empty()) {
      found = version + " (package " + package + ")";
    }
    package.clear();
    state.clear();
    version.clear();
  };
  for_lines(status, [&](std::string_view line) {
    const std::string l = trim(line);
    if (l.empty()) {
      close();
    } else if (l.rfind("Package:", 0) == 0) {
      package = trim(std::string_view(l).substr(8));
    } else if (l.rfind("Status:", 0) == 0) {
      state = trim(std::string_view(l).substr(7));
    } else if (l.rfind("Version:", 0) == 0) {
      version = trim(std::string_view(l).substr(8));
    }
    return true;
  });
  close();
  return found;
}

std::optional<std::string> fabric_manager_log_version(std::string_view log) {
  static const std::regex version_re(R"(Fabric Manager version ([0-9][0-9A-Za-z.\-]*))", std::regex::icase);
  std::optional<std::string> found;
  for_lines(log, [&](std::string_view line) {
    std::match_results<std::string_view::const_iterator> m;
    if (std::regex_search(line.begin(), line.end(), m, version_re)) found = m[1].str();  // the last start wins
    return true;
  });
  return found;
}

core::SoftwareVersion read_kernel_version(const FsRoot& root) {
  const std::string path = "/proc/sys/kernel/osrelease";
  auto line = root.read_line(path);
  if (line && !trim(*line).empty()) return {"kernel", "Linux kernel", trim(*line), path};
  return {"kernel", "Linux kernel", core::Reading<std::string>::absent(path + " not readable"), path};
}

core::SoftwareVersion read_os_version(const FsRoot& root) {
  for (const std::string path : {"/etc/os-release", "/usr/lib/os-release"}) {
    if (auto text = root.read(path)) {
      if (auto name = os_release_name(*text)) return {"os", "Operating system", *name, path};
      return {"os", "Operating system", core::Reading<std::string>::absent(path + " names no PRETTY_NAME or NAME"), path};
    }
  }
  return {"os", "Operating system", core::Reading<std::string>::absent("no /etc/os-release or /usr/lib/os-release"),
          "/etc/os-release"};
}

core::SoftwareVersion read_fabric_manager_version(const FsRoot& root) {
  const char* title = "NVIDIA fabric manager";
  if (auto status = root.read("/var/lib/dpkg/status")) {
    if (auto v = dpkg_fabric_manager_version(*status)) return {"fabric_manager", title, *v, "/var/lib/dpkg/status"};
  }
  if (auto log = root.read("/var/log/fabricmanager.log")) {
    if (auto v = fabric_manager_log_version(*log)) return {"fabric_manager", title, *v, "/var/log/fabricmanager.log"};
  }
  for (const std::string bin : {"/usr/bin/nv-fabricmanager", "/usr/sbin/nv-fabricmanager"}) {
    if (root.exists(bin)) {
      return {"fabric_manager", title,
              core::Reading<std::string>::absent(bin + " installed; its version is in neither the dpkg status nor "
                                                       "/var/log/fabricmanager.log"),
              bin};
    }
  }
  return {"fabric_manager", title,
          core::Reading<std::string>::absent("no fabric manager found (no nvidia-fabricmanager package, log or "
                                             "nv-fabricmanager binary; only NVSwitch machines need one)"),
          "/var/lib/dpkg/status, /var/log/fabricmanager.log"};
}

std::vector<core::SoftwareVersion> read_host_software(const FsRoot& root) {
  return {read_kernel_version(root), read_os_version(root), read_fabric_manager_version(root)};
}

}  // namespace gpuvet::platform
