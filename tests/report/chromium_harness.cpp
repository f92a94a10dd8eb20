// Headless Chromium runs for the report tests; see chromium_harness.hpp.
#include "chromium_harness.hpp"

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include <sys/wait.h>
#include <unistd.h>

namespace gpuvet::testing::chromium {

namespace {

namespace fs = std::filesystem;

constexpr int kTimeoutSeconds = 60;
constexpr std::string_view kReportCsp = "default-src 'none'; style-src 'unsafe-inline'; img-src data:";

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// A fresh directory for one run (page, profile, PDF, log), removed when done.
struct TempDir {
  fs::path path;
  TempDir() {
    std::string pattern = (fs::temp_directory_path() / "gpuvet-chromium-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed for " + pattern);
    path = pattern;
  }
  ~TempDir() {
    std::error_code ignored;
    fs::remove_all(path, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
};

// Runs chromium on `html` with `mode` flags; stdout is the result unless `output_file` names a
// file chromium writes.
Result run_chromium(const std::string& html, const std::string& mode, const std::string& output_file_name) {
  TempDir dir;
  const fs::path page = dir.path / "page.html";
  std::ofstream(page, std::ios::binary) << html;
  const fs::path log = dir.path / "chromium.log";
  const fs::path output_file = output_file_name.empty() ? fs::path{} : dir.path / output_file_name;
  std::string flags = mode;
  if (!output_file.empty()) flags += "='" + output_file.string() + "'";
  const std::string command = "timeout " + std::to_string(kTimeoutSeconds) + " '" + executable() + "' --headless" +
                              (::geteuid() == 0 ? " --no-sandbox" : "") +
                              " --disable-gpu --no-first-run --disable-extensions"
                              " --host-resolver-rules='MAP * ~NOTFOUND' --user-data-dir='" + (dir.path / "profile").string() +
                              "' " + flags + " 'file://" + page.string() + "' 2>'" + log.string() + "'";
  Result result;
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) {
    result.log = "popen failed for: " + command;
    return result;
  }
  std::array<char, 8192> buffer{};
  std::size_t n = 0;
  while ((n = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0) result.output.append(buffer.data(), n);
  const int status = ::pclose(pipe);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  result.log = read_file(log);
  if (!output_file.empty()) result.output = fs::exists(output_file) ? read_file(output_file) : std::string{};
  return result;
}

std::string html_unescape(std::string_view s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '&') {
      out += s[i];
      continue;
    }
    bool matched = false;
    for (const auto& [entity, ch] : {std::pair{"&amp;", '&'}, {"&lt;", '<'}, {"&gt;", '>'}, {"&quot;", '"'}, {"&#39;", '\''},
                                     {"&nbsp;", ' '}}) {
      const std::string_view e(entity);
      if (s.substr(i, e.size()) == e) {
        out += ch;
        i += e.size() - 1;
        matched = true;
        break;
      }
    }
    if (!matched) out += '&';
  }
  return out;
}

std::optional<nlohmann::json> parse(const std::string& text) {
  auto j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return std::nullopt;
  return j;
}

}  // namespace

std::string executable() {
  const char* path = std::getenv("PATH");
  const std::string dirs = path != nullptr ? path : "/usr/bin";
  for (std::size_t pos = 0; pos <= dirs.size();) {
    const std::size_t colon = dirs.find(':', pos);
    const std::size_t end = colon == std::string::npos ? dirs.size() : colon;
    for (const char* name : {"chromium", "chromium-browser"}) {
      const fs::path candidate = fs::path(dirs.substr(pos, end - pos)) / name;
      if (!candidate.parent_path().empty() && ::access(candidate.c_str(), X_OK) == 0) return candidate.string();
    }
    pos = end + 1;
  }
  return {};
}

std::string with_layout_probe(std::string html) {
  const std::size_t csp = html.find(kReportCsp);
  if (csp != std::string::npos) html.insert(csp + kReportCsp.size(), "; script-src 'unsafe-inline'");
  const std::string probe = read_file(fs::path(GPUVET_REPORT_TEST_DIR) / "layout_probe.js");
  if (probe.empty()) throw std::runtime_error(std::string("cannot read ") + GPUVET_REPORT_TEST_DIR + "/layout_probe.js");
  const std::size_t body_end = html.rfind("</body>");
  html.insert(body_end == std::string::npos ? html.size() : body_end, "<script>\n" + probe + "</script>\n");
  return html;
}

Result dump_dom(const std::string& html, int width, int height) {
  return run_chromium(html, "--window-size=" + std::to_string(width) + "," + std::to_string(height) + " --dump-dom", "");
}

Result print_to_pdf(const std::string& html) {
  return run_chromium(html, "--no-pdf-header-footer --generate-pdf-document-outline --print-to-pdf", "page.pdf");
}

std::optional<nlohmann::json> screen_layout(const std::string& dom) {
  const std::string open = "<pre id=\"gpuvet-layout\"";
  const std::size_t at = dom.find(open);
  if (at == std::string::npos) return std::nullopt;
  const std::size_t start = dom.find('>', at);
  const std::size_t end = dom.find("</pre>", at);
  if (start == std::string::npos || end == std::string::npos) return std::nullopt;
  return parse(html_unescape(std::string_view(dom).substr(start + 1, end - start - 1)));
}

std::optional<nlohmann::json> print_layout(const std::string& pdf_title) {
  const std::string prefix = "gpuvet-layout:";
  const std::size_t at = pdf_title.find(prefix);
  if (at == std::string::npos) return std::nullopt;
  return parse(pdf_title.substr(at + prefix.size()));
}

std::string problems_text(const nlohmann::json& layout) {
  std::string out;
  for (const auto& p : layout.value("problems", nlohmann::json::array())) {
    out += "  " + p.value("element", std::string{"?"}) + ": " + p.value("why", std::string{"?"}) + "\n";
  }
  return out;
}

}  // namespace gpuvet::testing::chromium
