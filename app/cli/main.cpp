// SPDX-License-Identifier: GPL-3.0-or-later
// llm-explorer-cli: the cost engine's numbers for people and scripts.

#include "commands.h"
#include "output.h"
#include "output_capture.h"

#include "common/input_files.h"
#include "common/interrupt_cleanup.h"
#include "common/stale_temporaries.h"

#include <QCoreApplication>

namespace {

const char *const kUsage =
    "Usage: llm-explorer-cli <command> [options]\n"
    "\n"
    "Commands:\n"
    "  estimate         parameters, FLOPs, time, memory per GPU and communication of a training run\n"
    "  presets          the built-in model presets\n"
    "  hardware         the built-in accelerator catalog\n"
    "  published-runs   the published Megatron runs (layouts, published iteration times) for validation\n"
    "  validate         predicted vs published step time of the published runs: error per run, mean and worst\n"
    "  tokenize         split text into BPE tokens with ids and byte spans\n"
    "  train-bpe        train a byte-level BPE and write vocab.json + merges.txt\n"
    "  prepare-data     stream text files into raw little-endian token ids\n"
    "  bench-tokenizer  encode throughput on one and on N threads\n"
    "  machine          this CPU's measured roofline: SGEMM peak and STREAM bandwidth (cached)\n"
    "  links            this machine's alpha and beta between mpirun's processes (ping-pong, all-reduce sweep)\n"
    "  roofline         each operator of a train/prefill/decode step on a GPU or this CPU's roofline\n"
    "  attention        one attention head's HBM bytes and FLOPs: standard vs FlashAttention (tiles, causal, backward)\n"
    "  gemm-waves       a matrix product's thread-block tiles and waves on a GPU, and the saw-tooth over N\n"
    "  fusion           element-wise operators as separate kernels vs one fused kernel: bytes, intensity, time\n"
    "  trace            PyTorch profiler traces: GPU time breakdown per step, kernels by class, FLOPs, overlap\n"
    "  infer            serving: time to first token, time per token, tokens/s, memory, batch, cost, speculative\n"
    "  train            train the CPU reference transformer on a token file (loss, tokens/s, MFU); --dp N under mpirun\n"
    "  dist-train       data-parallel / ZeRO training on N local ranks: starts mpiexec with train --dp N\n"
    "  generate         continue prompts with the reference model; --batch B: prefill and decode measured vs predicted\n"
    "  ablate           train variants of the reference transformer (norm, activation, ...) on the same tokens\n"
    "  collective       simulate a ring/tree collective step by step (alpha-beta time, bus bandwidth)\n"
    "  pipeline         simulate a pipeline schedule (GPipe, 1F1B, interleaved, ZB-H1): bubble and timeline\n"
    "  mesh             each rank's node and TP/CP/EP/DP/PP group for the scenario's layout\n"
    "  search           rank every valid parallel layout (dp/tp/pp/cp/ep, ZeRO, micro-batch) by step time\n"
    "  scaling          Chinchilla compute-optimal model size and tokens for a FLOP budget, or the loss of N and D\n"
    "  numbers          number formats (fp32 ... fp8, int8): range, precision, and what each stores for a value\n"
    "  tensor           a strided tensor through transpose/view/reshape/...: strides, offset, views or copies\n"
    "  lessons          the classroom lessons: list them, print a lesson's steps with the engine's figures, check a file\n"
    "\n"
    "Run 'llm-explorer-cli <command> --help' for a command's options.\n";

int runCommand(QStringList arguments)
{
    if (arguments.isEmpty()) {
        lse::cli::printError(QString::fromLatin1(kUsage));
        return lse::cli::kExitBadInput;
    }
    const QString command = arguments.takeFirst();
    if (command == QLatin1String("--help") || command == QLatin1String("-h") || command == QLatin1String("help")) {
        lse::cli::printOut(QString::fromLatin1(kUsage));
        return lse::cli::kExitOk;
    }
    if (command == QLatin1String("--version")) {
        lse::cli::printOut(QStringLiteral("llm-explorer-cli %1\n").arg(QStringLiteral(LSE_VERSION)));
        return lse::cli::kExitOk;
    }
    if (const auto run = lse::cli::commandNamed(command))
        return run(arguments);
    lse::cli::printError(QStringLiteral("error: unknown command '%1'\n\n").arg(command) + QString::fromLatin1(kUsage));
    return lse::cli::kExitBadInput;
}

}  // namespace

int main(int argc, char *argv[])
{
    // One run, one set of outputs: its temporaries go when it is interrupted, and no file it reads
    // can be one of its outputs (core/common/file_writer.h).
    lse::installInterruptCleanup();
    lse::setEveryFileReadIsAnInput(true);
    lse::setStaleTemporaryReporter([](const lse::StaleTemporary &stale) {
        lse::cli::printError(QStringLiteral("llm-explorer-cli: note: '%1' (%2) was left by an interrupted run and is not "
                                            "used; remove it with: rm '%1'\n")
                                 .arg(QString::fromStdString(stale.path), lse::cli::formatBytes(double(stale.bytes))));
    });
    lse::cli::rememberRawArguments(argc, argv);
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("llm-explorer-cli"));
    QCoreApplication::setApplicationVersion(QStringLiteral(LSE_VERSION));

    QStringList arguments = QCoreApplication::arguments();
    arguments.removeFirst();
    return lse::cli::finishStandardOutput(runCommand(arguments));
}
