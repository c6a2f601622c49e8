// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/interrupt_cleanup.h"

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>

#include <pthread.h>
#include <unistd.h>

namespace lse {

namespace {

// Fixed storage, so the handler touches no allocator: a slot is free (0), being filled (1) or
// holds a path to remove (2).
constexpr int kSlots = 128;
constexpr std::size_t kPathBytes = 4096;

struct Slot {
    std::atomic<int> state{0};
    char path[kPathBytes];
};

Slot g_slots[kSlots];
static_assert(std::atomic<int>::is_always_lock_free, "read from a signal handler");

constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP};

void removeRegisteredTemporaries()
{
    for (Slot &slot : g_slots)
        if (slot.state.load() == 2)
            ::unlink(slot.path);
}

extern "C" void onTerminatingSignal(int signal)
{
    const int saved_errno = errno;
    removeRegisteredTemporaries();
    // End the way the signal would have: the default action, raised again once this returns.
    struct sigaction fallback {};
    fallback.sa_handler = SIG_DFL;
    sigemptyset(&fallback.sa_mask);
    ::sigaction(signal, &fallback, nullptr);
    ::raise(signal);
    errno = saved_errno;
}

std::atomic<bool> g_requested{false};
std::atomic<int> g_request_scopes{0};
struct sigaction g_before_request[3] {};

extern "C" void onFirstInterrupt(int signal)
{
    g_requested.store(true);
    // The next signal goes to the cleanup handler (or whatever was there before the scope).
    for (int i = 0; i < 3; ++i)
        ::sigaction(kSignals[i], &g_before_request[i], nullptr);
    (void)signal;
}

}  // namespace

void installInterruptCleanup()
{
    struct sigaction action {};
    action.sa_handler = onTerminatingSignal;
    sigemptyset(&action.sa_mask);
    for (const int signal : kSignals) {
        struct sigaction old {};
        ::sigaction(signal, nullptr, &old);
        // A signal ignored by whoever started us (nohup's SIGHUP) stays ignored.
        if (old.sa_handler == SIG_IGN)
            continue;
        ::sigaction(signal, &action, nullptr);
    }
}

int registerTemporaryForCleanup(const std::string &path)
{
    if (path.size() >= kPathBytes)
        return -1;
    for (int i = 0; i < kSlots; ++i) {
        int expected = 0;
        if (!g_slots[i].state.compare_exchange_strong(expected, 1))
            continue;
        std::memcpy(g_slots[i].path, path.c_str(), path.size() + 1);
        g_slots[i].state.store(2);
        return i;
    }
    return -1;
}

void unregisterTemporaryForCleanup(int slot)
{
    if (slot >= 0 && slot < kSlots)
        g_slots[slot].state.store(0);
}

TerminatingSignalsHeld::TerminatingSignalsHeld()
{
    sigset_t held;
    sigemptyset(&held);
    for (const int signal : kSignals)
        sigaddset(&held, signal);
    ::pthread_sigmask(SIG_BLOCK, &held, &before_);
}

TerminatingSignalsHeld::~TerminatingSignalsHeld() { ::pthread_sigmask(SIG_SETMASK, &before_, nullptr); }

InterruptRequest::InterruptRequest()
{
    if (g_request_scopes.fetch_add(1) != 0)
        return;  // an outer scope already listens
    g_requested.store(false);
    struct sigaction action {};
    action.sa_handler = onFirstInterrupt;
    sigemptyset(&action.sa_mask);
    for (int i = 0; i < 3; ++i) {
        ::sigaction(kSignals[i], nullptr, &g_before_request[i]);
        if (g_before_request[i].sa_handler != SIG_IGN)  // nohup's SIGHUP stays ignored
            ::sigaction(kSignals[i], &action, nullptr);
    }
}

InterruptRequest::~InterruptRequest()
{
    if (g_request_scopes.fetch_sub(1) != 1)
        return;
    if (!g_requested.load())
        for (int i = 0; i < 3; ++i)
            ::sigaction(kSignals[i], &g_before_request[i], nullptr);
}

bool InterruptRequest::requested() { return g_requested.load(); }

const std::atomic<bool> *InterruptRequest::flag() { return &g_requested; }

}  // namespace lse
