// SPDX-License-Identifier: GPL-3.0-or-later
// DataParallelTrainer (see data_parallel_trainer.h). The step mirrors Trainer::step: sample, forward
// and backward, divergence checks, clip by the global norm, AdamW at the schedule's rate; the
// collectives sit between backward and the optimizer (and, for ZeRO, after it).
#include "distributed/data_parallel_trainer.h"

#include "distributed/data_parallel_checkpoint.h"
#include "distributed/data_parallel_prediction.h"
#include "distributed/gradient_buckets.h"
#include "distributed/zero3_parameters.h"
#include "distributed/zero_shards.h"
#include "reference/checkpoint_check.h"
#include "reference/op_trace.h"
#include "reference/optimizer.h"
#include "reference/schedule.h"
#include "reference/training_tokens.h"

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <optional>
#include <random>
#include <sstream>

namespace lse::distributed {

using reference::Model;
using reference::TrainConfig;

std::string_view toString(DataParallelMode mode)
{
    switch (mode) {
    case DataParallelMode::Naive:
        return "naive";
    case DataParallelMode::Bucketed:
        return "bucketed";
    case DataParallelMode::Zero1:
        return "zero1";
    case DataParallelMode::Zero2:
        return "zero2";
    case DataParallelMode::Zero3:
        return "zero3";
    }
    return "naive";
}

int zeroStage(DataParallelMode mode)
{
    return mode == DataParallelMode::Zero1 ? 1 : mode == DataParallelMode::Zero2 ? 2 : mode == DataParallelMode::Zero3 ? 3 : 0;
}

namespace {

bool sharded(DataParallelMode mode) { return zeroStage(mode) > 0; }

void scale(float *data, const std::vector<ShardRange> &pieces, float factor)
{
    for (const ShardRange &piece : pieces)
        for (std::int64_t i = piece.offset; i < piece.offset + piece.count; ++i)
            data[i] *= factor;
}

double sumOfSquares(const float *data, const std::vector<ShardRange> &pieces)
{
    double sum = 0;  // double and one fixed order, as globalGradNorm accumulates
    for (const ShardRange &piece : pieces)
        for (std::int64_t i = piece.offset; i < piece.offset + piece.count; ++i)
            sum += double(data[i]) * double(data[i]);
    return sum;
}

bool allFinite(const float *data, const std::vector<ShardRange> &pieces)
{
    for (const ShardRange &piece : pieces)
        if (!reference::allFinite(data + piece.offset, piece.count))
            return false;
    return true;
}

Problems diverged(int step, const std::string &what, double learning_rate)
{
    std::ostringstream message;
    message << "data-parallel training diverged at step " << step << ": " << what << " (learning rate "
            << learning_rate << "); lower the learning rate (training.lr_max) and restart.";
    return {Problem{"loss", reference::kDivergedRule, message.str()}};
}

}  // namespace

struct DataParallelTrainer::Impl {
    TrainConfig config;
    DataParallelOptions options;
    Communicator *communicator = nullptr;
    int ranks = 1, rank = 0, local_rows = 0, ctx = 0;
    std::optional<TokenFile> data;
    std::int64_t train_limit = 0;
    std::optional<TokenFile> validation;  // a separate file, or none: the tail of `data` validates
    std::int64_t val_start = 0, val_windows = 0;  // as Trainer's: first window start, window count
    std::unique_ptr<Model> model;
    ShardRange shard;                     // this rank's part of the arena (the whole arena for DP)
    std::vector<ShardRange> pieces;       // the same as arena ranges: {shard}, or ZeRO-3's piece of each group
    std::unique_ptr<Zero3Parameters> zero3;
    std::vector<ParamSpan<float>> spans;  // what this rank's optimizer updates
    std::unique_ptr<AdamW<float>> optimizer;
    std::unique_ptr<BucketedAllReduce> buckets;
    CosineSchedule schedule;
    std::mt19937_64 rng;
    int step = 0;
    std::vector<std::int32_t> inputs, targets;  // the global batch (batch_size, ctx)
    std::vector<std::string> purposes;          // what each collective of this step was for, in start order
    DataParallelPrediction prediction;
    double predicted_dp_bytes = 0;

    void noteCollective(const char *purpose) { purposes.emplace_back(purpose); }
};

DataParallelTrainer::DataParallelTrainer() : impl_(std::make_unique<Impl>()) {}
DataParallelTrainer::~DataParallelTrainer() = default;

Result<std::unique_ptr<DataParallelTrainer>> DataParallelTrainer::create(const TrainConfig &configIn,
                                                                         const DataParallelOptions &options,
                                                                         Communicator &communicator)
{
    TrainConfig config = configIn;
    const int ranks = communicator.size();
    Problems problems;
    if (ranks < 1)
        problems.push_back({"distributed.ranks", "positive", "the communicator has no ranks."});
    else if (config.batch_size < ranks || config.batch_size % ranks != 0)
        problems.push_back({"training.batch_size", "divisible-by-ranks",
                            "training.batch_size " + std::to_string(config.batch_size) +
                                " must be a positive multiple of the " + std::to_string(ranks) +
                                " ranks (it is the global batch, split evenly over them)."});
    if (options.mode == DataParallelMode::Bucketed && options.bucket_bytes < std::int64_t(sizeof(float)))
        problems.push_back({"distributed.bucket_bytes", "positive",
                            "distributed.bucket_bytes " + std::to_string(options.bucket_bytes) +
                                " must hold at least one float (4 bytes)."});
    if (options.mode == DataParallelMode::Zero3 && config.model.tied_embeddings)
        problems.push_back({"model.tied_embeddings", "unsupported-with-zero3",
                            "ZeRO-3 gathers one layer at a time, and a tied LM head reads the embedding group "
                            "inside the head's: untie the embeddings (model.tied_embeddings false) or use ZeRO-1/2."});
    if (!problems.empty())
        return problems;
    config.options.seed = config.seed;
    config.options.max_batch = config.batch_size / ranks;
    config.options.context = int(config.model.max_seq_len);
    if (Problems p = reference::validateTrainConfig(config); !p.empty())
        return p;
    // One OpenMP team per rank: omp_set_num_threads sets the calling thread's own setting, so ranks
    // on threads of one process do not fight over a shared one (Eigen's global count is left alone).
    omp_set_num_threads(std::max(1, config.threads));

    std::unique_ptr<DataParallelTrainer> trainer(new DataParallelTrainer());
    Impl &s = *trainer->impl_;
    s.config = config;
    s.options = options;
    s.communicator = &communicator;
    s.ranks = ranks;
    s.rank = communicator.rank();
    s.local_rows = config.batch_size / ranks;
    s.ctx = int(config.model.max_seq_len);

    // The files and windows of Trainer::create: validation_path, or the last 10% of the data.
    Result<reference::TrainingTokens> tokens = reference::openTrainingTokens(config);
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
    const std::int64_t P = s.model->parameterCount();
    if (options.mode == DataParallelMode::Zero3) {
        Impl *state = &s;
        s.zero3 = std::make_unique<Zero3Parameters>(*s.model, communicator, ranks, s.rank,
                                                    [state](const char *purpose) { state->noteCollective(purpose); });
        for (const Zero3Group &group : s.zero3->groups())
            s.pieces.push_back(group.own);
        s.shard = ShardRange{0, s.zero3->shardElements()};  // its size; the pieces say where
        s.spans = zero3ShardSpans(*s.model, s.zero3->groups());
        // Every rank initialised the whole model from the same seed; from here each holds its shard.
        s.zero3->releaseAll();
        s.zero3->attach();
    } else {
        s.shard = sharded(options.mode) ? shardRange(P, ranks, s.rank) : ShardRange{0, P};
        s.pieces = {s.shard};
        s.spans = shardSpans(*s.model, s.shard);
    }
    s.optimizer = std::make_unique<AdamW<float>>(s.spans, adamWConfigOf(config));
    if (options.mode == DataParallelMode::Bucketed) {
        const std::int64_t bucket_elements = options.bucket_bytes / std::int64_t(sizeof(float));
        s.buckets = std::make_unique<BucketedAllReduce>(communicator, s.model->gradientData(),
                                                        gradientBuckets(P, bucket_elements));
        BucketedAllReduce *buckets = s.buckets.get();
        s.model->setGradientReadyCallback([buckets](std::int64_t ready_from) { buckets->gradientsReadyFrom(ready_from); });
    }
    s.schedule = CosineSchedule{config.lr_max, config.lr_min, config.warmup_steps, config.steps};
    s.rng.seed(config.seed);
    s.inputs.assign(std::size_t(config.batch_size) * std::size_t(s.ctx), 0);
    s.targets.assign(s.inputs.size(), 0);
    Result<DataParallelPrediction> prediction = predictDataParallel(config, ranks, zeroStage(options.mode));
    if (!prediction)
        return prediction.problems();
    s.prediction = prediction.value();
    Result<DataParallelPrediction> dp_prediction = predictDataParallel(config, ranks, 0);
    if (!dp_prediction)
        return dp_prediction.problems();
    s.predicted_dp_bytes = dp_prediction->bytes_per_rank;
    return trainer;
}

Result<DataParallelStepReport> DataParallelTrainer::step()
{
    Impl &s = *impl_;
    using Clock = std::chrono::steady_clock;
    const auto start = Clock::now();
    Communicator &comm = *s.communicator;
    Model &model = *s.model;
    const std::int64_t P = model.parameterCount();
    float *grads = model.gradientData();
    const float inverse_ranks = 1.0f / float(s.ranks);
    s.purposes.clear();
    // A trace being recorded (reference/op_trace.h) stamps this step's events with its number.
    reference::OpTraceLog *trace = model.profiler().trace();
    if (trace)
        trace->setStep(s.step + 1);
    if (s.zero3)
        s.zero3->beginStep(std::int64_t(s.optimizer->stateBytes()) / std::int64_t(sizeof(float)));

    // Every rank draws the whole global batch, so the generator advances as the single-process
    // trainer's does, and trains on its own rows of it.
    if (Result<bool> batch = reference::sampleTrainingWindows(*s.data, s.train_limit, s.ctx, s.config.batch_size,
                                                              s.rng, s.inputs.data(), s.targets.data());
        !batch)
        return batch.problems();
    const std::size_t first_row = std::size_t(s.rank) * std::size_t(s.local_rows) * std::size_t(s.ctx);
    Result<float> loss = model.forwardBackward(s.inputs.data() + first_row, s.targets.data() + first_row,
                                               s.local_rows, s.ctx);
    if (!loss)
        return loss.problems();

    DataParallelStepReport report;
    report.step = s.step + 1;
    report.learning_rate = s.schedule.at(report.step);

    switch (s.options.mode) {
    case DataParallelMode::Naive:
        comm.allReduceSum(grads, P);
        s.noteCollective("gradients");
        break;
    case DataParallelMode::Bucketed: {
        const std::size_t count = s.buckets->bucketCount();
        report.buckets = int(count);
        report.buckets_started_in_backward = int(s.buckets->finish());
        for (std::size_t b = 0; b < count; ++b)
            s.noteCollective("gradients");
        break;
    }
    case DataParallelMode::Zero1:
    case DataParallelMode::Zero2:
        comm.reduceScatterSum(grads, P);
        s.noteCollective("gradients");
        break;
    case DataParallelMode::Zero3:
        break;  // each group's gradients were reduce-scattered as backward finished them
    }
    // Σ over ranks of each rank's mean gradient, divided by n: the mean over the global batch.
    scale(grads, s.pieces, inverse_ranks);

    // The loss and (sharded modes) the squared norm of this rank's gradient shard, summed over the
    // ranks in one small all-reduce; the DP modes hold the whole gradient and take its norm locally,
    // exactly as the single-process trainer does.
    float scalars[2] = {loss.value(), sharded(s.options.mode) ? float(sumOfSquares(grads, s.pieces)) : 0.0f};
    comm.allReduceSum(scalars, 2);
    s.noteCollective("loss_and_norm");
    report.loss = double(scalars[0]) / s.ranks;
    if (!std::isfinite(report.loss))
        return diverged(report.step, "the loss is not finite", report.learning_rate);
    const double max_norm = s.config.grad_clip;
    if (sharded(s.options.mode)) {
        report.grad_norm = std::sqrt(double(scalars[1]));
        if (max_norm > 0 && std::isfinite(report.grad_norm))
            scaleGradientsToNorm(s.spans, report.grad_norm, max_norm);
    } else {
        report.grad_norm = max_norm > 0 ? clipGradNorm(s.spans, max_norm) : globalGradNorm(s.spans);
    }
    if (!std::isfinite(report.grad_norm))
        return diverged(report.step, "the gradient norm is not finite", report.learning_rate);
    const auto optimizer_start = Clock::now();
    s.optimizer->step(report.learning_rate);
    if (trace)  // this rank's spans: its shard under ZeRO, every parameter otherwise
        reference::traceOptimizerUpdate(*trace, s.shard.count, optimizer_start, Clock::now());
    if (sharded(s.options.mode) && !s.zero3) {
        comm.allGather(model.parameterData(), P);
        s.noteCollective("parameters");
    }
    if (!allFinite(model.parameterData(), s.pieces))
        return diverged(report.step, "the update made weights NaN or infinite", report.learning_rate);
    s.step = report.step;
    const auto end = Clock::now();
    report.seconds = std::chrono::duration<double>(end - start).count();

    const std::vector<CollectiveRecord> records = comm.takeRecords();
    for (std::size_t i = 0; i < records.size(); ++i) {
        const CollectiveRecord &record = records[i];
        if (trace)  // on its own thread row: when this rank's communication thread ran it
            trace->addSpan(reference::TraceEventKind::Communication, toString(record.collective).data() /* a literal */,
                           record.ran_from, record.ran_to, 0, double(record.bytes_sent),
                           reference::OpShape::elementwise(reference::OpClass::Communication, record.elements, 1));
        CommunicationEntry entry;
        entry.collective = std::string(toString(record.collective));
        entry.purpose = i < s.purposes.size() ? s.purposes[i] : "other";
        entry.bytes_per_rank = double(record.bytes_sent);
        entry.seconds = record.seconds;
        entry.exposed_seconds = record.waited_seconds;  // a blocking collective counts as waited throughout
        if (entry.purpose != "loss_and_norm")
            report.measured_bytes_per_rank += entry.bytes_per_rank;
        report.communication.push_back(std::move(entry));
    }
    if (trace) {
        double flops = 0;  // the forward and backward calls of this step, as Trainer's step reports
        for (const reference::TraceEvent &e : trace->events())
            if (e.kind == reference::TraceEventKind::Operator && e.step == report.step)
                flops += e.flops;
        trace->addSpan(reference::TraceEventKind::Step, "ProfilerStep", start, end, flops);
    }
    report.memory = memory();
    report.predicted_bytes_per_rank = s.prediction.bytes_per_rank;
    report.predicted_dp_bytes_per_rank = s.predicted_dp_bytes;
    report.predicted_memory = s.prediction.memory;
    // Evaluation when Trainer::step evaluates, outside the step's time and communication.
    if (s.config.eval_every > 0 && (report.step % s.config.eval_every == 0 || report.step == s.config.steps)) {
        Result<double> validation = validationLoss();
        if (!validation)
            return validation.problems();
        if (!std::isfinite(validation.value()))
            return diverged(report.step, "the validation loss is not finite", report.learning_rate);
        report.validation_loss = validation.value();
    }
    return report;
}

Result<double> DataParallelTrainer::validationLoss()
{
    Impl &s = *impl_;
    // Not a step's work: a profiled (traced) step's records and trace keep the step alone, as
    // Trainer::validationLoss keeps them.
    reference::OpProfiler &profiler = s.model->profiler();
    const bool profiled = profiler.enabled();
    profiler.setEnabled(false);
    struct Restore {
        reference::OpProfiler &profiler;
        bool on;
        ~Restore() { profiler.setEnabled(on); }
    } restore{profiler, profiled};
    // Rank 0 evaluates; the others wait in the broadcast. status[0] = 1 when it succeeded.
    float status[2] = {0.0f, 0.0f};
    Problems problems;
    // ZeRO-3: every rank gathers the whole model first (rank 0 alone could not gather a layer).
    if (s.zero3) {
        s.zero3->detach();
        s.zero3->gatherAll();
    }
    if (s.rank == 0) {
        const TokenFile &file = s.validation ? *s.validation : *s.data;
        std::int64_t remaining = std::min(std::int64_t(s.config.eval_batches) * s.config.batch_size, s.val_windows);
        std::int64_t next = s.val_start, rows = 0;
        double sum = 0;
        while (remaining > 0 && problems.empty()) {
            // The model's workspace holds one rank's slice of the batch.
            const int b = int(std::min<std::int64_t>(remaining, s.local_rows));
            if (Result<bool> read = file.sequentialBatch(next, b, s.ctx, s.inputs.data(), s.targets.data()); !read) {
                problems = read.problems();
                break;
            }
            Result<float> loss = s.model->loss(s.inputs.data(), s.targets.data(), b, s.ctx);
            if (!loss) {
                problems = loss.problems();
                break;
            }
            sum += double(loss.value()) * b;  // every row holds ctx targets: rows weight the means
            rows += b;
            next += std::int64_t(b) * s.ctx;
            remaining -= b;
        }
        if (problems.empty() && rows > 0) {
            status[0] = 1.0f;
            status[1] = float(sum / double(rows));
        }
    }
    if (s.zero3) {
        s.zero3->releaseAll();
        s.zero3->attach();
    }
    s.communicator->broadcast(status, 2, 0);
    s.communicator->takeRecords();  // evaluation traffic is not the step's
    if (status[0] != 1.0f) {
        if (problems.empty())
            problems.push_back({"validation", "failed", "rank 0 could not compute the validation loss."});
        return problems;
    }
    return double(status[1]);
}

Result<bool> DataParallelTrainer::saveCheckpoint(const std::string &path)
{
    Impl &s = *impl_;
    Model &model = *s.model;
    const std::int64_t P = model.parameterCount();
    ArenaMoments moments;
    scatterSpanMoments(model, s.spans, s.optimizer->exportState(), moments);
    if (s.zero3) {
        // Each rank's moments cover its piece of every group, which is what each group's
        // all-gather collects; the parameters are gathered whole for the file.
        s.zero3->gatherAll();
        for (const Zero3Group &group : s.zero3->groups()) {
            s.communicator->allGather(moments.m.data() + group.whole.offset, group.whole.count);
            s.communicator->allGather(moments.v.data() + group.whole.offset, group.whole.count);
        }
    } else if (sharded(s.options.mode)) {
        // Each rank's moments cover its shard (shardRange(P, n, rank)), which is what allGather
        // collects, so afterwards every rank holds the whole optimizer state.
        s.communicator->allGather(moments.m.data(), P);
        s.communicator->allGather(moments.v.data(), P);
    }
    Result<bool> written = true;
    float ok = 1.0f;
    if (s.rank == 0) {
        CheckpointHeader header;
        header.config = s.config;
        header.step = s.step;
        header.optimizer_step = s.optimizer->stepCount();
        header.rng = s.rng;
        written = writeDataParallelCheckpoint(path, model, moments, header);
        ok = written ? 1.0f : 0.0f;
    }
    if (s.zero3)
        s.zero3->releaseAll();
    s.communicator->broadcast(&ok, 1, 0);
    s.communicator->takeRecords();  // checkpoint traffic is not the next step's
    if (s.rank != 0 && ok != 1.0f)
        return Result<bool>::failure(path, "rank0", path + ": rank 0 could not write the checkpoint.");
    return written;
}

Result<std::unique_ptr<DataParallelTrainer>> DataParallelTrainer::resume(const std::string &path,
                                                                         const TrainConfig &overrides,
                                                                         const DataParallelOptions &options,
                                                                         Communicator &communicator)
{
    Result<SafetensorsFile> file = readSafetensors(path);
    if (!file)
        return file.problems();
    Result<CheckpointHeader> header = readCheckpointHeader(file.value(), path, overrides);
    if (!header)
        return header.problems();
    // Sizes first, then the tensors against the shapes the config implies, as Trainer::resume does.
    if (Problems p = reference::validateTrainConfig(header->config); !p.empty())
        return p;
    if (Problems p = reference::checkCheckpointTensors(file.value(), header->config.model, true, path); !p.empty())
        return p;
    Result<std::unique_ptr<DataParallelTrainer>> created = create(header->config, options, communicator);
    if (!created)
        return created.problems();
    Impl &s = *created.value()->impl_;
    ArenaMoments moments;
    if (Result<bool> loaded = loadCheckpointArenas(file.value(), path, *s.model, moments); !loaded)
        return loaded.problems();
    if (Result<bool> imported = s.optimizer->importState(spanMomentsOf(*s.model, s.spans, moments, header->optimizer_step));
        !imported)
        return imported.problems();
    if (s.zero3)
        s.zero3->releaseAll();  // the file held every parameter; a ZeRO-3 rank keeps its shard
    s.step = header->step;
    s.rng = header->rng;
    return created;
}

Model &DataParallelTrainer::model() { return *impl_->model; }

void DataParallelTrainer::gatherFullParameters()
{
    if (!impl_->zero3)
        return;
    impl_->zero3->gatherAll();
    impl_->communicator->takeRecords();  // not a step's communication
}
int DataParallelTrainer::currentStep() const { return impl_->step; }

DataParallelMemory DataParallelTrainer::memory() const
{
    const Impl &s = *impl_;
    const double bytes = sizeof(float);
    DataParallelMemory memory;
    memory.params = bytes * double(s.model->parameterCount());
    memory.gradient_arena = memory.params;
    memory.grads = s.options.mode == DataParallelMode::Zero2 ? bytes * double(s.shard.count) : memory.gradient_arena;
    memory.optimizer_states = double(s.optimizer->stateBytes());
    memory.model_state_peak = memory.params + memory.grads + memory.optimizer_states;
    if (s.zero3) {
        // Between steps a ZeRO-3 rank holds its shard of parameters and gradients; within the
        // step the gathered groups and unreduced gradients come and go (zero3_parameters.h).
        memory.params = memory.grads = bytes * double(s.zero3->shardElements());
        const Zero3MemoryPeaks &peaks = s.zero3->peaks();
        memory.gathered_params_peak = bytes * double(peaks.gathered_parameters);
        memory.full_grads_peak = bytes * double(peaks.full_gradients);
        memory.model_state_peak = bytes * double(peaks.model_state);
        memory.resident_model_state_peak = double(peaks.resident_arena_bytes) + memory.optimizer_states;
    }
    return memory;
}

}  // namespace lse::distributed
