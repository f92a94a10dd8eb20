// FsRoot: file reads confined to a root directory.
#include "platform/fs_root.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <system_error>

namespace gpuvet::platform {

namespace fs = std::filesystem;

fs::path FsRoot::resolve(const std::string& path) const {
  std::string rel = path;
  while (!rel.empty() && rel.front() == '/') rel.erase(rel.begin());
  return root_ / rel;
}

std::optional<std::string> FsRoot::read(const std::string& path) const {
  std::ifstream in(resolve(path), std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream out;
  out << in.rdbuf();
  if (in.bad()) return std::nullopt;
  return out.str();
}

std::optional<std::string> FsRoot::read_line(const std::string& path) const {
  auto text = read(path);
  if (!text) return std::nullopt;
  auto line = text->substr(0, text->find('\n'));
  while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t')) {
    line.pop_back();
  }
  return line;
}

bool FsRoot::exists(const std::string& path) const {
  std::error_code ec;
  return fs::exists(resolve(path), ec);
}

std::vector<std::string> FsRoot::list(const std::string& path) const {
  std::vector<std::string> names;
  std::error_code ec;
  for (fs::directory_iterator it(resolve(path), ec), end; !ec && it != end; it.increment(ec)) {
    names.push_back(it->path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

std::optional<std::string> FsRoot::canonical(const std::string& path) const {
  std::error_code ec;
  const auto real = fs::weakly_canonical(resolve(path), ec);
  if (ec) return std::nullopt;
  const auto root = fs::weakly_canonical(root_, ec);
  if (ec) return std::nullopt;
  auto rel = real.lexically_relative(root);
  if (rel.empty() || *rel.begin() == "..") return std::nullopt;
  return "/" + rel.generic_string();
}

}  // namespace gpuvet::platform
