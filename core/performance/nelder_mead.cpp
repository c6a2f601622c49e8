// SPDX-License-Identifier: GPL-3.0-or-later
#include "performance/nelder_mead.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace lse::performance {

namespace {

using Point = std::vector<double>;

Point clampedToUnitBox(Point point)
{
    for (double &x : point)
        x = std::isfinite(x) ? std::clamp(x, 0.0, 1.0) : 0.5;
    return point;
}

// a + t·(b − a), projected onto the box.
Point along(const Point &a, const Point &b, double t)
{
    Point result(a.size());
    for (std::size_t i = 0; i < a.size(); ++i)
        result[i] = a[i] + t * (b[i] - a[i]);
    return clampedToUnitBox(std::move(result));
}

struct Vertex {
    Point point;
    double value = 0;
};

class BudgetedFunction {
public:
    BudgetedFunction(const std::function<double(const Point &)> &function, int max_evaluations)
        : function_(function), max_evaluations_(std::max(1, max_evaluations))
    {
    }
    bool exhausted() const { return evaluations_ >= max_evaluations_; }
    int evaluations() const { return evaluations_; }
    Vertex vertex(Point point)
    {
        ++evaluations_;
        const double value = function_(point);
        // NaN would break the ordering; a failed evaluation is the worst possible one.
        return {std::move(point), std::isnan(value) ? std::numeric_limits<double>::infinity() : value};
    }

private:
    const std::function<double(const Point &)> &function_;
    int max_evaluations_;
    int evaluations_ = 0;
};

// Steps away from `start` along each axis, inward where the box ends.
std::vector<Vertex> initialSimplex(const Vertex &start, double step, BudgetedFunction &function)
{
    std::vector<Vertex> simplex{start};
    for (std::size_t axis = 0; axis < start.point.size() && !function.exhausted(); ++axis) {
        Point point = start.point;
        point[axis] += point[axis] + step <= 1.0 ? step : -step;
        simplex.push_back(function.vertex(clampedToUnitBox(std::move(point))));
    }
    return simplex;
}

bool collapsed(const std::vector<Vertex> &simplex, double tolerance)
{
    const Vertex &best = simplex.front();
    for (const Vertex &vertex : simplex) {
        if (std::abs(vertex.value - best.value) > tolerance)
            return false;
        for (std::size_t i = 0; i < best.point.size(); ++i)
            if (std::abs(vertex.point[i] - best.point[i]) > tolerance)
                return false;
    }
    return true;
}

// One run of Nelder–Mead until the simplex collapses or the budget ends; returns the best vertex.
Vertex runSimplex(const Vertex &start, double step, double tolerance, BudgetedFunction &function)
{
    std::vector<Vertex> simplex = initialSimplex(start, step, function);
    const std::size_t n = start.point.size();
    const auto byValue = [](const Vertex &a, const Vertex &b) { return a.value < b.value; };
    while (true) {
        std::stable_sort(simplex.begin(), simplex.end(), byValue);
        if (simplex.size() < n + 1 || function.exhausted() || collapsed(simplex, tolerance))
            break;
        Point centroid(n, 0.0);
        for (std::size_t v = 0; v < n; ++v)
            for (std::size_t i = 0; i < n; ++i)
                centroid[i] += simplex[v].point[i] / double(n);
        Vertex &worst = simplex.back();
        const Vertex reflected = function.vertex(along(centroid, worst.point, -1.0));
        if (reflected.value < simplex.front().value) {
            if (function.exhausted()) {
                worst = reflected;
                continue;
            }
            const Vertex expanded = function.vertex(along(centroid, worst.point, -2.0));
            worst = expanded.value < reflected.value ? expanded : reflected;
            continue;
        }
        if (reflected.value < simplex[n - 1].value) {
            worst = reflected;
            continue;
        }
        if (function.exhausted())
            break;
        // Contract towards the better of the worst and its reflection (outside or inside).
        const bool outside = reflected.value < worst.value;
        const Vertex contracted = function.vertex(along(centroid, worst.point, outside ? -0.5 : 0.5));
        if (contracted.value < std::min(reflected.value, worst.value)) {
            worst = contracted;
            continue;
        }
        for (std::size_t v = 1; v < simplex.size() && !function.exhausted(); ++v)
            simplex[v] = function.vertex(along(simplex.front().point, simplex[v].point, 0.5));
    }
    return *std::min_element(simplex.begin(), simplex.end(), byValue);
}

}  // namespace

NelderMeadResult minimiseInUnitBox(const std::function<double(const Point &)> &function, Point start,
                                   const NelderMeadOptions &options)
{
    BudgetedFunction budgeted(function, options.max_evaluations);
    Vertex best = budgeted.vertex(clampedToUnitBox(std::move(start)));
    double step = options.initial_step;
    while (!best.point.empty() && !budgeted.exhausted()) {
        const Vertex candidate = runSimplex(best, step, options.tolerance, budgeted);
        const bool improved = candidate.value < best.value - options.tolerance;
        if (candidate.value < best.value)
            best = candidate;
        if (!improved)
            break;
        step = std::max(step / 4, 1e3 * options.tolerance);
    }
    return {best.point, best.value, budgeted.evaluations()};
}

}  // namespace lse::performance
