// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Table 3 of Hoffmann et al. 2022: the compute-optimal training FLOPs and tokens of approach 1
// for model sizes from 400M to 10T parameters, as printed (tokens rounded to the paper's digits).

#include <optional>
#include <span>
#include <string_view>

namespace lse::scaling {

struct Table3Row {
    std::string_view label;  // the paper's "Parameters" column: "67 Billion"
    double params = 0;
    double flops = 0;   // "FLOPs" column
    double tokens = 0;  // "Tokens" column
};

inline constexpr std::string_view kTable3Source =
    "Hoffmann et al. 2022, \"Training Compute-Optimal Large Language Models\", Table 3 (approach 1)";

// The Gopher budget (280B parameters on 300B tokens): the row Chinchilla was trained for.
inline constexpr double kGopherFlops = 5.76e23;

std::span<const Table3Row> chinchillaTable3();

// The row whose FLOPs equal `flops` within `relative_tolerance` (default: the table's three
// significant digits), if any.
std::optional<Table3Row> table3RowForFlops(double flops, double relative_tolerance = 5e-3);

}  // namespace lse::scaling
