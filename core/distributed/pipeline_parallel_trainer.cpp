// SPDX-License-Identifier: GPL-3.0-or-later
// PipelineParallelTrainer (see pipeline_parallel_trainer.h). The step mirrors Trainer::step:
// sample, forward and backward (here: the stage's micro-batches in schedule order), divergence
// checks, clip by the global norm, AdamW at the schedule's rate.
#include "distributed/pipeline_parallel_trainer.h"

#include "cost/estimate.h"
#include "distributed/zero_shards.h"
#include "reference/checkpoint_check.h"
#include "reference/engine_scenario.h"
#include "reference/optimizer.h"
#include "reference/schedule.h"
#include "reference/training_tokens.h"
#include "scenario/stage_layers.h"

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <random>
#include <sstream>

namespace lse::distributed {

using reference::Model;
using reference::TrainConfig;

namespace {

Problems diverged(int step, const std::string &what, double learning_rate)
{
    std::ostringstream message;
    message << "pipeline-parallel training diverged at step " << step << ": " << what << " (learning rate "
            << learning_rate << "); lower the learning rate (training.lr_max) and restart.";
    return {Problem{"loss", reference::kDivergedRule, message.str()}};
}

ParallelConfig pipelineConfig(int ranks, const std::vector<int> &stage_layers)
{
    ParallelConfig parallel;
    parallel.pp = ranks;
    parallel.stage_layers = stage_layers;
    return parallel;
}

// The engine's estimate for this run: the reference model's one-device scenario with pp = ranks,
// dp replicas, micro_batch = batch / (dp·m) and the stage split. Its PP bytes, DP bytes per stage
// and memory per stage are what each rank's measurements are set beside.
Result<Estimate> pipelineEstimate(const TrainConfig &config, int ranks, int micro_batches,
                                  const std::vector<int> &stage_layers, int dp)
{
    Scenario scenario = reference::engineScenarioFor(config, 0);
    scenario.cluster.gpus = ranks * dp;  // the ranks share this machine: one node
    scenario.cluster.gpus_per_node = ranks * dp;
    scenario.training.parallel.pp = ranks;
    scenario.training.parallel.dp = dp;
    scenario.training.parallel.stage_layers = stage_layers;
    scenario.training.micro_batch = config.batch_size / std::max(1, micro_batches * dp);
    return estimate(scenario);
}

}  // namespace

struct PipelineParallelTrainer::Impl {
    TrainConfig config;
    PipelineParallelOptions options;
    Communicator *communicator = nullptr;
    Communicator *data_parallel = nullptr;  // dp x pp; null for pp alone
    int dp = 1, dp_rank = 0;
    int ranks = 1, rank = 0, rows = 0, ctx = 0, m = 1;
    int first_layer = 0, end_layer = 0;
    std::vector<int> stage_layers;
    std::vector<PipelineWork> order;
    std::optional<TokenFile> data;
    std::int64_t train_limit = 0;
    std::unique_ptr<Model> model;
    ShardRange range;
    std::vector<ParamSpan<float>> spans;
    std::unique_ptr<AdamW<float>> optimizer;
    CosineSchedule schedule;
    std::mt19937_64 rng;
    int step = 0;
    std::vector<std::int32_t> inputs, targets;   // the global batch (batch_size, ctx)
    std::vector<std::vector<float>> stage_inputs;  // per micro-batch: the activations received
    std::vector<float> output_grad;                // the gradient received for a backward
    std::vector<double> accumulated;               // this stage's gradients summed over micro-batches
    double predicted_bytes = 0;
    double predicted_dp_bytes = 0;
    PipelineStageMemory predicted_memory;

    bool firstStage() const { return rank == 0; }
    bool lastStage() const { return rank == ranks - 1; }
    std::int64_t boundaryElements() const { return std::int64_t(rows) * ctx * config.model.d_model; }
};

PipelineParallelTrainer::PipelineParallelTrainer() : impl_(std::make_unique<Impl>()) {}
PipelineParallelTrainer::~PipelineParallelTrainer() = default;

Result<std::unique_ptr<PipelineParallelTrainer>> PipelineParallelTrainer::create(const TrainConfig &configIn,
                                                                                 const PipelineParallelOptions &options,
                                                                                 Communicator &communicator,
                                                                                 Communicator *data_parallel)
{
    TrainConfig config = configIn;
    const int ranks = communicator.size();
    const int m = options.micro_batches;
    const int dp = data_parallel ? data_parallel->size() : 1;
    Problems problems;
    if (options.schedule != parallel::PipelineScheduleKind::GPipe
        && options.schedule != parallel::PipelineScheduleKind::OneFOneB)
        problems.push_back({"schedule", "choice", "pipeline-parallel training runs gpipe or 1f1b, not "
                                                      + std::string(parallel::toString(options.schedule)) + "."});
    if (m < 1)
        problems.push_back({"micro_batches", "positive", "micro_batches must be at least 1, got " + std::to_string(m) + "."});
    else if (config.batch_size < m * dp || config.batch_size % (m * dp) != 0)
        problems.push_back({"micro_batches", "divides-batch",
                            "training.batch_size " + std::to_string(config.batch_size)
                                + " must be a positive multiple of micro_batches " + std::to_string(m)
                                + (dp > 1 ? " times dp " + std::to_string(dp) + " (every replica's micro-batch holds batch / (dp·m) sequences)."
                                          : std::string(" (every micro-batch holds batch / m sequences)."))});
    if (config.model.n_layers < ranks)
        problems.push_back({"model.n_layers", "layers-per-stage",
                            "model.n_layers " + std::to_string(config.model.n_layers) + " must be at least pp = "
                                + std::to_string(ranks) + " (every pipeline stage needs a layer)."});
    if (ranks > 1 && config.model.tied_embeddings)
        problems.push_back({"model.tied_embeddings", "unsupported",
                            "pipeline parallelism here needs untied embeddings: the first stage's embedding and the "
                            "last stage's LM head would share one matrix."});
    if (problems.empty()) {
        ParallelConfig parallel = pipelineConfig(ranks, options.stage_layers);
        Problems split = stageLayerProblems(config.model.n_layers, parallel);
        for (Problem &problem : split) {
            problem.field = problem.field == "training.stage_layers" ? "stage_layers" : problem.field;
            problems.push_back(std::move(problem));
        }
    }
    if (!problems.empty())
        return problems;
    config.options.seed = config.seed;
    config.options.max_batch = config.batch_size / (m * dp);
    config.options.context = int(config.model.max_seq_len);
    if (Problems p = reference::validateTrainConfig(config); !p.empty())
        return p;
    omp_set_num_threads(std::max(1, config.threads));

    std::unique_ptr<PipelineParallelTrainer> trainer(new PipelineParallelTrainer());
    Impl &s = *trainer->impl_;
    s.config = config;
    s.options = options;
    s.communicator = &communicator;
    s.ranks = ranks;
    s.rank = communicator.rank();
    s.m = m;
    s.data_parallel = dp > 1 ? data_parallel : nullptr;
    s.dp = dp;
    s.dp_rank = data_parallel ? data_parallel->rank() : 0;
    s.rows = config.batch_size / (m * dp);
    s.ctx = int(config.model.max_seq_len);
    s.stage_layers = pipelineLayers(config.model.n_layers, pipelineConfig(ranks, options.stage_layers)).stage_layers;
    for (int stage = 0; stage < s.rank; ++stage)
        s.first_layer += s.stage_layers[std::size_t(stage)];
    s.end_layer = s.first_layer + s.stage_layers[std::size_t(s.rank)];
    Result<std::vector<PipelineWork>> order = stageWorkOrder(options.schedule, ranks, m, s.rank);
    if (!order)
        return order.problems();
    s.order = std::move(order.value());

    // The files and training windows every trainer draws from (validation is not run here).
    Result<reference::TrainingTokens> tokens = reference::openTrainingTokens(config);
    if (!tokens)
        return tokens.problems();
    s.data = std::move(tokens.value().data);
    s.train_limit = tokens->train_limit;

    Result<std::unique_ptr<Model>> model = Model::create(config.model, config.options);
    if (!model)
        return model.problems();
    s.model = std::move(model.value());
    const std::int64_t from = s.firstStage() ? 0 : s.model->layerParameterOffset(s.first_layer);
    const std::int64_t to = s.lastStage() ? s.model->parameterCount() : s.model->layerParameterOffset(s.end_layer);
    s.range = ShardRange{from, to - from};
    s.spans = shardSpans(*s.model, s.range);
    s.optimizer = std::make_unique<AdamW<float>>(s.spans, reference::adamWConfigOf(config));
    s.schedule = CosineSchedule{config.lr_max, config.lr_min, config.warmup_steps, config.steps};
    s.rng.seed(config.seed);
    s.inputs.assign(std::size_t(config.batch_size) * std::size_t(s.ctx), 0);
    s.targets.assign(s.inputs.size(), 0);
    s.stage_inputs.assign(std::size_t(m), std::vector<float>(s.firstStage() ? 0 : std::size_t(s.boundaryElements())));
    s.output_grad.assign(s.lastStage() ? 0 : std::size_t(s.boundaryElements()), 0.0f);
    s.accumulated.assign(std::size_t(s.range.count), 0.0);
    Result<Estimate> engine = pipelineEstimate(config, ranks, m, s.stage_layers, dp);
    if (!engine)
        return engine.problems();
    s.predicted_bytes = engine->communication.pp.bytes;
    if (s.rank < int(engine->memory.per_stage.size())) {
        const StageMemory &stage = engine->memory.per_stage[std::size_t(s.rank)];
        s.predicted_memory = PipelineStageMemory{stage.params, stage.grads, stage.optimizer, stage.activations};
    }
    // dp x pp: the engine's DP bytes of this stage's GPUs (what the stage holds, per stage).
    const std::vector<double> &dp_per_stage = engine->communication.dp_bytes_per_stage;
    if (dp > 1 && s.rank < int(dp_per_stage.size()))
        s.predicted_dp_bytes = dp_per_stage[std::size_t(s.rank)];
    return trainer;
}

Result<PipelineStepReport> PipelineParallelTrainer::step()
{
    Impl &s = *impl_;
    using Clock = std::chrono::steady_clock;
    Communicator &comm = *s.communicator;
    Model &model = *s.model;
    std::vector<std::string> purposes;

    // The common clock: every rank leaves the barrier at (nearly) the same moment and measures
    // its passes from there.
    comm.barrier();
    purposes.emplace_back("step_start");
    const auto start = Clock::now();
    const auto since_start = [&](Clock::time_point t) { return std::chrono::duration<double>(t - start).count(); };

    if (Result<bool> batch = reference::sampleTrainingWindows(*s.data, s.train_limit, s.ctx, s.config.batch_size,
                                                              s.rng, s.inputs.data(), s.targets.data());
        !batch)
        return batch.problems();

    PipelineStepReport report;
    report.step = s.step + 1;
    report.learning_rate = s.schedule.at(report.step);
    report.stage = s.rank;
    report.first_layer = s.first_layer;
    report.end_layer = s.end_layer;
    std::fill(s.accumulated.begin(), s.accumulated.end(), 0.0);
    const float *grads = model.gradientData() + s.range.offset;
    const std::int64_t boundary = s.boundaryElements();
    double loss_sum = 0;
    std::vector<PipelinePass> own;
    own.reserve(s.order.size());

    for (const PipelineWork &work : s.order) {
        // This replica's rows of the global batch are [dp_rank·m·rows, (dp_rank+1)·m·rows).
        const std::size_t row = (std::size_t(s.dp_rank) * std::size_t(s.m) + std::size_t(work.micro_batch))
                                * std::size_t(s.rows) * std::size_t(s.ctx);
        const std::int32_t *tokens = s.inputs.data() + row;
        const std::int32_t *targets = s.targets.data() + row;
        const float *input = s.firstStage() ? nullptr : s.stage_inputs[std::size_t(work.micro_batch)].data();
        if (!work.backward) {
            if (!s.firstStage()) {
                comm.recv(s.stage_inputs[std::size_t(work.micro_batch)].data(), boundary, s.rank - 1);
                purposes.emplace_back("pp_recv");
            }
            const auto from = Clock::now();
            const float *output = nullptr;
            Result<float> loss = model.stageForward(s.first_layer, s.end_layer, tokens, input, targets, s.rows, s.ctx,
                                                    &output);
            const auto to = Clock::now();
            if (!loss)
                return loss.problems();
            own.push_back({s.rank, work.micro_batch, "forward", since_start(from), since_start(to)});
            if (!s.lastStage()) {
                comm.send(output, boundary, s.rank + 1);
                purposes.emplace_back("pp_send");
            }
        } else {
            if (!s.lastStage()) {
                comm.recv(s.output_grad.data(), boundary, s.rank + 1);
                purposes.emplace_back("pp_recv");
            }
            const auto from = Clock::now();
            // The model holds one micro-batch's activations: recompute this one's, then go back.
            const float *output = nullptr;
            Result<float> again = model.stageForward(s.first_layer, s.end_layer, tokens, input, targets, s.rows,
                                                     s.ctx, &output);
            if (!again)
                return again.problems();
            const float *input_grad = nullptr;
            Result<float> loss = model.stageBackward(s.first_layer, s.end_layer, tokens, input, targets,
                                                     s.lastStage() ? nullptr : s.output_grad.data(), s.rows, s.ctx,
                                                     &input_grad);
            if (!loss)
                return loss.problems();
            loss_sum += double(loss.value());
            for (std::int64_t i = 0; i < s.range.count; ++i)
                s.accumulated[std::size_t(i)] += double(grads[i]);
            const auto to = Clock::now();
            own.push_back({s.rank, work.micro_batch, "backward", since_start(from), since_start(to)});
            if (!s.firstStage()) {
                comm.send(input_grad, boundary, s.rank - 1);
                purposes.emplace_back("pp_send");
            }
        }
    }
    // Σ over micro-batches of each one's mean gradient, divided by m: the mean over the batch.
    float *stage_grads = model.gradientData() + s.range.offset;
    for (std::int64_t i = 0; i < s.range.count; ++i)
        stage_grads[i] = float(s.accumulated[std::size_t(i)] / double(s.m));
    if (s.data_parallel) {
        // dp x pp: Σ over the replicas of this stage's mean gradient / dp, the mean over the batch.
        s.data_parallel->allReduceSum(stage_grads, s.range.count);
        const float inverse = 1.0f / float(s.dp);
        for (std::int64_t i = 0; i < s.range.count; ++i)
            stage_grads[i] *= inverse;
    }
    double squares = 0;
    for (std::int64_t i = 0; i < s.range.count; ++i)
        squares += double(stage_grads[i]) * double(stage_grads[i]);
    // The loss (the last stage's) and each stage's squared gradient norm, summed over the stages.
    float scalars[2] = {s.lastStage() ? float(loss_sum / s.m) : 0.0f, float(squares)};
    comm.allReduceSum(scalars, 2);
    purposes.emplace_back("loss_and_norm");
    report.loss = double(scalars[0]);
    if (s.data_parallel) {  // this replica's loss, averaged over the replicas
        float loss = scalars[0];
        s.data_parallel->allReduceSum(&loss, 1);
        report.loss = double(loss) / double(s.dp);
    }
    if (!std::isfinite(report.loss))
        return diverged(report.step, "the loss is not finite", report.learning_rate);
    report.grad_norm = std::sqrt(double(scalars[1]));
    if (!std::isfinite(report.grad_norm))
        return diverged(report.step, "the gradient norm is not finite", report.learning_rate);
    if (s.config.grad_clip > 0)
        scaleGradientsToNorm(s.spans, report.grad_norm, s.config.grad_clip);
    s.optimizer->step(report.learning_rate);
    if (!reference::allFinite(model.parameterData() + s.range.offset, s.range.count))
        return diverged(report.step, "the update made weights NaN or infinite", report.learning_rate);
    s.step = report.step;
    report.seconds = since_start(Clock::now());

    // Every rank's passes to every rank: 2m (start, end) pairs each, as floats (µs resolution for
    // steps under ~10 s), gathered outside the pp traffic.
    const std::int64_t per_rank = 4 * std::int64_t(s.m);
    std::vector<float> times(std::size_t(per_rank * s.ranks), 0.0f);
    for (std::size_t i = 0; i < own.size(); ++i) {
        times[std::size_t(s.rank * per_rank) + 2 * i] = float(own[i].start_seconds);
        times[std::size_t(s.rank * per_rank) + 2 * i + 1] = float(own[i].end_seconds);
    }
    comm.allGather(times.data(), std::int64_t(times.size()));
    purposes.emplace_back("schedule");
    for (int rank = 0; rank < s.ranks; ++rank) {
        Result<std::vector<PipelineWork>> order = stageWorkOrder(s.options.schedule, s.ranks, s.m, rank);
        if (!order)
            return order.problems();
        for (std::size_t i = 0; i < order->size(); ++i) {
            const PipelineWork &work = (*order)[i];
            report.schedule.push_back({rank, work.micro_batch, work.backward ? "backward" : "forward",
                                       double(times[std::size_t(rank * per_rank) + 2 * i]),
                                       double(times[std::size_t(rank * per_rank) + 2 * i + 1])});
        }
    }
    report.bubble = pipelineBubble(report.schedule, s.ranks, s.m);

    // The communicator's records, one entry per kind of traffic.
    const std::vector<CollectiveRecord> records = comm.takeRecords();
    std::map<std::string, PipelineCommunicationEntry> entries;
    std::vector<std::string> order_of_keys;
    for (std::size_t i = 0; i < records.size(); ++i) {
        const CollectiveRecord &record = records[i];
        const std::string purpose = i < purposes.size() ? purposes[i] : "other";
        const std::string collective(toString(record.collective));
        const std::string key = collective + "/" + purpose + "/" + std::to_string(record.peer);
        auto [it, inserted] = entries.try_emplace(key);
        PipelineCommunicationEntry &entry = it->second;
        if (inserted) {
            order_of_keys.push_back(key);
            entry.collective = collective;
            entry.purpose = purpose;
            entry.peer = record.peer;
            if (record.collective == Collective::Send || record.collective == Collective::Recv) {
                // Forward traffic goes to the next stage; its gradients come back.
                const bool forward = (record.collective == Collective::Send) == (record.peer > s.rank);
                entry.what = forward ? "activations" : "activation gradients";
                // The engine splits its PP volume evenly into the forward and the backward sends.
                entry.predicted_bytes_per_rank = s.predicted_bytes / 2;
            }
        }
        entry.count += 1;
        entry.bytes_per_rank += double(record.collective == Collective::Recv ? record.bytes_received : record.bytes_sent);
        entry.seconds += record.seconds;
        if (record.collective == Collective::Send)
            report.measured_bytes_per_rank += double(record.bytes_sent);
    }
    for (const std::string &key : order_of_keys)
        report.communication.push_back(entries[key]);
    report.predicted_bytes_per_rank = s.predicted_bytes;
    const double owned_bytes = double(s.range.count) * double(sizeof(float));
    double saved_inputs = 0;
    for (const std::vector<float> &input : s.stage_inputs)
        saved_inputs += double(input.size() * sizeof(float));
    report.memory = PipelineStageMemory{owned_bytes, owned_bytes, double(s.optimizer->stateBytes()), saved_inputs};
    report.predicted_memory = s.predicted_memory;
    if (s.data_parallel) {
        const std::vector<CollectiveRecord> dp_records = s.data_parallel->takeRecords();
        for (std::size_t i = 0; i < dp_records.size(); ++i) {
            PipelineCommunicationEntry entry;
            entry.collective = std::string(toString(dp_records[i].collective));
            entry.purpose = i == 0 ? "dp_gradients" : "dp_loss";
            entry.count = 1;
            entry.bytes_per_rank = double(dp_records[i].bytes_sent);
            entry.seconds = dp_records[i].seconds;
            if (i == 0) {
                entry.predicted_bytes_per_rank = s.predicted_dp_bytes;
                report.dp_measured_bytes_per_rank = entry.bytes_per_rank;
            }
            report.communication.push_back(std::move(entry));
        }
        report.dp_predicted_bytes_per_rank = s.predicted_dp_bytes;
    }
    return report;
}

Model &PipelineParallelTrainer::model() { return *impl_->model; }
int PipelineParallelTrainer::currentStep() const { return impl_->step; }
const std::vector<int> &PipelineParallelTrainer::stageLayers() const { return impl_->stage_layers; }
ShardRange PipelineParallelTrainer::parameterRange() const { return impl_->range; }

}  // namespace lse::distributed
