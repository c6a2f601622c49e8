// SPDX-License-Identifier: GPL-3.0-or-later
#include "validation/flop_conventions.h"

namespace lse {

namespace {

constexpr double kFlopsPerTeraflop = 1e12;
constexpr FlopConvention kAllConventions[] = {FlopConvention::NarayananEq3, FlopConvention::KorthikantiSec6,
                                              FlopConvention::PalmAppendixB, FlopConvention::PrintedTime,
                                              FlopConvention::TokensPerSecond};

// B·s·l·h², the factor every closed form of the two papers shares.
double leadingTerm(const GptFlopShape &shape)
{
    const double h = double(shape.d_model);
    return double(shape.batch_sequences) * double(shape.seq_len) * double(shape.n_layers) * h * h;
}

}  // namespace

std::string_view toString(FlopConvention value)
{
    switch (value) {
    case FlopConvention::NarayananEq3:
        return "narayanan-eq3";
    case FlopConvention::KorthikantiSec6:
        return "korthikanti-sec6";
    case FlopConvention::PalmAppendixB:
        return "palm-appendix-b";
    case FlopConvention::PrintedTime:
        return "printed-time";
    case FlopConvention::TokensPerSecond:
        return "tokens-per-second";
    }
    return "narayanan-eq3";
}

std::optional<FlopConvention> flopConventionFromString(std::string_view text)
{
    for (FlopConvention value : kAllConventions)
        if (toString(value) == text)
            return value;
    return std::nullopt;
}

std::string flopConventionChoices()
{
    std::string choices;
    for (FlopConvention value : kAllConventions)
        choices += (choices.empty() ? "" : "|") + std::string(toString(value));
    return choices;
}

double narayananEq3FlopsPerIteration(const GptFlopShape &shape)
{
    const double s = double(shape.seq_len), h = double(shape.d_model);
    const double l = double(shape.n_layers), V = double(shape.vocab_size);
    return 96.0 * leadingTerm(shape) * (1.0 + s / (6.0 * h) + V / (16.0 * l * h));
}

double korthikantiModelFlopsPerIteration(const GptFlopShape &shape)
{
    const double s = double(shape.seq_len), h = double(shape.d_model);
    const double l = double(shape.n_layers), V = double(shape.vocab_size);
    return 72.0 * leadingTerm(shape) * (1.0 + s / (6.0 * h) + V / (12.0 * l * h));
}

double korthikantiSelectiveHardwareFlopsPerIteration(const GptFlopShape &shape)
{
    const double s = double(shape.seq_len), h = double(shape.d_model);
    const double l = double(shape.n_layers), V = double(shape.vocab_size);
    return 72.0 * leadingTerm(shape) * (1.0 + s / (3.0 * h) + V / (12.0 * l * h));
}

double iterationSecondsFromTflopsPerGpu(double flops_per_iteration, int gpus, double tflops_per_gpu)
{
    return flops_per_iteration / (double(gpus) * tflops_per_gpu * kFlopsPerTeraflop);
}

double utilizationFraction(double flops_per_iteration, double iteration_seconds, int gpus, double peak_tflops_per_gpu)
{
    return flops_per_iteration / (iteration_seconds * double(gpus) * peak_tflops_per_gpu * kFlopsPerTeraflop);
}

}  // namespace lse
