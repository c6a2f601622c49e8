// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// How long a GUI test waits for work a page runs in the background (training steps, timings,
// tokenizer training). A guard against a hang, not a speed target: under AddressSanitizer on a
// loaded 2-core machine three steps of the tiny reference model took over 60 s. It stays below
// CTest's 300 s per test, so a real hang still fails with a message naming the wait.
constexpr int kBackgroundWorkTimeoutMs = 240000;
