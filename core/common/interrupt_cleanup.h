// SPDX-License-Identifier: GPL-3.0-or-later
// Temporary files are removed when the program is stopped by SIGINT, SIGTERM or SIGHUP: a
// prepare-data run interrupted at 84 MB, or a checkpoint half written, left its temporary beside
// the output for good. FileWriter registers each temporary while it exists; the handler that
// main() installs unlinks every registered one (unlink is async-signal-safe) and then ends the
// process with the same signal, so the parent still sees "killed by SIGTERM".
// SIGKILL cannot be caught: the next run names what such a run left (stale_temporaries.h).
#pragma once

#include <atomic>
#include <csignal>
#include <string>

namespace lse {

// Installs the handler for SIGINT, SIGTERM and SIGHUP. Call once, early in main(), before threads.
void installInterruptCleanup();

// Registers a temporary to remove on interruption; returns a slot to unregister, or -1 when every
// slot is taken (the file is then only removed by its owner).
int registerTemporaryForCleanup(const std::string &path);
void unregisterTemporaryForCleanup(int slot);

// Holds SIGINT, SIGTERM and SIGHUP back in this thread for its lifetime (a signal that arrives is
// delivered when it ends). FileWriter creates and registers a temporary under it: a signal between
// mkostemp() and the registration would otherwise leave the new temporary behind.
class TerminatingSignalsHeld {
public:
    TerminatingSignalsHeld();
    TerminatingSignalsHeld(const TerminatingSignalsHeld &) = delete;
    TerminatingSignalsHeld &operator=(const TerminatingSignalsHeld &) = delete;
    ~TerminatingSignalsHeld();

private:
    sigset_t before_;
};

// A scope in which the first SIGINT/SIGTERM only asks the work to stop (requested() turns true)
// so that it can end cleanly and say so; a second one goes to the cleanup handler and ends the
// process at once (the pre-tokenizer of train-bpe, say, cannot be cancelled midway).
class InterruptRequest {
public:
    InterruptRequest();
    InterruptRequest(const InterruptRequest &) = delete;
    InterruptRequest &operator=(const InterruptRequest &) = delete;
    ~InterruptRequest();

    static bool requested();
    // The same as a flag for work that polls one (BpeTrainOptions::cancel).
    static const std::atomic<bool> *flag();
};

}  // namespace lse
