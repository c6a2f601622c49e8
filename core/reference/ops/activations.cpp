// SPDX-License-Identifier: GPL-3.0-or-later
#include "reference/ops/activations.h"
#include "reference/ops/parallel_thresholds.h"

#include <cmath>

namespace lse::reference {

namespace {

template <typename S>
S sigmoid(S x)
{
    return S(1) / (S(1) + std::exp(-x));
}

// Φ(x) and φ(x), the standard normal CDF and density: GeLU(x) = xΦ(x), GeLU'(x) = Φ(x) + xφ(x).
template <typename S>
S normalCdf(S x)
{
    return S(0.5) * (S(1) + std::erf(x * S(0.70710678118654752440)));
}
template <typename S>
S normalPdf(S x)
{
    return S(0.39894228040143267794) * std::exp(S(-0.5) * x * x);
}

template <typename S>
S activate(Activation kind, S x)
{
    switch (kind) {
    case Activation::ReLU: return x > S(0) ? x : S(0);
    case Activation::GeLU: return x * normalCdf(x);
    default: return x * sigmoid(x);  // SiLU, and the gate half of SwiGLU
    }
}

template <typename S>
S derivative(Activation kind, S x)
{
    switch (kind) {
    case Activation::ReLU: return x > S(0) ? S(1) : S(0);
    case Activation::GeLU: return normalCdf(x) + x * normalPdf(x);
    default: {
        const S s = sigmoid(x);
        return s * (S(1) + x * (S(1) - s));  // d/dx x·σ(x)
    }
    }
}

}  // namespace

template <typename S>
void activationForward(Activation kind, const S *up, S *out, Index n, Index f)
{
    const Index width = upWidth(kind, f);
    const bool gated = kind == Activation::SwiGLU;
#pragma omp parallel for schedule(static) if (n >= 2 && n * f >= parallelMinElements(ParallelKernel::Activation))
    for (Index i = 0; i < n; ++i) {
        const S *u = up + i * width;  // (F) or (2F): [W1x | W3x]
        S *o = out + i * f;           // (F)
        const ConstArrayView<S> a(u, f);  // (F) pre-activation (the W1x half when gated)
        ArrayView<S> out_row(o, f);
        if (gated)
            out_row = a / (S(1) + (-a).exp()) * ConstArrayView<S>(u + f, f);
        else if (kind == Activation::SiLU)
            out_row = a / (S(1) + (-a).exp());
        else
            for (Index j = 0; j < f; ++j)  // ReLU; GeLU (erf has no Eigen Core vector form)
                o[j] = activate(kind, u[j]);
    }
}

template <typename S>
void activationBackward(Activation kind, const S *up, const S *dout, S *dup, Index n, Index f)
{
    const Index width = upWidth(kind, f);
    const bool gated = kind == Activation::SwiGLU;
#pragma omp parallel for schedule(static) if (n >= 2 && n * f >= parallelMinElements(ParallelKernel::Activation))
    for (Index i = 0; i < n; ++i) {
        const S *u = up + i * width;
        const S *g = dout + i * f;  // (F)
        S *d = dup + i * width;
        const ConstArrayView<S> a(u, f), dy(g, f);
        if (gated) {
            // o = SiLU(a) ⊙ b: ∂o/∂a = σ(a)(1 + a(1 − σ(a)))·b, ∂o/∂b = a·σ(a). σ(a) is parked in
            // the ∂b half first so the exponential is computed once.
            ArrayView<S> da(d, f), db(d + f, f);
            db = S(1) / (S(1) + (-a).exp());
            da = dy * db * (S(1) + a * (S(1) - db)) * ConstArrayView<S>(u + f, f);
            db = dy * a * db;
        } else if (kind == Activation::SiLU) {
            ArrayView<S> da(d, f);
            da = S(1) / (S(1) + (-a).exp());
            da = dy * da * (S(1) + a * (S(1) - da));
        } else {
            for (Index j = 0; j < f; ++j)
                d[j] = g[j] * derivative(kind, u[j]);
        }
    }
}

template void activationForward<float>(Activation, const float *, float *, Index, Index);
template void activationForward<double>(Activation, const double *, double *, Index, Index);
template void activationBackward<float>(Activation, const float *, const float *, float *, Index, Index);
template void activationBackward<double>(Activation, const double *, const double *, double *, Index, Index);

}  // namespace lse::reference
