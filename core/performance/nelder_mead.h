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
    double initial_step = 0.15;  // edge of the first simplex, in unit-box coordinates
    int max_evaluations = 400;
    double tolerance = 1e-9;     // stop when the simplex's values and coordinates spread less
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
