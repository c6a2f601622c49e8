// SPDX-License-Identifier: GPL-3.0-or-later
#include "architecture/positional_encodings.h"

#include <cmath>

namespace lse {

namespace {

constexpr double kSinusoidalBase = 10000.0;  // Vaswani et al. 2017, §3.5

// 2^(−8h/n) for h = 1..n.
std::vector<double> powerOfTwoSlopes(int n)
{
    std::vector<double> slopes;
    for (int h = 1; h <= n; ++h)
        slopes.push_back(std::pow(2.0, -8.0 * h / n));
    return slopes;
}

}  // namespace

double sinusoidalEncoding(int position, int dimension, int d_model)
{
    const int pair = dimension / 2;
    const double angle = double(position) / std::pow(kSinusoidalBase, 2.0 * pair / double(d_model));
    return dimension % 2 == 0 ? std::sin(angle) : std::cos(angle);
}

std::vector<std::vector<double>> sinusoidalTable(int positions, int d_model)
{
    std::vector<std::vector<double>> table;
    for (int pos = 0; pos < positions; ++pos) {
        std::vector<double> row;
        for (int i = 0; i < d_model; ++i)
            row.push_back(sinusoidalEncoding(pos, i, d_model));
        table.push_back(std::move(row));
    }
    return table;
}

std::vector<double> ropeFrequencies(int head_dim, double base)
{
    std::vector<double> theta;
    for (int i = 0; i < head_dim / 2; ++i)
        theta.push_back(std::pow(base, -2.0 * i / double(head_dim)));
    return theta;
}

double ropeAngle(int position, int pair, int head_dim, double base)
{
    return double(position) * std::pow(base, -2.0 * pair / double(head_dim));
}

std::vector<double> alibiSlopes(int heads)
{
    if (heads <= 0)
        return {};
    int n = 1;
    while (n * 2 <= heads)
        n *= 2;
    std::vector<double> slopes = powerOfTwoSlopes(n);
    // Press et al. 2022, App.: the remaining heads take every other slope of 2n.
    const std::vector<double> finer = powerOfTwoSlopes(2 * n);
    for (int i = 0; int(slopes.size()) < heads; i += 2)
        slopes.push_back(finer[std::size_t(i)]);
    return slopes;
}

double alibiBias(double slope, int query, int key) { return -slope * double(query - key); }

}  // namespace lse
