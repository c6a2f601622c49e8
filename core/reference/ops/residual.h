// SPDX-License-Identifier: GPL-3.0-or-later
// Residual connections (He et al. 2016): out = a + b over n elements, and y += x. Their backward
// pass copies (or adds) the incoming gradient to both branches, done by the caller with addInto.
#pragma once

#include "reference/ops/eigen_maps.h"

namespace lse::reference {

// out (n) = a + b; out may alias a or b.
template <typename S>
void residualAdd(const S *a, const S *b, S *out, Index n);
// y (n) += x.
template <typename S>
void addInto(S *y, const S *x, Index n);

}  // namespace lse::reference
