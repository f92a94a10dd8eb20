// A shared library opened at run time (dlopen). Vendor backends load their library through
// this, so a machine without the library still runs every other feature.
#pragma once

#include <memory>
#include <string>

#include "core/error.hpp"

namespace gpuvet::platform {

class DynamicLibrary {
 public:
  // Opens `name` (a soname searched the usual way, or a path). Error kind: environment.
  static core::Result<std::shared_ptr<DynamicLibrary>> open(const std::string& name);
  ~DynamicLibrary();
  DynamicLibrary(const DynamicLibrary&) = delete;
  DynamicLibrary& operator=(const DynamicLibrary&) = delete;

  // Address of a symbol, or nullptr when the library does not export it.
  [[nodiscard]] void* symbol(const std::string& name) const;
  [[nodiscard]] const std::string& name() const { return name_; }

 private:
  DynamicLibrary(void* handle, std::string name) : handle_(handle), name_(std::move(name)) {}
  void* handle_;
  std::string name_;
};

}  // namespace gpuvet::platform
