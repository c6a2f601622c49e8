// SPDX-License-Identifier: GPL-3.0-or-later
// MFU and "% of peak" are achieved FLOP/s over the measured peak (PaLM, Chowdhery et al. 2022,
// App. B). No run beats the hardware, so a ratio above 1 says the peak was measured too low (for
// example while other processes held cores): it must be shown as "exceeds the measured peak —
// re-measure", never as a result.
#pragma once

namespace lse::reference {

inline bool exceedsMeasuredPeak(double achieved_over_peak) { return achieved_over_peak > 1.0; }

}  // namespace lse::reference
