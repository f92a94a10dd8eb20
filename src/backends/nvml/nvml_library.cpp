// Resolves the NVML symbol table and names NVML return codes.
#include "backends/nvml/nvml_library.hpp"

#include <array>

#include <fmt/format.h>

namespace gpuvet::nvml {

namespace {

constexpr bool required = true;
constexpr bool optional = false;

std::string candidates(const SymbolInfo& info) {
  std::string out(info.names.front());
  for (size_t i = 1; i < info.names.size(); ++i) out += fmt::format(" (or {})", info.names[i]);
  return out;
}

}  // namespace

const std::vector<SymbolInfo>& symbol_table() {
  static const std::vector<SymbolInfo> table = {
#define GPUVET_NVML_INFO(member, signature, requirement, ...) \
  SymbolInfo{Symbol::member, requirement, {__VA_ARGS__}},
      GPUVET_NVML_SYMBOLS(GPUVET_NVML_INFO)
#undef GPUVET_NVML_INFO
  };
  return table;
}

std::string return_code_name(nvmlReturn_t code) {
  static constexpr std::array<std::string_view, 31> kNames = {
      "NVML_SUCCESS",
      "NVML_ERROR_UNINITIALIZED",
      "NVML_ERROR_INVALID_ARGUMENT",
      "NVML_ERROR_NOT_SUPPORTED",
      "NVML_ERROR_NO_PERMISSION",
      "NVML_ERROR_ALREADY_INITIALIZED",
      "NVML_ERROR_NOT_FOUND",
      "NVML_ERROR_INSUFFICIENT_SIZE",
      "NVML_ERROR_INSUFFICIENT_POWER",
      "NVML_ERROR_DRIVER_NOT_LOADED",
      "NVML_ERROR_TIMEOUT",
      "NVML_ERROR_IRQ_ISSUE",
      "NVML_ERROR_LIBRARY_NOT_FOUND",
      "NVML_ERROR_FUNCTION_NOT_FOUND",
      "NVML_ERROR_CORRUPTED_INFOROM",
      "NVML_ERROR_GPU_IS_LOST",
      "NVML_ERROR_RESET_REQUIRED",
      "NVML_ERROR_OPERATING_SYSTEM",
      "NVML_ERROR_LIB_RM_VERSION_MISMATCH",
      "NVML_ERROR_IN_USE",
      "NVML_ERROR_MEMORY",
      "NVML_ERROR_NO_DATA",
      "NVML_ERROR_VGPU_ECC_NOT_SUPPORTED",
      "NVML_ERROR_INSUFFICIENT_RESOURCES",
      "NVML_ERROR_FREQ_NOT_SUPPORTED",
      "NVML_ERROR_ARGUMENT_VERSION_MISMATCH",
      "NVML_ERROR_DEPRECATED",
      "NVML_ERROR_NOT_READY",
      "NVML_ERROR_GPU_NOT_FOUND",
      "NVML_ERROR_INVALID_STATE",
      "NVML_ERROR_RESET_TYPE_NOT_SUPPORTED",
  };
  if (code >= 0 && static_cast<size_t>(code) < kNames.size()) return std::string(kNames[static_cast<size_t>(code)]);
  if (code == kErrorUnknown) return "NVML_ERROR_UNKNOWN";
  return fmt::format("NVML return code {}", code);
}

core::Result<std::unique_ptr<NvmlLibrary>> NvmlLibrary::load(const std::string& library_name) {
  auto opened = platform::DynamicLibrary::open(library_name);
  if (!opened) {
    return opened.error().with_context("NVML unavailable (is the NVIDIA driver installed?)");
  }
  std::unique_ptr<NvmlLibrary> lib(new NvmlLibrary(std::move(opened).value()));
  const auto& table = symbol_table();
  lib->resolved_.assign(table.size(), std::string_view());
  for (const auto& info : table) {
    void* address = nullptr;
    for (const auto name : info.names) {
      address = lib->library_->symbol(std::string(name));
      if (address != nullptr) {
        lib->resolved_[static_cast<size_t>(info.symbol)] = name;
        break;
      }
    }
    if (address == nullptr && info.required) {
      return core::environment_error(fmt::format("NVML symbol {} not exported by {} (driver too old or not NVML?)",
                                                 candidates(info), library_name));
    }
    switch (info.symbol) {
#define GPUVET_NVML_ASSIGN(member, signature, requirement, ...)                          \
  case Symbol::member:                                                                   \
    lib->api_.member = reinterpret_cast<std::add_pointer_t<signature>>(address);         \
    break;
      GPUVET_NVML_SYMBOLS(GPUVET_NVML_ASSIGN)
#undef GPUVET_NVML_ASSIGN
    }
  }
  return lib;
}

bool NvmlLibrary::has(Symbol symbol) const { return !resolved_name(symbol).empty(); }

std::string_view NvmlLibrary::resolved_name(Symbol symbol) const {
  const auto i = static_cast<size_t>(symbol);
  return i < resolved_.size() ? resolved_[i] : std::string_view();
}

std::string NvmlLibrary::missing_reason(Symbol symbol) const {
  const auto& info = symbol_table()[static_cast<size_t>(symbol)];
  return fmt::format("NVML symbol {} not exported by {} (driver too old?)", candidates(info), name());
}

std::string NvmlLibrary::describe(nvmlReturn_t code) const {
  std::string out = return_code_name(code);
  if (api_.error_string != nullptr) {
    const char* words = api_.error_string(code);
    if (words != nullptr && *words != '\0') out += fmt::format(" ({})", words);
  }
  return out;
}

}  // namespace gpuvet::nvml
