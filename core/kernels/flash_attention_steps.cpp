// SPDX-License-Identifier: GPL-3.0-or-later
#include "kernels/flash_attention_steps.h"

#include "ops/flop_rules.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <random>
#include <string>

namespace lse::kernels {

std::string_view toString(AttentionAlgorithm algorithm)
{
    switch (algorithm) {
    case AttentionAlgorithm::Standard: return "standard";
    case AttentionAlgorithm::Flash: return "flash";
    case AttentionAlgorithm::Flash2: return "flash2";
    }
    return "flash";
}

std::string_view toString(AttentionStepKind kind)
{
    switch (kind) {
    case AttentionStepKind::ComputeScores: return "compute_scores";
    case AttentionStepKind::ComputeSoftmax: return "compute_softmax";
    case AttentionStepKind::ComputeOutput: return "compute_output";
    case AttentionStepKind::Initialise: return "initialise";
    case AttentionStepKind::LoadKeyValueBlock: return "load_key_value_block";
    case AttentionStepKind::ComputeBlock: return "compute_block";
    case AttentionStepKind::SkipBlock: return "skip_block";
    case AttentionStepKind::LoadQueryBlock: return "load_query_block";
    case AttentionStepKind::WriteOutputBlock: return "write_output_block";
    }
    return "compute_block";
}

namespace {

constexpr double kMinusInfinity = -std::numeric_limits<double>::infinity();

using Matrix = std::vector<double>;  // row-major N×d

// A small random example: Q (already scaled by τ = 1/√d), K, V with entries uniform in [−1, 1)
// from a seeded Mersenne Twister (its raw output, so every platform draws the same numbers).
struct Example {
    std::int64_t n = 0, d = 0;
    bool causal = false;
    Matrix q, k, v;
    Matrix output;               // the tiled algorithm's O
    std::vector<double> m, l;    // running statistics per row
    double score(std::int64_t row, std::int64_t column) const
    {
        double sum = 0;
        for (std::int64_t x = 0; x < d; ++x)
            sum += q[std::size_t(row * d + x)] * k[std::size_t(column * d + x)];
        return sum;
    }
    bool masked(std::int64_t row, std::int64_t column) const { return causal && column > row; }
};

Example makeExample(const AttentionConfig &config, std::uint32_t seed)
{
    Example example;
    example.n = config.sequence_length;
    example.d = config.head_dim;
    example.causal = config.causal;
    std::mt19937 engine(seed);
    const auto draw = [&] { return double(engine()) / 2147483648.0 - 1.0; };
    const std::size_t size = std::size_t(example.n * example.d);
    const double tau = 1.0 / std::sqrt(double(example.d));
    for (Matrix *matrix : {&example.q, &example.k, &example.v}) {
        matrix->resize(size);
        for (double &value : *matrix)
            value = draw();
    }
    for (double &value : example.q)
        value *= tau;
    example.output.assign(size, 0.0);
    example.m.assign(std::size_t(example.n), kMinusInfinity);
    example.l.assign(std::size_t(example.n), 0.0);
    return example;
}

// softmax(QKᵀ)V row by row, the reference the tiled result must equal.
double maxAbsErrorAgainstDirect(const Example &example)
{
    double worst = 0;
    std::vector<double> p(std::size_t(example.n));
    for (std::int64_t row = 0; row < example.n; ++row) {
        double max = kMinusInfinity;
        for (std::int64_t column = 0; column < example.n; ++column)
            if (!example.masked(row, column))
                max = std::max(max, example.score(row, column));
        double sum = 0;
        for (std::int64_t column = 0; column < example.n; ++column) {
            p[std::size_t(column)] = example.masked(row, column) ? 0.0 : std::exp(example.score(row, column) - max);
            sum += p[std::size_t(column)];
        }
        for (std::int64_t x = 0; x < example.d; ++x) {
            double value = 0;
            for (std::int64_t column = 0; column < example.n; ++column)
                value += p[std::size_t(column)] * example.v[std::size_t(column * example.d + x)];
            worst = std::max(worst, std::abs(value / sum - example.output[std::size_t(row * example.d + x)]));
        }
    }
    return worst;
}

// One block's online-softmax update of rows [r0, r1) over keys [c0, c1). FlashAttention (Algorithm 1
// lines 9-12) keeps O normalised after every block; FlashAttention-2 (Dao 2023 Algorithm 1 lines
// 8-10) keeps it unnormalised and divides by ℓ once at the end.
void updateRows(Example &example, std::int64_t r0, std::int64_t r1, std::int64_t c0, std::int64_t c1, bool normalised,
                std::vector<RowStatistics> &out)
{
    const std::int64_t d = example.d;
    std::vector<double> s(static_cast<std::size_t>(c1 - c0));
    std::vector<double> pv(static_cast<std::size_t>(d));
    for (std::int64_t row = r0; row < r1; ++row) {
        RowStatistics stats;
        stats.row = row;
        stats.m_before = example.m[std::size_t(row)];
        stats.l_before = example.l[std::size_t(row)];
        double block_max = kMinusInfinity;
        for (std::int64_t column = c0; column < c1; ++column) {
            s[std::size_t(column - c0)] = example.masked(row, column) ? kMinusInfinity : example.score(row, column);
            block_max = std::max(block_max, s[std::size_t(column - c0)]);
        }
        if (block_max == kMinusInfinity) {  // every key of this row masked in a partly masked block
            stats.m_after = stats.m_before;
            stats.l_after = stats.l_before;
            out.push_back(stats);
            continue;
        }
        const double m_new = std::max(stats.m_before, block_max);
        // Exponentiate against the block's own max (Algorithm 1) or the new running max (FA-2).
        const double reference = normalised ? block_max : m_new;
        double block_sum = 0;
        std::fill(pv.begin(), pv.end(), 0.0);
        for (std::int64_t column = c0; column < c1; ++column) {
            const double p = std::exp(s[std::size_t(column - c0)] - reference);
            block_sum += p;
            for (std::int64_t x = 0; x < d; ++x)
                pv[std::size_t(x)] += p * example.v[std::size_t(column * d + x)];
        }
        const double old_scale = std::exp(stats.m_before - m_new);  // 0 when m_before = −∞
        const double block_scale = std::exp(reference - m_new);
        const double l_new = old_scale * stats.l_before + block_scale * block_sum;
        for (std::int64_t x = 0; x < d; ++x) {
            double &o = example.output[std::size_t(row * d + x)];
            o = normalised ? (stats.l_before * old_scale * o + block_scale * pv[std::size_t(x)]) / l_new
                           : old_scale * o + pv[std::size_t(x)];
        }
        example.m[std::size_t(row)] = stats.m_after = m_new;
        example.l[std::size_t(row)] = stats.l_after = l_new;
        out.push_back(stats);
    }
}

class StepRecorder {
public:
    StepRecorder(const AttentionConfig &config, AttentionSteps &result) : config_(config), result_(result) {}

    AttentionStep &add(AttentionStepKind kind, std::int64_t i, std::int64_t j, std::int64_t read_elements,
                       std::int64_t written_elements, std::int64_t flops)
    {
        AttentionStep step;
        step.kind = kind;
        step.row_block = i;
        step.column_block = j;
        step.step = IoCounts{read_elements * config_.element_bytes, written_elements * config_.element_bytes, flops};
        total_ += step.step;
        step.cumulative = total_;
        result_.steps.push_back(std::move(step));
        return result_.steps.back();
    }

private:
    const AttentionConfig &config_;
    AttentionSteps &result_;
    IoCounts total_;
};

void standardSteps(const AttentionConfig &config, AttentionSteps &result, Example *example)
{
    const std::int64_t n = config.sequence_length, d = config.head_dim;
    StepRecorder recorder(config, result);
    recorder.add(AttentionStepKind::ComputeScores, -1, -1, 2 * n * d, n * n, 2 * n * n * d);
    AttentionStep &softmax = recorder.add(AttentionStepKind::ComputeSoftmax, -1, -1, n * n, n * n,
                                          std::int64_t(flop_rules::kSoftmax) * n * n);
    recorder.add(AttentionStepKind::ComputeOutput, -1, -1, n * n + n * d, n * d, 2 * n * n * d);
    if (example) {
        // The standard softmax's statistics: each row's max and sum over all its keys at once.
        std::vector<RowStatistics> rows;
        updateRows(*example, 0, n, 0, n, true, rows);
        softmax.rows = std::move(rows);
    }
}

void flashSteps(const AttentionConfig &config, const AttentionBlocks &b, AttentionSteps &result, Example *example)
{
    const std::int64_t n = config.sequence_length, d = config.head_dim, e = config.element_bytes;
    StepRecorder recorder(config, result);
    recorder.add(AttentionStepKind::Initialise, -1, -1, 0, n * d + 2 * n, 0);
    for (std::int64_t j = 0; j < b.column_blocks; ++j) {
        const std::int64_t c0 = j * b.block_columns, c = std::min(b.block_columns, n - c0);
        AttentionStep &load = recorder.add(AttentionStepKind::LoadKeyValueBlock, -1, j, 2 * c * d, 0, 0);
        load.sram_key_value_block = j;
        load.sram_bytes_in_use = 2 * c * d * e;
        for (std::int64_t i = 0; i < b.row_blocks; ++i) {
            const std::int64_t r0 = i * b.block_rows, r = std::min(b.block_rows, n - r0);
            if (config.causal && c0 > r0 + r - 1) {  // first key after the last query: all masked
                AttentionStep &skip = recorder.add(AttentionStepKind::SkipBlock, i, j, 0, 0, 0);
                skip.sram_key_value_block = j;
                skip.sram_bytes_in_use = 2 * c * d * e;
                continue;
            }
            // Lines 9-12 block by block: two products, the block softmax, the row statistics, O.
            const std::int64_t flops = 2 * (2 * r * c * d) + kFlashScoreFlops * r * c + kFlashRowFlops * r
                                     + kFlashOutputFlops * r * d;
            AttentionStep &step = recorder.add(AttentionStepKind::ComputeBlock, i, j, 2 * r * d + 2 * r, r * d + 2 * r, flops);
            step.sram_query_block = i;
            step.sram_key_value_block = j;
            step.sram_bytes_in_use = (2 * c * d + 2 * r * d + 2 * r + r * c) * e;
            if (example)
                updateRows(*example, r0, r0 + r, c0, c0 + c, true, step.rows);
        }
    }
}

void flash2Steps(const AttentionConfig &config, const AttentionBlocks &b, AttentionSteps &result, Example *example)
{
    const std::int64_t n = config.sequence_length, d = config.head_dim, e = config.element_bytes;
    StepRecorder recorder(config, result);
    for (std::int64_t i = 0; i < b.row_blocks; ++i) {
        const std::int64_t r0 = i * b.block_rows, r = std::min(b.block_rows, n - r0);
        const std::int64_t resident = 2 * r * d + 2 * r;  // Q_i, O_i, ℓ_i, m_i on chip
        AttentionStep &load = recorder.add(AttentionStepKind::LoadQueryBlock, i, -1, r * d, 0, 0);
        load.sram_query_block = i;
        load.sram_bytes_in_use = resident * e;
        for (std::int64_t j = 0; j < b.column_blocks; ++j) {
            const std::int64_t c0 = j * b.block_columns, c = std::min(b.block_columns, n - c0);
            if (config.causal && c0 > r0 + r - 1) {
                AttentionStep &skip = recorder.add(AttentionStepKind::SkipBlock, i, j, 0, 0, 0);
                skip.sram_query_block = i;
                skip.sram_bytes_in_use = resident * e;
                continue;
            }
            const std::int64_t flops = 2 * (2 * r * c * d) + kFlashScoreFlops * r * c + kFlash2RowFlops * r
                                     + kFlash2OutputFlops * r * d;
            AttentionStep &step = recorder.add(AttentionStepKind::ComputeBlock, i, j, 2 * c * d, 0, flops);
            step.sram_query_block = i;
            step.sram_key_value_block = j;
            step.sram_bytes_in_use = (resident + 2 * c * d + r * c) * e;
            if (example)
                updateRows(*example, r0, r0 + r, c0, c0 + c, false, step.rows);
        }
        AttentionStep &write = recorder.add(AttentionStepKind::WriteOutputBlock, i, -1, 0, r * d + r,
                                            kFlash2FinalOutputFlops * r * d + kFlash2FinalRowFlops * r);
        write.sram_query_block = i;
        write.sram_bytes_in_use = resident * e;
        if (example)
            for (std::int64_t row = r0; row < r0 + r; ++row)
                for (std::int64_t x = 0; x < d; ++x)
                    example->output[std::size_t(row * d + x)] /= example->l[std::size_t(row)];
    }
}

}  // namespace

std::int64_t attentionStepCount(const AttentionConfig &config, AttentionAlgorithm algorithm)
{
    if (!validateAttentionConfig(config).empty())
        return 0;
    const AttentionBlocks b = attentionBlocks(config);
    switch (algorithm) {
    case AttentionAlgorithm::Standard: return 3;
    case AttentionAlgorithm::Flash: return 1 + b.column_blocks * (1 + b.row_blocks);
    case AttentionAlgorithm::Flash2: return b.row_blocks * (b.column_blocks + 2);
    }
    return 0;
}

Result<AttentionSteps> attentionSteps(const AttentionConfig &config, const AttentionStepOptions &options)
{
    if (Problems problems = validateAttentionConfig(config); !problems.empty())
        return problems;
    Problems problems;
    const std::int64_t count = attentionStepCount(config, options.algorithm);
    if (count > kMaxAttentionSteps)
        problems.push_back(Problem{"sequence_length", "steps",
                                   "the " + std::string(toString(options.algorithm)) + " animation of sequence_length N = "
                                       + std::to_string(config.sequence_length) + " would take " + std::to_string(count)
                                       + " steps, more than " + std::to_string(kMaxAttentionSteps)
                                       + "; choose a shorter sequence or a larger SRAM",
                                   {"sram_bytes", "head_dim"}});
    if (options.with_values && config.sequence_length > kMaxExampleSequenceLength)
        problems.push_back(Problem{"sequence_length", "example",
                                   "sequence_length: the numeric example runs for N up to " + std::to_string(kMaxExampleSequenceLength)
                                       + ", not " + std::to_string(config.sequence_length)});
    if (options.with_values && config.head_dim > kMaxExampleHeadDim)
        problems.push_back(Problem{"head_dim", "example",
                                   "head_dim: the numeric example runs for d up to " + std::to_string(kMaxExampleHeadDim)
                                       + ", not " + std::to_string(config.head_dim)});
    if (!problems.empty())
        return problems;

    AttentionSteps result;
    result.config = config;
    result.algorithm = options.algorithm;
    result.blocks = attentionBlocks(config);
    result.steps.reserve(std::size_t(count));
    std::optional<Example> example;
    if (options.with_values)
        example = makeExample(config, options.seed);
    Example *values = example ? &*example : nullptr;
    switch (options.algorithm) {
    case AttentionAlgorithm::Standard: standardSteps(config, result, values); break;
    case AttentionAlgorithm::Flash: flashSteps(config, result.blocks, result, values); break;
    case AttentionAlgorithm::Flash2: flash2Steps(config, result.blocks, result, values); break;
    }
    if (values)
        result.example_max_abs_error = maxAbsErrorAgainstDirect(*values);
    return result;
}

}  // namespace lse::kernels
