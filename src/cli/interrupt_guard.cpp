// InterruptGuard: SIGINT/SIGTERM -> a flag the burn-in loop polls.
#include "cli/interrupt_guard.hpp"

#include <csignal>

namespace gpuvet::cli {
namespace {

std::atomic<bool> g_interrupted{false};
extern "C" void on_interrupt(int) { g_interrupted.store(true); }

}  // namespace

InterruptGuard::InterruptGuard() {
  g_interrupted.store(false);
  previous_int_ = std::signal(SIGINT, on_interrupt);
  previous_term_ = std::signal(SIGTERM, on_interrupt);
}

InterruptGuard::~InterruptGuard() {
  std::signal(SIGINT, previous_int_);
  std::signal(SIGTERM, previous_term_);
}

const std::atomic<bool>* InterruptGuard::flag() { return &g_interrupted; }

}  // namespace gpuvet::cli
