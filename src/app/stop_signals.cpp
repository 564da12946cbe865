#include "eis/app/stop_signals.hpp"

#include <pthread.h>

#include <csignal>

namespace eis {

namespace {

volatile std::sig_atomic_t received = 0;

// The first signal is recorded; a second restores the default action and raises itself.
extern "C" void onStopSignal(int signal) {
  if (received != 0) {
    std::signal(signal, SIG_DFL);
    std::raise(signal);
    return;
  }
  received = signal;
}

constexpr int kSignals[] = {SIGTERM, SIGUSR1, SIGINT};

sigset_t stopSignalSet() {
  sigset_t set;
  sigemptyset(&set);
  for (int signal : kSignals) sigaddset(&set, signal);
  return set;
}

}  // namespace

void holdStopSignals() {
  const sigset_t set = stopSignalSet();
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
}

void installStopSignals() {
  for (int signal : kSignals) {
    struct sigaction action {};
    action.sa_handler = onStopSignal;
    // One handler at a time: a second signal always finds the first one recorded.
    sigemptyset(&action.sa_mask);
    for (int other : kSignals) sigaddset(&action.sa_mask, other);
    action.sa_flags = SA_RESTART;
    sigaction(signal, &action, nullptr);
  }
  const sigset_t set = stopSignalSet();
  pthread_sigmask(SIG_UNBLOCK, &set, nullptr);
}

int stopSignal() {
  return received;
}

const char* stopSignalName(int signal) {
  switch (signal) {
    case SIGTERM: return "SIGTERM";
    case SIGUSR1: return "SIGUSR1";
    case SIGINT: return "SIGINT";
    default: return "a signal";
  }
}

}  // namespace eis
