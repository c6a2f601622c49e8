// SPDX-License-Identifier: GPL-3.0-or-later
// A small derivative-free minimiser for the calibration: Nelder–Mead on the unit box [0, 1]^n.
//
// Nelder & Mead 1965, "A simplex method for function minimization", with the standard coefficients
// (reflection 1, expansion 2, contraction 1/2, shrink 1/2; Lagarias et al. 1998 §2). Points that
// leave the box are projected back onto it before the function is called, so the function only
// sees valid coordinates. When the simplex has collapsed it restarts from the best point with a
// smaller simplex (a collapsed simplex can stall away from the minimum; Lagarias et al. §5), as
// long as evaluations remain and the restart still improves. No randomness: the same function and
// start give the same result.
#pragma once

#include <functional>
#include <vector>

namespace lse::performance {

struct NelderMeadOptions {
    double initial_step = 0.25;  // edge of the first simplex, in unit-box coordinates
    int max_evaluations = 400;
    // A simplex whose values and coordinates spread less has collapsed: restart (edge / 4, at least
    // 1000 × tolerance) or stop. On the calibration's valleys (GEMM peak fraction against fixed-cost
    // depth) restarting at 1e-5 reached the generating factors in under 400 evaluations where 1e-9
    // (no restarts in the budget) stalled at 0.2% error (tests/core/test_calibration.cpp).
    double tolerance = 1e-5;
};

struct NelderMeadResult {
    std::vector<double> point;  // in [0, 1]^n
    double value = 0;
    int evaluations = 0;
};

// `start` is projected onto the box first. An empty start evaluates the function once.
NelderMeadResult minimiseInUnitBox(const std::function<double(const std::vector<double> &)> &function,
                                   std::vector<double> start, const NelderMeadOptions &options = {});

}  // namespace lse::performance
