// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace lse {

// How a source turned its measured iteration time into the figure it printed. Each paper counts
// differently (Narayanan counts the recomputation forward, Korthikanti separates model and hardware
// FLOPs), so a printed TFLOP/s only converts back to a time with that paper's own formula.
// - NarayananEq3, KorthikantiSec6: the closed forms below (Korthikanti's model FLOPs are also what
//   Megatron-LM's num_floating_point_operations() gives for MHA, d_ff = 4h and no GLU);
// - PalmAppendixB: model FLOPs as Chowdhery et al. 2022 Appendix B counts them (the matmuls of the
//   forward and backward, full s² attention, no recomputation), which is the engine's own model
//   FLOP count (cost/flops.cpp), evaluated for the run's model;
// - PrintedTime: the source prints the iteration time itself;
// - TokensPerSecond: the source prints a throughput in tokens per second; one iteration is global
//   batch × sequence length tokens.
enum class FlopConvention { NarayananEq3, KorthikantiSec6, PalmAppendixB, PrintedTime, TokensPerSecond };

std::string_view toString(FlopConvention value);
std::optional<FlopConvention> flopConventionFromString(std::string_view text);
std::string flopConventionChoices();

// The GPT shape the papers' closed-form FLOP counts use: B sequences of s tokens through l layers of
// hidden size h with a vocabulary of V.
struct GptFlopShape {
    std::int64_t batch_sequences = 0;  // B: the global batch
    std::int64_t seq_len = 0;          // s
    std::int64_t n_layers = 0;         // l
    std::int64_t d_model = 0;          // h
    std::int64_t vocab_size = 0;       // V
};

// Narayanan et al. 2021 (arXiv:2104.04473) eq. (3): F = 96·B·s·l·h²·(1 + s/(6h) + V/(16·l·h)),
// the FLOPs of one iteration with full activation recomputation (one extra forward pass).
double narayananEq3FlopsPerIteration(const GptFlopShape &shape);

// Korthikanti et al. 2022 (arXiv:2205.05198) Sec. 6: model FLOPs (no recomputation, used for MFU)
// = 72·B·s·l·h²·(1 + s/(6h) + V/(12·l·h)).
double korthikantiModelFlopsPerIteration(const GptFlopShape &shape);
// Korthikanti et al. 2022 Sec. 6: hardware FLOPs with selective recomputation (used for HFU)
// = 72·B·s·l·h²·(1 + s/(3h) + V/(12·l·h)): the attention core's s/(6h) term counted twice.
double korthikantiSelectiveHardwareFlopsPerIteration(const GptFlopShape &shape);

// The papers' definition of per-GPU throughput inverted: TFLOP/s = F / (time · n_gpus), so
// time = F / (n_gpus · TFLOP/s · 1e12).
double iterationSecondsFromTflopsPerGpu(double flops_per_iteration, int gpus, double tflops_per_gpu);
// The fraction of peak a run reaches: F / (time · n_gpus · peak).
double utilizationFraction(double flops_per_iteration, double iteration_seconds, int gpus, double peak_tflops_per_gpu);

}  // namespace lse
