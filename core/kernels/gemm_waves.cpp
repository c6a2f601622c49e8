// SPDX-License-Identifier: GPL-3.0-or-later
#include "kernels/gemm_waves.h"

#include "ops/byte_rules.h"

#include <string>

namespace lse::kernels {

namespace {

void checkDimension(Problems &problems, const char *field, std::int64_t value)
{
    if (value < 1 || value > kMaxGemmDimension)
        problems.push_back(Problem{field, "range",
                                   std::string(field) + " is " + std::to_string(value) + "; it must be from 1 to "
                                       + std::to_string(kMaxGemmDimension)});
}

Problems validate(const GemmProblem &problem, const Accelerator &accelerator)
{
    Problems problems;
    checkDimension(problems, "m", problem.m);
    checkDimension(problems, "n", problem.n);
    checkDimension(problems, "k", problem.k);
    if (accelerator.dense_peak.forDType(problem.dtype) <= 0)
        problems.push_back(Problem{"dtype", "supported",
                                   accelerator.id + " has no dense " + std::string(toString(problem.dtype)) + " peak"});
    if (accelerator.sm_count <= 0)
        problems.push_back(Problem{"accelerator", "sm_count", accelerator.id + " has no SM count: no waves to draw"});
    return problems;
}

}  // namespace

Result<GemmWaves> gemmWaves(const GemmProblem &problem, const Accelerator &accelerator)
{
    if (Problems problems = validate(problem, accelerator); !problems.empty())
        return problems;
    const double peak = accelerator.dense_peak.forDType(problem.dtype);
    const performance::KernelMachine machine = performance::kernelMachine(accelerator, peak, problem.dtype);
    performance::GemmShape shape;
    shape.m = double(problem.m);
    shape.n = double(problem.n);
    shape.k = double(problem.k);
    const performance::GemmTiling tiling = performance::gemmTiling(shape, machine);

    GemmWaves out;
    out.problem = problem;
    out.tile_rows = std::int64_t(tiling.tile_rows);
    out.tile_columns = std::int64_t(tiling.tile_columns);
    out.row_tiles = std::int64_t(tiling.row_tiles);
    out.column_tiles = std::int64_t(tiling.column_tiles);
    out.tiles = std::int64_t(tiling.tiles);
    out.sm_count = machine.sm_count;
    out.waves = std::int64_t(tiling.waves);
    out.full_waves = out.tiles / out.sm_count;
    out.last_wave_tiles = out.tiles - (out.waves - 1) * out.sm_count;
    out.efficiency = performance::gemmEfficiency(shape, machine);
    const double element_bytes = bytesPerElement(problem.dtype);
    out.bytes = byte_rules::matmulForward(1, shape.m, shape.n, shape.k, element_bytes, element_bytes, true).total();
    out.time = performance::gemmTime(shape, out.bytes, machine);
    out.flops = shape.flops();
    out.peak_flops_per_second = peak;
    out.achieved_flops_per_second = out.time.seconds > 0 ? out.flops / out.time.seconds : 0;
    return out;
}

Result<std::vector<GemmSweepPoint>> gemmWaveSweep(const GemmProblem &problem, std::int64_t n_first, std::int64_t n_last,
                                                  std::int64_t n_step, const Accelerator &accelerator)
{
    Problems problems;
    checkDimension(problems, "n_first", n_first);
    checkDimension(problems, "n_last", n_last);
    if (n_step < 1)
        problems.push_back(Problem{"n_step", "range", "n_step is " + std::to_string(n_step) + "; it must be at least 1"});
    else if (n_last >= n_first && (n_last - n_first) / n_step + 1 > kMaxGemmSweepPoints)
        problems.push_back(Problem{"n_step", "points",
                                   "n_step: the sweep would have " + std::to_string((n_last - n_first) / n_step + 1)
                                       + " points, more than " + std::to_string(kMaxGemmSweepPoints)});
    if (problems.empty() && n_last < n_first)
        problems.push_back(Problem{"n_last", "order", "n_last must not be below n_first", {"n_first"}});
    if (!problems.empty())
        return problems;
    std::vector<GemmSweepPoint> points;
    for (std::int64_t n = n_first; n <= n_last; n += n_step) {
        GemmProblem at = problem;
        at.n = n;
        const Result<GemmWaves> waves = gemmWaves(at, accelerator);
        if (!waves)
            return waves.problems();
        points.push_back(GemmSweepPoint{n, waves->achieved_flops_per_second, waves->efficiency.tile_quantisation,
                                        waves->efficiency.wave_quantisation, waves->waves});
    }
    return points;
}

}  // namespace lse::kernels
