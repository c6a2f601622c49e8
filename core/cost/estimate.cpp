// SPDX-License-Identifier: GPL-3.0-or-later
#include "cost/estimate.h"

#include "cost/estimate_parts.h"
#include "cost/stage_parameters.h"
#include "ops/operator_list.h"
#include "performance/step_prediction.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

namespace lse {

double trainingSeconds(double flops, int gpus, double peak_flops_per_gpu, double mfu)
{
    return flops / (double(gpus) * peak_flops_per_gpu * mfu);
}

namespace detail {

StepShape stepShape(const Scenario &scenario)
{
    const TrainingConfig &training = scenario.training;
    StepShape shape;
    shape.micro_batches = training.global_batch / (training.micro_batch * training.parallel.dp);
    shape.local_seq_len = training.seq_len / training.parallel.cp;
    shape.peak_flops = scenario.cluster.peak_flops_per_second_override.value_or(
        scenario.cluster.accelerator.dense_peak.forDType(training.precision.matmul_dtype));
    return shape;
}

OperatorShapes operatorShapes(const Scenario &scenario, const StepShape &shape, bool full_sequence)
{
    const TrainingConfig &training = scenario.training;
    OperatorShapes shapes;
    shapes.seq_len = full_sequence ? training.seq_len : shape.local_seq_len;
    shapes.micro_batch = training.micro_batch;
    shapes.activation_bytes = bytesPerElement(training.precision.activation_dtype);
    shapes.weight_bytes = bytesPerElement(training.precision.weight_dtype);
    shapes.flash_attention = training.flash_attention;
    shapes.dropout = training.dropout;
    shapes.causal_attention_flops = training.attention_flops == AttentionFlops::Causal;
    return shapes;
}

}  // namespace detail

namespace {

// Collects the name of every estimate figure that is NaN, infinite or out of range.
class FiniteCheck {
public:
    void operator()(const char *field, double value)
    {
        if (!std::isfinite(value) || std::fabs(value) > 1e300)
            problems_.push_back({std::string("result.") + field, "finite",
                                 std::string("result.") + field + " is not a finite number; check the inputs"});
    }
    Problems take() { return std::move(problems_); }

private:
    Problems problems_;
};

TimeEstimate estimateTime(const Scenario &scenario, const FlopsEstimate &flops)
{
    const TrainingConfig &training = scenario.training;
    const int gpus = scenario.cluster.gpus;
    const double peak_flops = detail::stepShape(scenario).peak_flops;
    TimeEstimate time;
    time.peak_flops_per_gpu = peak_flops;
    time.mfu = training.mfu;
    time.hfu = training.mfu * flops.hardware_train_per_token / flops.train_per_token;
    time.seconds = trainingSeconds(flops.time_basis, gpus, peak_flops, training.mfu);
    time.days = time.seconds / 86400.0;
    time.gpu_hours = time.seconds * gpus / 3600.0;
    time.cost = time.gpu_hours * scenario.cluster.price_per_gpu_hour;
    time.tokens_per_second = double(training.tokens) / time.seconds;
    const double tokens_per_step = double(training.global_batch) * double(training.seq_len);
    time.steps = double(training.tokens) / tokens_per_step;
    time.step_seconds = time.seconds / time.steps;
    return time;
}

bool finiteFigure(double value) { return std::isfinite(value) && std::fabs(value) <= 1e300; }

// The first time figure that is not a finite number, or nullptr.
const char *nonFiniteTimeFigure(const TimeEstimate &time)
{
    const std::pair<const char *, double> figures[] = {
        {"result.time.seconds", time.seconds},         {"result.time.cost", time.cost},
        {"result.time.tokens_per_second", time.tokens_per_second}, {"result.time.step_seconds", time.step_seconds},
    };
    for (const auto &[name, value] : figures)
        if (!finiteFigure(value))
            return name;
    return nullptr;
}

// Validation accepts any positive peak, MFU and price, yet 1e-308 FLOP/s or an MFU of 1e-320 make
// the time infinite. The input to blame is the one whose typical value alone makes every time figure
// finite again; the problem names that input field (the user set it), not the result.
Problems timeInputProblems(const Scenario &scenario, const FlopsEstimate &flops)
{
    const char *figure = nonFiniteTimeFigure(estimateTime(scenario, flops));
    if (!figure)
        return {};
    struct Input {
        std::string field;
        double value;
        void (*typical)(Scenario &);  // sets the input to a typical value
    };
    const std::string dtype(toString(scenario.training.precision.matmul_dtype));
    const Input inputs[] = {
        {scenario.cluster.peak_flops_per_second_override ? "cluster.peak_flops_per_second_override"
                                                         : "cluster.accelerator.dense_peak." + dtype,
         detail::stepShape(scenario).peak_flops,
         [](Scenario &s) { s.cluster.peak_flops_per_second_override = 1e15; }},  // an H100's bf16 peak
        {"training.mfu", scenario.training.mfu, [](Scenario &s) { s.training.mfu = 0.4; }},
        {"cluster.price_per_gpu_hour", scenario.cluster.price_per_gpu_hour,
         [](Scenario &s) { s.cluster.price_per_gpu_hour = 2; }},
    };
    Problems problems;
    std::vector<std::string> fields;
    for (const Input &input : inputs) {
        fields.push_back(input.field);
        Scenario typical = scenario;
        input.typical(typical);
        if (nonFiniteTimeFigure(estimateTime(typical, flops)))
            continue;
        char value[32];
        std::snprintf(value, sizeof value, "%g", input.value);
        problems.push_back({input.field, "finite_result",
                            input.field + " is " + value + ": with it " + figure
                                + " is not a finite number; give a realistic value"});
    }
    if (problems.empty())
        problems.push_back({figure, "finite", std::string(figure) + " is not a finite number; check the inputs",
                            fields});
    return problems;
}

// The estimate with training.mfu as typed (whatever mfu_source says).
Result<Estimate> estimateWithGivenMfu(const Scenario &scenario)
{
    if (Problems problems = validate(scenario); !problems.empty())
        return problems;
    const ModelConfig &model = scenario.model;
    const TrainingConfig &training = scenario.training;
    const detail::StepShape shape = detail::stepShape(scenario);

    Estimate result;
    const ModelParameters parameters = modelParameters(model);
    result.params = countParameters(parameters, model);

    // FLOPs per token do not depend on how the sequence is split across GPUs: count the full one.
    const ForwardOperators full = forwardOperators(model, detail::operatorShapes(scenario, shape, true));
    result.flops = detail::estimateFlops(scenario, full, result.params);

    // Memory is per GPU: the operators at the sequence shard one GPU holds under context parallelism.
    const ForwardOperators local = training.parallel.cp == 1
        ? full
        : forwardOperators(model, detail::operatorShapes(scenario, shape, false));
    Result<MemoryEstimate> memory = detail::estimateMemory(scenario, shape, local, parameters);
    if (!memory)
        return memory.problems();
    result.memory = *memory;

    result.time = estimateTime(scenario, result.flops);
    if (Problems problems = timeInputProblems(scenario, result.flops); !problems.empty())
        return problems;
    const TimeEstimate &time = result.time;

    result.communication = detail::estimateCommunication(scenario, shape, parameters);

    // vLLM (Kwon et al. 2023) §3: K and V per layer, per KV head, per head dimension.
    const double kv_per_token =
        2.0 * model.n_layers * double(model.kvDim()) * bytesPerElement(training.kv_cache_dtype);
    if (kv_per_token * double(training.seq_len) > 4.0e18)
        return Result<Estimate>::failure("result.inference.kv_cache_bytes_per_sequence", "overflow",
                                         "the KV cache per sequence is not representable as a 64-bit byte count");
    result.inference.kv_cache_bytes_per_token = std::int64_t(kv_per_token);
    result.inference.kv_cache_bytes_per_sequence = std::int64_t(kv_per_token * double(training.seq_len));

    // Inference on the training layout: each GPU holds its pipeline stage's weights (the
    // heaviest stage: the first and last carry the embedding and the head, an uneven middle one
    // may carry more layers) and the KV cache of the most loaded stage's layers and its KV heads
    // for micro_batch sequences of seq_len.
    const ParallelConfig &parallel = training.parallel;
    const double weight_bytes = bytesPerElement(training.precision.weight_dtype);
    const PipelineLayers placement = pipelineLayers(model.n_layers, parallel);
    const double stage_elements =
        detail::stageParameterElements(parameters, model, parallel, placement,
                                       detail::stageWithMostParameters(parameters, model, parallel, placement))
            .total();
    const double weights_per_gpu = stage_elements * weight_bytes;
    // Validation makes n_kv_heads divisible by tp; the max keeps one head per rank regardless
    // (Megatron replicates KV heads when tp exceeds them).
    const double kv_heads_per_gpu = std::max(1.0, std::ceil(double(model.n_kv_heads) / parallel.tp));
    const double kv_per_gpu = 2.0 * double(placement.mostLoadedStageLayers()) * kv_heads_per_gpu * model.head_dim
        * bytesPerElement(training.kv_cache_dtype) * double(training.micro_batch) * double(training.seq_len);
    if (!(weights_per_gpu <= 4.0e18) || !(kv_per_gpu <= 4.0e18))
        return Result<Estimate>::failure("result.inference", "overflow",
                                         "the inference memory per GPU is not representable as a 64-bit byte count");
    result.inference.weights_bytes_per_gpu = std::int64_t(weights_per_gpu);
    result.inference.kv_cache_bytes_per_gpu = std::int64_t(kv_per_gpu);

    FiniteCheck check;
    check("flops.forward_per_token", result.flops.forward_per_token);
    check("flops.total_train", result.flops.total_train);
    check("flops.total_hardware", result.flops.total_hardware);
    check("flops.six_nd", result.flops.six_nd);
    check("time.seconds", time.seconds);
    check("time.cost", time.cost);
    check("time.hfu", time.hfu);
    check("time.tokens_per_second", time.tokens_per_second);
    check("communication_per_step.seconds", result.communication.total_seconds);
    check("communication_per_step.dp_bytes", result.communication.dp.bytes);
    if (Problems problems = check.take(); !problems.empty())
        return problems;
    return result;
}

// `given`'s time figures redone with the MFU performance::predictStep predicts for `given` (whose
// mfu_source is Given: predictStep calls estimate() on it, which then does not predict again).
Problems usePredictedMfu(const Scenario &given, Estimate &result)
{
    const Result<performance::StepPrediction> prediction = performance::predictStep(given);
    if (!prediction)
        return prediction.problems();
    if (!finiteFigure(prediction->mfu) || !(prediction->mfu > 0))
        return {{"result.time.predicted_mfu", "finite",
                 "the predicted MFU is not a positive finite number; check the inputs"}};
    Scenario predicted = given;
    predicted.training.mfu = prediction->mfu;
    TimeEstimate time = estimateTime(predicted, result.flops);
    time.mfu_source = MfuSource::Predicted;
    PredictedStepFigures figures;
    figures.step_seconds = prediction->total_seconds;
    figures.mfu = prediction->mfu;
    figures.hfu = prediction->hfu;
    for (const performance::StepPart &part : performance::stepParts(*prediction))
        figures.step_breakdown.push_back({part.id, part.seconds});
    figures.band_fraction = prediction->band_fraction;
    figures.band_basis = prediction->accuracy.basis;
    figures.step_seconds_low = prediction->low_seconds;
    figures.step_seconds_high = prediction->high_seconds;
    // MFU and the training time scale with 1 / step time and with the step time.
    const double scale_low = prediction->total_seconds > 0 ? prediction->low_seconds / prediction->total_seconds : 1.0;
    const double scale_high = prediction->total_seconds > 0 ? prediction->high_seconds / prediction->total_seconds : 1.0;
    figures.mfu_low = prediction->mfu / scale_high;
    figures.mfu_high = prediction->mfu / scale_low;
    figures.training_seconds_low = time.seconds * scale_low;
    figures.training_seconds_high = time.seconds * scale_high;
    time.predicted = std::move(figures);
    FiniteCheck check;
    check("time.seconds", time.seconds);
    check("time.cost", time.cost);
    check("time.hfu", time.hfu);
    check("time.tokens_per_second", time.tokens_per_second);
    check("time.step_seconds", time.step_seconds);
    if (Problems problems = check.take(); !problems.empty())
        return problems;
    result.time = std::move(time);
    return {};
}

}  // namespace

Result<Estimate> estimate(const Scenario &scenario)
{
    if (scenario.training.mfu_source == MfuSource::Given)
        return estimateWithGivenMfu(scenario);
    // Everything but the time is the same as with a given MFU; estimate on the Given copy first so
    // validation problems come before the prediction's.
    Scenario given = scenario;
    given.training.mfu_source = MfuSource::Given;
    Result<Estimate> result = estimateWithGivenMfu(given);
    if (!result)
        return result;
    if (Problems problems = usePredictedMfu(given, result.value()); !problems.empty())
        return problems;
    return result;
}

}  // namespace lse
