// SPDX-License-Identifier: GPL-3.0-or-later
// Trainer: the training loop of the reference transformer (see trainer.h).
//
// Choices worth knowing:
// - Weight decay applies to every tensor, norm gains included, as the CS336 reference does.
// - Step s (1-based) runs at the schedule's rate for t = s, so warm-up ends on step warmup_steps
//   at lr_max instead of spending step 1 at rate 0; the cosine reaches lr_min at step `steps`.
// - Held-out validation: without validation_path the last 10% of data_path's whole windows (at
//   least one) validate and training draws its windows only from the tokens before them, so the
//   validation loss measures text the model never trained on. Each training row is drawn as the
//   CS336 get_batch does (start uniform in [0, n − ctx − 1]), but over that training range.
// - Validation runs with the profiler off, so the profiler's table is the training steps alone.
// - Divergence (issue 14, item 6): a non-finite loss or gradient norm fails the step with the rule
//   kDivergedRule before the optimizer touches the weights, so the model keeps the last finite
//   state (an update that overflows, or a non-finite validation loss, is only seen after it);
//   saveCheckpoint refuses non-finite weights or moments, and loading refuses them too.
#include "reference/trainer.h"

#include "reference/checkpoint_check.h"
#include "reference/op_trace.h"
#include "reference/optimizer.h"
#include "reference/safetensors.h"
#include "reference/schedule.h"
#include "reference/thread_choice.h"
#include "reference/training_tokens.h"

#include <Eigen/Core>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <ctime>
#include <limits>
#include <sstream>

namespace lse::reference {

struct Trainer::Impl {
    TrainConfig config;
    ThreadChoice threads;
    std::unique_ptr<Model> model;
    std::optional<TokenFile> data;
    std::optional<TokenFile> validation;  // a separate file, or none: the tail of `data` validates
    std::int64_t train_limit = 0;         // training windows lie in data tokens [0, train_limit)
    std::int64_t val_start = 0;           // first validation window start in the validating file
    std::int64_t val_windows = 0;
    std::vector<ParamSpan<float>> spans;
    std::unique_ptr<AdamW<float>> optimizer;
    CosineSchedule schedule;
    std::mt19937_64 rng;
    std::vector<OpRecord> records_before;  // the profiler's records before the step under way
    int step = 0;
    std::vector<std::int32_t> inputs, targets;  // (batch, ctx) each, allocated once

    Result<bool> sampleTrainingBatch()
    {
        return sampleTrainingWindows(*data, train_limit, int(config.model.max_seq_len), config.batch_size, rng,
                                     inputs.data(), targets.data());
    }
};

namespace {

double processCpuSeconds()
{
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

// FNV-1a, 64-bit (Fowler–Noll–Vo): offset basis 14695981039346656037, prime 1099511628211.
std::uint64_t fnv1a(const std::vector<std::int32_t> &ids)
{
    std::uint64_t hash = 14695981039346656037ull;
    for (std::int32_t id : ids) {
        const auto bits = std::uint32_t(id);
        for (int byte = 0; byte < 4; ++byte) {
            hash ^= (bits >> (8 * byte)) & 0xffu;
            hash *= 1099511628211ull;
        }
    }
    return hash;
}

// "the loss is NaN", "the gradient norm is infinite".
std::string nonFinite(const char *what, double value)
{
    return std::string("the ") + what + " is " + (std::isnan(value) ? "NaN" : "infinite");
}

Problems divergedProblems(int step, const std::string &what, double learning_rate)
{
    std::ostringstream message;
    message << "training diverged at step " << step << ": " << what << " (learning rate " << learning_rate
            << "); training stopped and no checkpoint of this state is written. Lower the learning rate "
               "(training.lr_max, `train --lr`) and restart, or resume from an earlier checkpoint.";
    return {Problem{"loss", kDivergedRule, message.str()}};
}

std::string rngToText(const std::mt19937_64 &rng)
{
    std::ostringstream out;
    out << rng;
    return out.str();
}

}  // namespace

std::int64_t trainingTokenLimit(const TrainConfig &config, const TokenFile &data)
{
    if (!config.validation_path.empty())
        return data.tokenCount();
    const int ctx = int(config.model.max_seq_len);
    const std::int64_t windows = data.windowCount(ctx);
    const std::int64_t validationWindows = std::max<std::int64_t>(1, windows / 10);
    return (windows - validationWindows) * ctx + 1;  // the boundary token is a training target and a validation input
}

Result<bool> sampleTrainingWindows(const TokenFile &data, std::int64_t limit, int ctx, int rows, std::mt19937_64 &rng,
                                   std::int32_t *inputs, std::int32_t *targets)
{
    std::uniform_int_distribution<std::int64_t> start(0, limit - ctx - 1);
    for (int b = 0; b < rows; ++b) {
        const std::size_t off = std::size_t(b) * std::size_t(ctx);
        if (Result<bool> r = data.sequentialBatch(start(rng), 1, ctx, inputs + off, targets + off); !r)
            return r;
    }
    return true;
}

Trainer::Trainer() : impl_(std::make_unique<Impl>()) {}
Trainer::~Trainer() = default;

AdamWConfig adamWConfigOf(const TrainConfig &config)
{
    AdamWConfig adam;
    adam.learningRate = config.lr_max;
    adam.beta1 = config.beta1;
    adam.beta2 = config.beta2;
    adam.eps = config.adam_eps;
    adam.weightDecay = config.weight_decay;
    return adam;
}

Result<std::unique_ptr<Trainer>> Trainer::create(const TrainConfig &configIn)
{
    TrainConfig config = configIn;
    config.options.seed = config.seed;
    config.options.max_batch = config.batch_size;
    config.options.context = int(config.model.max_seq_len);
    if (Problems p = validateTrainConfig(config); !p.empty())
        return p;
    const ThreadChoice threads = chooseThreads(config.threads);
    useThreads(threads.threads);

    std::unique_ptr<Trainer> trainer(new Trainer());
    Impl &s = *trainer->impl_;
    s.config = config;
    s.threads = threads;
    const int ctx = int(config.model.max_seq_len);

    Result<TrainingTokens> tokens = openTrainingTokens(config);
    if (!tokens)
        return tokens.problems();
    s.data = std::move(tokens.value().data);
    s.validation = std::move(tokens.value().validation);
    s.train_limit = tokens->train_limit;
    s.val_start = tokens->val_start;
    s.val_windows = tokens->val_windows;

    Result<std::unique_ptr<Model>> model = Model::create(config.model, config.options);
    if (!model)
        return model.problems();
    s.model = std::move(model.value());
    s.model->profiler().setEnabled(true);
    for (NamedTensor<float> &t : s.model->parameters())
        s.spans.push_back(ParamSpan<float>{t.data, t.grad, std::size_t(t.size()), true});
    s.optimizer = std::make_unique<AdamW<float>>(s.spans, adamWConfigOf(config));
    s.schedule = CosineSchedule{config.lr_max, config.lr_min, config.warmup_steps, config.steps};
    s.rng.seed(config.seed);
    s.inputs.assign(std::size_t(config.batch_size) * std::size_t(ctx), 0);
    s.targets.assign(s.inputs.size(), 0);
    return trainer;
}

Result<StepReport> Trainer::step()
{
    Impl &s = *impl_;
    using Clock = std::chrono::steady_clock;
    const int ctx = int(s.config.model.max_seq_len);
    const auto start = Clock::now();
    const double flopsBefore = s.model->profiler().totalFlops();
    // What an interrupted step puts back: the sampler's state and the profiler's records.
    // (into a buffer kept between steps: a steady-state step allocates nothing).
    const std::mt19937_64 rngBefore = s.rng;
    s.records_before.assign(s.model->profiler().records().begin(), s.model->profiler().records().end());
    // A trace being recorded (op_trace.h) stamps this step's events with its number.
    OpTraceLog *trace = s.model->profiler().trace();
    if (trace)
        trace->setStep(s.step + 1);
    if (Result<bool> batch = s.sampleTrainingBatch(); !batch)
        return batch.problems();
    Result<float> loss = s.model->forwardBackward(s.inputs.data(), s.targets.data(), s.config.batch_size, ctx);
    if (!loss) {
        if (!loss.problems().empty() && loss.problems().front().rule == kInterruptedRule) {
            s.rng = rngBefore;
            s.model->profiler().restore(s.records_before);
            StepReport interrupted;
            interrupted.step = s.step;
            interrupted.interrupted = true;
            return interrupted;
        }
        return loss.problems();
    }
    StepReport report;
    report.batch_hash = fnv1a(s.inputs);
    report.step = s.step + 1;
    report.loss = double(loss.value());
    report.learning_rate = s.schedule.at(report.step);
    if (!std::isfinite(report.loss))
        return divergedProblems(report.step, nonFinite("loss", report.loss), report.learning_rate);
    report.grad_norm = s.config.grad_clip > 0 ? clipGradNorm(s.spans, s.config.grad_clip) : globalGradNorm(s.spans);
    if (!std::isfinite(report.grad_norm))
        return divergedProblems(report.step, nonFinite("gradient norm", report.grad_norm), report.learning_rate);
    const auto optimizer_start = Clock::now();
    s.optimizer->step(report.learning_rate);
    if (trace)
        traceOptimizerUpdate(*trace, s.model->parameterCount(), optimizer_start, Clock::now());
    // Finite gradients can still overflow the update (a learning rate of 1e30): one pass over the
    // parameters, cheap next to the forward and backward passes over every token.
    if (!allFinite(s.model->parameterData(), s.model->parameterCount()))
        return divergedProblems(report.step, "the update made weights NaN or infinite", report.learning_rate);
    const auto end = Clock::now();
    report.seconds = std::chrono::duration<double>(end - start).count();
    s.step = report.step;
    const double tokens = double(s.config.batch_size) * double(ctx);
    report.tokens_per_s = report.seconds > 0 ? tokens / report.seconds : 0;
    report.flops = s.model->profiler().totalFlops() - flopsBefore;
    report.achieved_flops_per_s = report.seconds > 0 ? report.flops / report.seconds : 0;
    report.mfu = s.config.peak_flops_per_s > 0 ? report.achieved_flops_per_s / s.config.peak_flops_per_s : 0;
    if (trace)  // the step as report.seconds times it; validation is not part of it
        trace->addSpan(TraceEventKind::Step, "ProfilerStep", start, end, report.flops);
    if (s.config.eval_every > 0 && (report.step % s.config.eval_every == 0 || report.step == s.config.steps)) {
        const double cpuBefore = processCpuSeconds();
        Result<double> val = validationLoss();
        report.validation_cpu_seconds = processCpuSeconds() - cpuBefore;
        if (!val && val.problems().front().rule == kInterruptedRule)
            return report;  // the step is taken; only its validation loss is missing
        if (!val)
            return val.problems();
        if (!std::isfinite(val.value()))
            return divergedProblems(report.step, nonFinite("validation loss", val.value()), report.learning_rate);
        report.validation_loss = val.value();
    }
    return report;
}

void Trainer::setInterrupt(const std::atomic<bool> *flag) { impl_->model->setInterrupt(flag); }

Result<double> Trainer::validationLoss()
{
    Impl &s = *impl_;
    const int ctx = int(s.config.model.max_seq_len);
    const TokenFile &file = s.validation ? *s.validation : *s.data;
    const std::int64_t wanted = std::int64_t(s.config.eval_batches) * s.config.batch_size;
    std::int64_t remaining = std::min(wanted, s.val_windows);
    std::int64_t next = s.val_start;
    double sum = 0;
    std::int64_t rows = 0;
    OpProfiler &profiler = s.model->profiler();
    const bool profiled = profiler.enabled();
    profiler.setEnabled(false);
    while (remaining > 0) {
        const int b = int(std::min<std::int64_t>(remaining, s.config.batch_size));
        if (Result<bool> r = file.sequentialBatch(next, b, ctx, s.inputs.data(), s.targets.data()); !r) {
            profiler.setEnabled(profiled);
            return r.problems();
        }
        Result<float> loss = s.model->loss(s.inputs.data(), s.targets.data(), b, ctx);
        if (!loss) {
            profiler.setEnabled(profiled);
            return loss.problems();
        }
        sum += double(loss.value()) * b;  // each row holds ctx targets, so rows weight the batch means
        rows += b;
        next += std::int64_t(b) * ctx;
        remaining -= b;
    }
    profiler.setEnabled(profiled);
    return sum / double(rows);
}

Result<bool> Trainer::saveCheckpoint(const std::string &path) const
{
    const Impl &s = *impl_;
    std::vector<SafeTensor> tensors;
    const AdamWState<float> state = s.optimizer->exportState();
    const auto &params = s.model->parameters();
    // A checkpoint of a diverged model would only pass the NaNs on to generate or a resumed run.
    for (std::size_t i = 0; i < params.size(); ++i)
        if (!allFinite(params[i].data, params[i].size()) || !allFinite(state.m[i].data(), std::int64_t(state.m[i].size())) ||
            !allFinite(state.v[i].data(), std::int64_t(state.v[i].size())))
            return Result<bool>::failure(path, "non-finite",
                                         path + ": not written: tensor " + params[i].name +
                                             " or its optimizer moments hold NaN or infinite values (training diverged).");
    tensors.reserve(params.size() * 3);
    for (const NamedTensor<float> &t : params)
        tensors.push_back(makeF32Tensor(t.name, t.data, t.shape));
    for (std::size_t i = 0; i < params.size(); ++i)
        tensors.push_back(makeF32Tensor("optimizer.m." + params[i].name, state.m[i].data(), params[i].shape));
    for (std::size_t i = 0; i < params.size(); ++i)
        tensors.push_back(makeF32Tensor("optimizer.v." + params[i].name, state.v[i].data(), params[i].shape));
    std::map<std::string, std::string> metadata;
    metadata["format"] = "llm-explorer-reference-checkpoint";
    metadata["config"] = trainConfigToJson(s.config).toStdString();
    metadata["step"] = std::to_string(s.step);
    metadata["optimizer.step"] = std::to_string(state.step);
    metadata["rng"] = rngToText(s.rng);
    return writeSafetensors(path, tensors, metadata);
}

Result<std::unique_ptr<Trainer>> Trainer::resume(const std::string &path, const std::optional<TrainConfig> &overrideData)
{
    Result<SafetensorsFile> file = readSafetensors(path);
    if (!file)
        return file.problems();
    const SafetensorsFile &ckpt = file.value();
    auto meta = [&](const char *key) -> const std::string * {
        auto it = ckpt.metadata.find(key);
        return it == ckpt.metadata.end() ? nullptr : &it->second;
    };
    const std::string *configText = meta("config"), *stepText = meta("step"), *rngText = meta("rng"),
                      *optStepText = meta("optimizer.step");
    if (!configText || !stepText || !rngText || !optStepText)
        return Result<std::unique_ptr<Trainer>>::failure(
            path, "metadata", path + ": not a training checkpoint (its __metadata__ lacks config, step, optimizer.step or rng).");
    Result<TrainConfig> parsed = trainConfigFromJson(QByteArray::fromStdString(*configText), path + " __metadata__.config");
    if (!parsed)
        return parsed.problems();
    TrainConfig config = parsed.value();
    if (overrideData) {
        // The run's data and length may change on resume; the model and optimizer may not.
        config.data_path = overrideData->data_path;
        config.data_dtype = overrideData->data_dtype;
        config.validation_path = overrideData->validation_path;
        config.validation_dtype = overrideData->validation_dtype;
        config.steps = overrideData->steps;
        config.threads = overrideData->threads;
        config.peak_flops_per_s = overrideData->peak_flops_per_s;
        config.eval_every = overrideData->eval_every;
        config.eval_batches = overrideData->eval_batches;
    }
    // Sizes and memory first, then the tensors against the shapes the config implies (header
    // only) and their values, and only then the model is built.
    if (Problems p = validateTrainConfig(config); !p.empty())
        return p;
    if (Problems p = checkCheckpointTensors(ckpt, config.model, true, path); !p.empty())
        return p;
    Result<std::unique_ptr<Trainer>> created = create(config);
    if (!created)
        return created.problems();
    std::unique_ptr<Trainer> trainer = std::move(created.value());
    Impl &s = *trainer->impl_;

    Problems problems;
    AdamWState<float> state;
    std::int64_t optStep = -1, step = -1;
    auto parseInt = [](const std::string &text, std::int64_t &out) {
        const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
        if (ec != std::errc() || end != text.data() + text.size())
            out = -1;
    };
    parseInt(*stepText, step);
    parseInt(*optStepText, optStep);
    s.step = step > std::numeric_limits<int>::max() ? -1 : int(step);
    if (s.step < 0 || optStep < 0)
        problems.push_back({path, "metadata", path + ": __metadata__ step/optimizer.step is not a whole number >= 0."});
    state.step = optStep;
    {
        std::istringstream in(*rngText);
        in >> s.rng;
        if (in.fail())
            problems.push_back({path, "metadata", path + ": __metadata__ rng is not a std::mt19937_64 state."});
    }
    for (NamedTensor<float> &t : s.model->parameters()) {
        const SafeTensor *w = ckpt.find(t.name);
        const SafeTensor *m = ckpt.find("optimizer.m." + t.name);
        const SafeTensor *v = ckpt.find("optimizer.v." + t.name);
        if (!w || !m || !v) {
            problems.push_back({path, "missing", path + ": tensor " + t.name + " or its optimizer moments are missing."});
            continue;
        }
        if (w->shape != t.shape || !copySafeTensorTo(*w, t.data, t.size())) {
            problems.push_back({path, "shape", path + ": tensor " + t.name + " does not have the model's F32 shape."});
            continue;
        }
        state.m.push_back(safeTensorToFloat(*m));
        state.v.push_back(safeTensorToFloat(*v));
    }
    if (problems.empty())
        if (Result<bool> imported = s.optimizer->importState(state); !imported)
            return imported.problems();
    if (!problems.empty())
        return problems;
    return trainer;
}

int Trainer::currentStep() const { return impl_->step; }
const TrainConfig &Trainer::config() const { return impl_->config; }
const ThreadChoice &Trainer::threadChoice() const { return impl_->threads; }
void Trainer::setPeakFlopsPerSecond(double peak_flops_per_s) { impl_->config.peak_flops_per_s = std::max(0.0, peak_flops_per_s); }
Model &Trainer::model() { return *impl_->model; }
const OpProfiler &Trainer::profiler() const { return impl_->model->profiler(); }
double Trainer::optimizerStateBytes() const { return double(impl_->optimizer->stateBytes()); }
ReferenceMemory Trainer::memory() const { return impl_->model->memory(); }

}  // namespace lse::reference

namespace lse::reference {

Result<std::unique_ptr<Model>> loadCheckpointModel(const std::string &path, TrainConfig *configOut, int *stepOut)
{
    return loadCheckpointModel(path, GenerationSize{}, configOut, stepOut);
}

ReferenceOptions generationOptions(const ReferenceOptions &base, const GenerationSize &size)
{
    ReferenceOptions options = base;
    // The tiled kernel unless asked otherwise, whatever the model was trained with: a forward pass
    // alone gains most from it (issue 35: an 800-token prefill of the cs336 shape on one thread at
    // 3,280 tokens/s against 2,900 with the naive kernel, which also holds (B, H, T, T) scores).
    options.attention_kernel = size.attention_kernel.value_or(AttentionAlgorithm::Tiled);
    options.max_batch = size.batch;
    options.context = size.prompt_tokens;
    options.cache_batch = size.batch;
    options.cache_context = size.cache_context;
    options.inference_only = true;  // nothing generation does needs gradients or saved activations
    return options;
}

Result<std::unique_ptr<Model>> loadCheckpointModel(const std::string &path, const GenerationSize &size, TrainConfig *configOut,
                                                   int *stepOut)
{
    // The header only; the parameters are read straight into the model below, and the optimizer's
    // moments (twice their bytes) never.
    Result<SafetensorsHeader> file = readSafetensorsHeader(path);
    if (!file)
        return file.problems();
    const SafetensorsFile &ckpt = file->layout;
    const auto config_it = ckpt.metadata.find("config");
    if (config_it == ckpt.metadata.end())
        return Result<std::unique_ptr<Model>>::failure(path, "metadata",
                                                       path + ": not a training checkpoint (no config in __metadata__).");
    Result<TrainConfig> parsed = trainConfigFromJson(QByteArray::fromStdString(config_it->second), path + " __metadata__.config");
    if (!parsed)
        return parsed.problems();
    TrainConfig config = parsed.value();
    // Bounds, then the tensors against the config (header shapes), then the model (whose create
    // checks the memory of one sequence of the model's context), then the values (finite).
    if (Problems p = validateTrainModel(config); !p.empty()) {
        for (Problem &problem : p)
            problem.message = path + " __metadata__.config: " + problem.message;
        return p;
    }
    if (Problems p = checkCheckpointTensors(ckpt, config.model, false, path); !p.empty())
        return p;
    GenerationSize clamped = size;
    const auto context = int(std::min<std::int64_t>(config.model.max_seq_len, std::numeric_limits<int>::max()));
    clamped.prompt_tokens = std::min(clamped.prompt_tokens, context);
    clamped.cache_context = std::min(clamped.cache_context, context);
    ReferenceOptions options = generationOptions(config.options, clamped);
    options.initialize_weights = false;  // every tensor is read from the file below
    Result<std::unique_ptr<Model>> created = Model::create(config.model, options);
    if (!created)
        return created.problems();
    std::unique_ptr<Model> model = std::move(created.value());
    Problems problems;
    for (NamedTensor<float> &t : model->parameters()) {
        const SafeTensor *w = ckpt.find(t.name);
        if (!w) {
            problems.push_back({path, "missing", path + ": tensor " + t.name + " is missing."});
            continue;
        }
        Result<bool> read = w->shape == t.shape ? file.value().readF32Into(*w, t.data, t.size()) : Result<bool>(false);
        if (!read)
            return read.problems();
        if (!*read)
            problems.push_back({path, "shape", path + ": tensor " + t.name + " does not have the model's F32 shape."});
        else if (!allFinite(t.data, t.size()))
            problems.push_back({path, "non-finite", path + ": tensor " + t.name
                                                        + " holds NaN or infinite values (a diverged run); it cannot be used."});
    }
    if (!problems.empty())
        return problems;
    if (configOut)
        *configOut = config;
    if (stepOut) {
        const auto step_it = ckpt.metadata.find("step");
        std::int64_t step = 0;
        if (step_it != ckpt.metadata.end())
            std::from_chars(step_it->second.data(), step_it->second.data() + step_it->second.size(), step);
        *stepOut = int(std::clamp<std::int64_t>(step, 0, std::numeric_limits<int>::max()));
    }
    return model;
}

}  // namespace lse::reference
