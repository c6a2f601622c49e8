// SPDX-License-Identifier: GPL-3.0-or-later
// TensorParallelTrainer (see tensor_parallel_trainer.h). The step mirrors Trainer::step: sample,
// forward and backward (with the model's f/g all-reduces inside), clip by the global norm, AdamW
// at the schedule's rate.
#include "distributed/tensor_parallel_trainer.h"

#include "cost/estimate.h"
#include "parallel/device_mesh.h"
#include "parallel/model_parallel_communication.h"
#include "reference/checkpoint_check.h"
#include "reference/engine_scenario.h"
#include "reference/optimizer.h"
#include "reference/schedule.h"
#include "reference/training_tokens.h"

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <random>
#include <sstream>

namespace lse::distributed {

using reference::TrainConfig;

Scenario tensorParallelScenario(const TrainConfig &config, int tp, bool sequence_parallel, int dp)
{
    Scenario scenario = reference::engineScenarioFor(config, 0);
    scenario.cluster.gpus = tp * dp;  // the ranks share this machine: one node
    scenario.cluster.gpus_per_node = tp * dp;
    scenario.training.parallel.tp = tp;
    scenario.training.parallel.dp = dp;
    scenario.training.parallel.sequence_parallel = sequence_parallel;
    scenario.training.micro_batch = config.batch_size / dp;  // every replica runs its share of the batch
    return scenario;
}

namespace {

Problems diverged(int step, const std::string &what, double learning_rate)
{
    std::ostringstream message;
    message << "tensor-parallel training diverged at step " << step << ": " << what << " (learning rate "
            << learning_rate << "); lower the learning rate (training.lr_max) and restart.";
    return {Problem{"loss", reference::kDivergedRule, message.str()}};
}

// The engine's TP events per occurrence (bytes) by their wording, and its TP volume per step.
struct EnginePrediction {
    std::vector<parallel::CommunicationEvent> events;
    double tp_bytes = 0;
    double dp_bytes = 0;
    std::optional<parallel::CommunicationEvent> dp_event;  // the gradient all-reduce (dp > 1)
    TensorParallelMemory memory;
};

Result<EnginePrediction> predict(const TrainConfig &config, int tp, bool sequence_parallel, int dp)
{
    const Scenario scenario = tensorParallelScenario(config, tp, sequence_parallel, dp);
    const Result<Estimate> estimated = estimate(scenario);
    if (!estimated)
        return estimated.problems();
    EnginePrediction prediction;
    // The layers' traffic and the vocabulary-parallel layers' (and SP's norm gradients).
    prediction.tp_bytes = estimated->communication.tp.bytes + estimated->communication.tp_outside_layers.total();
    // What this stage's GPUs hold (pp = 1: the one stage), the tp-split tensors as the model splits
    // them and the norms whole: the bytes its DP all-reduce sends.
    prediction.dp_bytes = dp > 1 && !estimated->communication.dp_bytes_per_stage.empty()
        ? estimated->communication.dp_bytes_per_stage.front()
        : 0.0;
    prediction.memory.params = double(estimated->memory.params);
    prediction.memory.grads = double(estimated->memory.grads);
    prediction.memory.optimizer_states = double(estimated->memory.optimizer);
    prediction.memory.activations = double(estimated->memory.activations);
    if (tp * dp > 1) {
        Result<parallel::DeviceMesh> mesh = parallel::makeDeviceMesh(scenario.cluster, scenario.training.parallel);
        if (!mesh)
            return mesh.problems();
        for (parallel::CommunicationEvent &event : parallel::communicationEvents(scenario, mesh.value()))
            if (event.dim == parallel::MeshDim::TP)
                prediction.events.push_back(std::move(event));
            else if (event.dim == parallel::MeshDim::DP && !prediction.dp_event)
                prediction.dp_event = std::move(event);
    }
    return prediction;
}

}  // namespace

struct TensorParallelTrainer::Impl {
    TrainConfig config;
    Communicator *communicator = nullptr;
    Communicator *data_parallel = nullptr;  // dp x tp; null for tp alone
    int tp = 1, rank = 0, ctx = 0;
    int dp = 1, dp_rank = 0, local_rows = 0;  // local_rows: this replica's rows of the global batch
    std::optional<TokenFile> data;
    std::int64_t train_limit = 0;
    std::optional<TokenFile> validation;
    std::int64_t val_start = 0, val_windows = 0;
    std::unique_ptr<TensorParallelModel> model;
    std::vector<ParamSpan<float>> spans;            // every local tensor
    std::vector<ParamSpan<float>> sharded_spans;    // the split ones (their norm is summed over ranks)
    std::vector<ParamSpan<float>> replicated_spans; // counted once
    std::unique_ptr<AdamW<float>> optimizer;
    CosineSchedule schedule;
    std::mt19937_64 rng;
    int step = 0;
    std::vector<std::int32_t> inputs, targets;
    EnginePrediction prediction;
};

TensorParallelTrainer::TensorParallelTrainer() : impl_(std::make_unique<Impl>()) {}
TensorParallelTrainer::~TensorParallelTrainer() = default;

Result<std::unique_ptr<TensorParallelTrainer>> TensorParallelTrainer::create(const TrainConfig &configIn,
                                                                             Communicator &communicator,
                                                                             bool sequence_parallel,
                                                                             Communicator *data_parallel)
{
    TrainConfig config = configIn;
    const int tp = communicator.size();
    const int dp = data_parallel ? data_parallel->size() : 1;
    if (config.batch_size < dp || config.batch_size % dp != 0)
        return Problems{{"training.batch_size", "divisible-by-ranks",
                         "training.batch_size " + std::to_string(config.batch_size) + " must be a multiple of dp "
                             + std::to_string(dp) + " (the global batch is split evenly over the replicas)."}};
    config.options.seed = config.seed;
    config.options.max_batch = config.batch_size / dp;
    config.options.context = int(config.model.max_seq_len);
    if (Problems p = validateForTensorParallel(config.model, config.options, tp, sequence_parallel); !p.empty())
        return p;
    if (Problems p = reference::validateTrainConfig(config); !p.empty())
        return p;
    omp_set_num_threads(std::max(1, config.threads));

    std::unique_ptr<TensorParallelTrainer> trainer(new TensorParallelTrainer());
    Impl &s = *trainer->impl_;
    s.config = config;
    s.communicator = &communicator;
    s.tp = tp;
    s.rank = communicator.rank();
    s.data_parallel = dp > 1 ? data_parallel : nullptr;
    s.dp = dp;
    s.dp_rank = data_parallel ? data_parallel->rank() : 0;
    s.local_rows = config.batch_size / dp;
    s.ctx = int(config.model.max_seq_len);
    Result<reference::TrainingTokens> tokens = reference::openTrainingTokens(config);
    if (!tokens)
        return tokens.problems();
    s.data = std::move(tokens.value().data);
    s.validation = std::move(tokens.value().validation);
    s.train_limit = tokens->train_limit;
    s.val_start = tokens->val_start;
    s.val_windows = tokens->val_windows;

    Result<std::unique_ptr<TensorParallelModel>> model = TensorParallelModel::create(config.model, config.options, communicator, sequence_parallel);
    if (!model)
        return model.problems();
    s.model = std::move(model.value());
    for (TensorParallelTensor &t : s.model->tensors()) {
        const ParamSpan<float> span{t.data, t.grad, std::size_t(t.localSize()), true};
        s.spans.push_back(span);
        (t.split == TensorSplit::Replicated ? s.replicated_spans : s.sharded_spans).push_back(span);
    }
    s.optimizer = std::make_unique<AdamW<float>>(s.spans, reference::adamWConfigOf(config));
    s.schedule = CosineSchedule{config.lr_max, config.lr_min, config.warmup_steps, config.steps};
    s.rng.seed(config.seed);
    s.inputs.assign(std::size_t(config.batch_size) * std::size_t(s.ctx), 0);
    s.targets.assign(s.inputs.size(), 0);
    Result<EnginePrediction> prediction = predict(config, tp, sequence_parallel, dp);
    if (!prediction)
        return prediction.problems();
    s.prediction = std::move(prediction.value());
    return trainer;
}

Result<TensorParallelStepReport> TensorParallelTrainer::step()
{
    Impl &s = *impl_;
    using Clock = std::chrono::steady_clock;
    const auto start = Clock::now();
    Communicator &comm = *s.communicator;
    TensorParallelModel &model = *s.model;
    model.takePurposes();
    if (Result<bool> batch = reference::sampleTrainingWindows(*s.data, s.train_limit, s.ctx, s.config.batch_size, s.rng,
                                                              s.inputs.data(), s.targets.data());
        !batch)
        return batch.problems();
    // Every replica drew the whole global batch (the generator advances as one process's) and
    // trains on its own rows of it.
    const std::size_t first_row = std::size_t(s.dp_rank) * std::size_t(s.local_rows) * std::size_t(s.ctx);
    Result<float> loss = model.forwardBackward(s.inputs.data() + first_row, s.targets.data() + first_row, s.local_rows, s.ctx);
    if (!loss)
        return loss.problems();

    TensorParallelStepReport report;
    report.step = s.step + 1;
    report.learning_rate = s.schedule.at(report.step);
    report.loss = double(loss.value());  // the loss's reductions gave every rank the same rows' losses
    if (s.data_parallel) {
        // Σ over replicas of each one's mean gradient / dp: the mean over the global batch (each
        // replica's rows hold the same number of targets). Then the loss the same way.
        Communicator &dp = *s.data_parallel;
        const std::int64_t count = model.localParameterCount();
        float *grads = model.gradientData();
        dp.allReduceSum(grads, count);
        const float inverse = 1.0f / float(s.dp);
        for (std::int64_t i = 0; i < count; ++i)
            grads[i] *= inverse;
        float loss_sum = loss.value();
        dp.allReduceSum(&loss_sum, 1);
        report.loss = double(loss_sum) / double(s.dp);
    }
    if (!std::isfinite(report.loss))
        return diverged(report.step, "the loss is not finite", report.learning_rate);
    // ‖g‖² = Σ_ranks ‖sharded part‖² + ‖replicated part‖² (the latter equal on every rank).
    const double sharded_norm = globalGradNorm(s.sharded_spans);
    float sharded_squares = float(sharded_norm * sharded_norm);
    comm.allReduceSum(&sharded_squares, 1);
    model.notePurpose("grad_norm");
    const double replicated_norm = globalGradNorm(s.replicated_spans);
    report.grad_norm = std::sqrt(double(sharded_squares) + replicated_norm * replicated_norm);
    if (!std::isfinite(report.grad_norm))
        return diverged(report.step, "the gradient norm is not finite", report.learning_rate);
    if (s.config.grad_clip > 0)
        scaleGradientsToNorm(s.spans, report.grad_norm, s.config.grad_clip);
    s.optimizer->step(report.learning_rate);
    if (!reference::allFinite(model.parameterData(), model.localParameterCount()))
        return diverged(report.step, "the update made weights NaN or infinite", report.learning_rate);
    s.step = report.step;
    report.seconds = std::chrono::duration<double>(Clock::now() - start).count();

    const std::vector<CollectiveRecord> records = comm.takeRecords();
    const std::vector<TensorParallelCollective> purposes = model.takePurposes();
    for (std::size_t i = 0; i < records.size(); ++i) {
        TensorParallelCommunication entry;
        entry.collective = std::string(toString(records[i].collective));
        entry.purpose = i < purposes.size() ? purposes[i].purpose : "other";
        entry.where = i < purposes.size() ? purposes[i].where : "";
        entry.bytes_per_rank = double(records[i].bytes_sent);
        entry.seconds = records[i].seconds;
        for (const parallel::CommunicationEvent &event : s.prediction.events)
            if (!entry.where.empty() && event.where == entry.where)
                entry.predicted_bytes_per_rank = event.bytes_per_rank;
        if (entry.purpose != "grad_norm")  // the engine counts every other TP collective
            report.measured_bytes_per_rank += entry.bytes_per_rank;
        report.communication.push_back(std::move(entry));
    }
    report.predicted_bytes_per_rank = s.prediction.tp_bytes;
    if (s.data_parallel) {
        const std::vector<CollectiveRecord> dp_records = s.data_parallel->takeRecords();
        for (std::size_t i = 0; i < dp_records.size(); ++i) {
            TensorParallelCommunication entry;
            entry.collective = std::string(toString(dp_records[i].collective));
            entry.purpose = i == 0 ? "dp_gradients" : "dp_loss";
            entry.bytes_per_rank = double(dp_records[i].bytes_sent);
            entry.seconds = dp_records[i].seconds;
            if (i == 0) {
                entry.where = s.prediction.dp_event ? s.prediction.dp_event->where : "";
                entry.predicted_bytes_per_rank = s.prediction.dp_bytes;
                report.dp_measured_bytes_per_rank = entry.bytes_per_rank;
            }
            report.communication.push_back(std::move(entry));
        }
        report.dp_predicted_bytes_per_rank = s.prediction.dp_bytes;
    }
    report.memory.params = model.parameterBytes();
    report.memory.grads = model.parameterBytes();
    report.memory.optimizer_states = double(s.optimizer->stateBytes());
    report.memory.activations = model.activationBytes();
    report.predicted_memory = s.prediction.memory;
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

Result<double> TensorParallelTrainer::validationLoss()
{
    Impl &s = *impl_;
    // Every rank evaluates the same windows (the forward needs every rank's heads).
    const TokenFile &file = s.validation ? *s.validation : *s.data;
    std::int64_t remaining = std::min(std::int64_t(s.config.eval_batches) * s.config.batch_size, s.val_windows);
    std::int64_t next = s.val_start, rows = 0;
    double sum = 0;
    Problems problems;
    while (remaining > 0) {
        const int b = int(std::min<std::int64_t>(remaining, s.local_rows));  // the workspace's rows
        if (Result<bool> read = file.sequentialBatch(next, b, s.ctx, s.inputs.data(), s.targets.data()); !read) {
            problems = read.problems();
            break;
        }
        Result<float> loss = s.model->loss(s.inputs.data(), s.targets.data(), b, s.ctx);
        if (!loss) {
            problems = loss.problems();
            break;
        }
        sum += double(loss.value()) * b;
        rows += b;
        next += std::int64_t(b) * s.ctx;
        remaining -= b;
    }
    s.communicator->takeRecords();  // evaluation traffic is not the step's
    s.model->takePurposes();
    if (!problems.empty())
        return problems;
    return rows > 0 ? sum / double(rows) : 0.0;
}

TensorParallelModel &TensorParallelTrainer::model() { return *impl_->model; }
int TensorParallelTrainer::currentStep() const { return impl_->step; }

}  // namespace lse::distributed
