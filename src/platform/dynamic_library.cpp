// dlopen/dlsym wrapper.
#include "platform/dynamic_library.hpp"

#include <dlfcn.h>

namespace gpuvet::platform {

core::Result<std::shared_ptr<DynamicLibrary>> DynamicLibrary::open(const std::string& name) {
  dlerror();
  void* handle = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    const char* why = dlerror();
    return core::environment_error("cannot load " + name + ": " + (why ? why : "unknown dlopen error"));
  }
  return std::shared_ptr<DynamicLibrary>(new DynamicLibrary(handle, name));
}

DynamicLibrary::~DynamicLibrary() {
  if (handle_ != nullptr) dlclose(handle_);
}

void* DynamicLibrary::symbol(const std::string& name) const {
  dlerror();
  return dlsym(handle_, name.c_str());
}

}  // namespace gpuvet::platform
