// SPDX-License-Identifier: GPL-3.0-or-later
// Training loop of the CPU reference transformer: batches sampled from a token-id file, AdamW with
// a cosine schedule and warm-up, global-norm clipping, validation loss, safetensors checkpoints
// that resume bit-identically, and per-step measurements (time, tokens/s, FLOPs, MFU against the
// machine's measured SGEMM peak). The GUI runs it in a worker thread; the CLI in the foreground.
#pragma once

#include "common/memory_limit.h"
#include "common/problem.h"
#include "reference/model.h"
#include "reference/op_profiler.h"
#include "reference/optimizer.h"
#include "reference/thread_choice.h"
#include "reference/token_data.h"
#include "scenario/model_config.h"

#include <QByteArray>

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace lse::reference {

struct TrainConfig {
    ModelConfig model;           // the architecture; model.max_seq_len is the context length
    ReferenceOptions options;    // norm eps, RoPE theta (max_batch/context are set from below)
    std::string data_path;       // token ids written by `llm-explorer-cli prepare-data`
    TokenDtype data_dtype = TokenDtype::U16;
    std::string validation_path; // optional; empty: the last 10% of data_path's windows validate
    TokenDtype validation_dtype = TokenDtype::U16;
    int batch_size = 8;          // sequences per step
    int steps = 1000;            // total optimizer steps (the cosine cycle ends here)
    double lr_max = 1e-3;
    double lr_min = 1e-4;
    int warmup_steps = 100;
    double weight_decay = 0.1;
    double beta1 = 0.9;
    double beta2 = 0.95;
    double adam_eps = 1e-8;
    double grad_clip = 1.0;      // global L2 norm; 0 disables clipping
    int eval_every = 100;        // steps between validation losses; 0: never
    int eval_batches = 4;
    std::uint64_t seed = 0;      // initialisation and batch sampling
    int threads = 0;             // OpenMP and Eigen; 0: the cores other processes leave idle (thread_choice.h)
    double peak_flops_per_s = 0; // for MFU; 0: MFU is not reported
};

// Problems name the field ("training.batch_size", "model.d_model", "data_path", ...). Includes the
// model's bounds (reference/size_limits.h) and, when those hold, checkTrainingMemory against this
// machine's physical memory, so a config that passes can be allocated.
Problems validateTrainConfig(const TrainConfig &config);
// The optimizer settings of a run (learning rate starting at lr_max; the schedule changes it each
// step), shared by the single-process and the data-parallel trainer.
AdamWConfig adamWConfigOf(const TrainConfig &config);
// The model part alone (model.* sizes, bounds, norm_eps, rope_theta): what generation from a
// checkpoint needs, with no data files or training settings involved.
Problems validateTrainModel(const TrainConfig &config);
// Parameters, gradients, AdamW moments, activations and workspace for batch_size × max_seq_len
// and the token batches, against `available` (validateTrainConfig passes
// memoryAvailableToThisProcess()); the problem names training.batch_size and the limit. The model
// part must have passed validateTrainModel.
Problems checkTrainingMemory(const TrainConfig &config, const MemoryAvailable &available);

// TrainConfig ↔ JSON (the `train --config` file and the checkpoint metadata). Model fields use the
// scenario model format (core/scenario/scenario_json); unknown keys are problems.
Result<TrainConfig> trainConfigFromJson(const QByteArray &json, const std::string &where);
QByteArray trainConfigToJson(const TrainConfig &config);

// Training windows lie in data tokens [0, limit): the whole file with a separate validation_path,
// otherwise everything before the held-out last 10% of whole windows (at least one), plus the
// boundary token (a training target and a validation input). Trainer and the data-parallel
// trainer (core/distributed) draw from the same range, so they see the same batches.
std::int64_t trainingTokenLimit(const TrainConfig &config, const TokenFile &data);

// `rows` training windows drawn as the CS336 get_batch does (each start uniform in
// [0, limit − ctx − 1], one draw of `rng` per row, in row order) into inputs/targets (rows, ctx).
Result<bool> sampleTrainingWindows(const TokenFile &data, std::int64_t limit, int ctx, int rows, std::mt19937_64 &rng,
                                   std::int32_t *inputs, std::int32_t *targets);

struct StepReport {
    int step = 0;                 // 1-based index of the step just taken
    double loss = 0;              // training loss of this step's batch (nats/token)
    double learning_rate = 0;
    double grad_norm = 0;         // before clipping
    double seconds = 0;           // wall time of forward + backward + optimizer
    double tokens_per_s = 0;
    double flops = 0;             // counted by the op profiler for this step
    double achieved_flops_per_s = 0;
    double mfu = 0;               // achieved / peak_flops_per_s (0 when no peak is known)
    std::optional<double> validation_loss;  // set on evaluation steps
    // The process's CPU time the evaluation took (0 without one): `seconds` leaves it out, and a
    // caller timing the whole call subtracts it to compare like with like.
    double validation_cpu_seconds = 0;
    // FNV-1a of this step's input ids: runs with the same tokens and seed see equal hashes (the
    // ablation runner records the first one as evidence that its variants saw the same batches).
    std::uint64_t batch_hash = 0;
    // setInterrupt's flag stopped the step before its end: nothing changed (no update, the batch
    // sampler and the op profiler as before the step), and `step` is the last step taken.
    bool interrupted = false;
};

// The rule of the problem Trainer::step returns when training diverged (a non-finite loss or
// gradient norm): callers tell it apart from bad input (the CLI exits with 3).
inline constexpr const char *kDivergedRule = "diverged";

class Trainer {
public:
    // Builds the model (initialised from config.seed) and optimizer, opens and checks the data.
    static Result<std::unique_ptr<Trainer>> create(const TrainConfig &config);
    // Restores model, optimizer moments, step and sampling state from a checkpoint written by
    // saveCheckpoint; continuing gives bit-identical results to never having stopped.
    static Result<std::unique_ptr<Trainer>> resume(const std::string &checkpointPath,
                                                   const std::optional<TrainConfig> &overrideData = std::nullopt);

    // One optimizer step (and validation when due). A non-finite loss, gradient norm or validation
    // loss fails with rule kDivergedRule (field "loss"); a non-finite loss or gradient norm fails
    // before the optimizer updates the weights.
    Result<StepReport> step();
    // While *flag is true, step() stops at the next layer boundary and returns a report with
    // `interrupted` set (the GUI's Stop). Null: never interrupted.
    void setInterrupt(const std::atomic<bool> *flag);
    Result<double> validationLoss();       // mean over eval_batches fixed windows
    // Safetensors, atomic; refused (rule "non-finite") when a weight or moment is NaN or infinite.
    Result<bool> saveCheckpoint(const std::string &path) const;

    int currentStep() const;               // steps taken so far
    const TrainConfig &config() const;
    // The OpenMP/Eigen threads this trainer set (config.threads, or chosen from the idle cores).
    const ThreadChoice &threadChoice() const;
    // The peak MFU is reported against (0: none), e.g. the one-core or all-cores peak once the
    // thread count is known.
    void setPeakFlopsPerSecond(double peak_flops_per_s);
    Model &model();
    const OpProfiler &profiler() const;    // cumulative per-op FLOPs and time
    ReferenceMemory memory() const;        // bytes per category, including optimizer moments
    double optimizerStateBytes() const;

    ~Trainer();

private:
    Trainer();
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

// The model of a checkpoint written by Trainer::saveCheckpoint, for generation: no data files are
// opened and no optimizer is built. The workspace holds one sequence of the model's context.
// `config` (optional) receives the checkpoint's TrainConfig and `step` its step.
Result<std::unique_ptr<Model>> loadCheckpointModel(const std::string &checkpointPath, TrainConfig *config = nullptr,
                                                   int *step = nullptr);

// How generation sizes the model (batch_generation.h): `batch` sequences, prompts of up to
// `prompt_tokens` (the workspace's context: the batched prefill runs there) growing to
// `cache_context` positions in the KV cache (0: the model's max_seq_len; loadCheckpointModel clamps
// both to it). Model::create checks the memory of both against this process's limit.
struct GenerationSize {
    int batch = 1;
    int prompt_tokens = 0;  // 0: max_seq_len
    int cache_context = 0;  // 0: max_seq_len
    // The attention kernel of the batched prefill (`generate --attention`); unset: the tiled one.
    std::optional<AttentionAlgorithm> attention_kernel;
};
// The options of an inference-only model (ReferenceOptions::inference_only) of that size.
ReferenceOptions generationOptions(const ReferenceOptions &base, const GenerationSize &size);
Result<std::unique_ptr<Model>> loadCheckpointModel(const std::string &checkpointPath, const GenerationSize &size,
                                                   TrainConfig *config = nullptr, int *step = nullptr);

struct GenerateOptions {
    int max_new_tokens = 200;
    double temperature = 1.0;  // 0: greedy
    int top_k = 0;             // 0: off
    double top_p = 1.0;        // nucleus sampling; 1: off
    std::uint64_t seed = 0;
    std::optional<std::int32_t> stop_token;  // usually <|endoftext|>
    // Time each operator of the prefill and the decode steps with the model's op profiler (its
    // records are reset; batch_generation.h). Off: the profiler is paused during generation, so a
    // trainer's records of its steps stay as they were.
    bool profile = false;
    // generateBatch only: one untimed prefill of the same prompts first, so the timed one is a warm
    // process's (as a serving engine that has answered a request before): the first forward pass
    // pays cold caches and page faults, as a run's first training step does (measured on the cs336
    // model at batch 1: 25 ms cold, 19.5 ms warm).
    bool warm_up = false;
};

// Samples a continuation of prompt ids with the KV cache; calls onToken (when set) as each token is
// produced (the GUI streams text) and stops early when it returns false.
Result<std::vector<std::int32_t>> generate(Model &model, const std::vector<std::int32_t> &prompt,
                                          const GenerateOptions &options,
                                          const std::function<bool(std::int32_t)> &onToken = {});

}  // namespace lse::reference
