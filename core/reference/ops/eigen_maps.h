// SPDX-License-Identifier: GPL-3.0-or-later
// Views of raw row-major buffers as Eigen matrices, shared by every reference kernel. The model
// keeps its tensors in flat arenas (so checkpoints and the optimizer can walk them); the kernels
// see them through these maps, which cost nothing and let Eigen pick its blocked GEMM.
#pragma once

// GCC 12 reports -Wmaybe-uninitialized inside its own AVX-512 intrinsics (the deliberately
// undefined upper lanes of _mm256_undefined_pd) when Eigen's packet code is inlined into a
// kernel (GCC bug 105593, fixed in GCC 13); the report lands wherever the kernel is compiled, so it is silenced for the whole
// translation unit of every file that includes these maps (no pop). Other warnings stay on.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#endif

#include "reference/ops/parallel_thresholds.h"

#include <Eigen/Core>

#include <type_traits>

namespace lse::reference {

using Index = Eigen::Index;

static_assert(std::is_same_v<Index, std::ptrdiff_t>, "parallel_thresholds.h counts elements in std::ptrdiff_t");
// Column-block width for reductions over rows (norm gains, embedding scatter): 64 floats is one
// contiguous 256-byte run per row, and d_model / 64 blocks are enough to share among threads.
inline constexpr Index kColumnBlock = 64;

template <typename S>
using RowMatrix = Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// A (rows, cols) block whose consecutive rows are `stride` elements apart (stride >= cols), e.g.
// one head's slice of a fused Q|K|V row.
template <typename S>
using MatrixView = Eigen::Map<RowMatrix<S>, Eigen::Unaligned, Eigen::OuterStride<>>;
template <typename S>
using ConstMatrixView = Eigen::Map<const RowMatrix<S>, Eigen::Unaligned, Eigen::OuterStride<>>;

// A contiguous run of n values as an Eigen array, for vectorised element-wise math (Eigen's exp is
// a SIMD polynomial; std::exp in a loop is scalar).
template <typename S>
using ArrayView = Eigen::Map<Eigen::Array<S, Eigen::Dynamic, 1>>;
template <typename S>
using ConstArrayView = Eigen::Map<const Eigen::Array<S, Eigen::Dynamic, 1>>;

template <typename S>
MatrixView<S> viewOf(S *data, Index rows, Index cols, Index stride)
{
    return MatrixView<S>(data, rows, cols, Eigen::OuterStride<>(stride));
}
template <typename S>
ConstMatrixView<S> viewOf(const S *data, Index rows, Index cols, Index stride)
{
    return ConstMatrixView<S>(data, rows, cols, Eigen::OuterStride<>(stride));
}
template <typename S>
MatrixView<S> viewOf(S *data, Index rows, Index cols)
{
    return viewOf(data, rows, cols, cols);
}
template <typename S>
ConstMatrixView<S> viewOf(const S *data, Index rows, Index cols)
{
    return viewOf(data, rows, cols, cols);
}

}  // namespace lse::reference
