// SPDX-License-Identifier: GPL-3.0-or-later
#include "scaling/chinchilla_table3.h"

#include <array>
#include <cmath>

namespace lse::scaling {

namespace {

// Hoffmann et al. 2022, Table 3, columns Parameters / FLOPs / Tokens.
constexpr std::array<Table3Row, 9> kRows{{
    {"400 Million", 400e6, 1.92e19, 8.0e9},
    {"1 Billion", 1e9, 1.21e20, 20.2e9},
    {"10 Billion", 10e9, 1.23e22, 205.1e9},
    {"67 Billion", 67e9, 5.76e23, 1.5e12},
    {"175 Billion", 175e9, 3.85e24, 3.7e12},
    {"280 Billion", 280e9, 9.90e24, 5.9e12},
    {"520 Billion", 520e9, 3.43e25, 11.0e12},
    {"1 Trillion", 1e12, 1.27e26, 21.2e12},
    {"10 Trillion", 10e12, 1.30e28, 216.2e12},
}};

}  // namespace

std::span<const Table3Row> chinchillaTable3() { return kRows; }

std::optional<Table3Row> table3RowForFlops(double flops, double relative_tolerance)
{
    for (const Table3Row &row : kRows)
        if (std::abs(flops - row.flops) <= relative_tolerance * row.flops)
            return row;
    return std::nullopt;
}

}  // namespace lse::scaling
