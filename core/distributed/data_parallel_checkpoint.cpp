// SPDX-License-Identifier: GPL-3.0-or-later
#include "distributed/data_parallel_checkpoint.h"

#include "reference/checkpoint_check.h"

#include <algorithm>
#include <charconv>
#include <limits>
#include <map>
#include <sstream>

namespace lse::distributed {

using reference::Model;
using reference::NamedTensor;

namespace {

std::int64_t arenaOffset(Model &model, const float *element) { return element - model.parameterData(); }

// A whole number >= 0, or -1.
std::int64_t parseCount(const std::string &text)
{
    std::int64_t value = -1;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    return ec == std::errc() && end == text.data() + text.size() && value >= 0 ? value : -1;
}

}  // namespace

void scatterSpanMoments(Model &model, const std::vector<ParamSpan<float>> &spans, const AdamWState<float> &state,
                        ArenaMoments &arena)
{
    const std::size_t P = std::size_t(model.parameterCount());
    arena.m.assign(P, 0.0f);
    arena.v.assign(P, 0.0f);
    for (std::size_t i = 0; i < spans.size() && i < state.m.size() && i < state.v.size(); ++i) {
        const std::int64_t offset = arenaOffset(model, spans[i].param);
        std::copy(state.m[i].begin(), state.m[i].end(), arena.m.begin() + offset);
        std::copy(state.v[i].begin(), state.v[i].end(), arena.v.begin() + offset);
    }
}

AdamWState<float> spanMomentsOf(Model &model, const std::vector<ParamSpan<float>> &spans, const ArenaMoments &arena,
                                std::int64_t optimizer_step)
{
    AdamWState<float> state;
    state.step = optimizer_step;
    for (const ParamSpan<float> &span : spans) {
        const std::int64_t offset = arenaOffset(model, span.param);
        state.m.emplace_back(arena.m.begin() + offset, arena.m.begin() + offset + std::int64_t(span.count));
        state.v.emplace_back(arena.v.begin() + offset, arena.v.begin() + offset + std::int64_t(span.count));
    }
    return state;
}

Result<bool> writeDataParallelCheckpoint(const std::string &path, Model &model, const ArenaMoments &moments,
                                         const CheckpointHeader &header)
{
    const std::int64_t P = model.parameterCount();
    if (std::int64_t(moments.m.size()) != P || std::int64_t(moments.v.size()) != P)
        return Result<bool>::failure(path, "moments", path + ": not written: the optimizer moments do not cover the model.");
    // The same refusal as Trainer::saveCheckpoint: a diverged state would only pass its NaNs on.
    if (!reference::allFinite(model.parameterData(), P) || !reference::allFinite(moments.m.data(), P) ||
        !reference::allFinite(moments.v.data(), P))
        return Result<bool>::failure(path, "non-finite",
                                     path + ": not written: the weights or their optimizer moments hold NaN or infinite "
                                            "values (training diverged).");
    const std::vector<NamedTensor<float>> &params = model.parameters();
    std::vector<SafeTensor> tensors;
    tensors.reserve(params.size() * 3);
    // Trainer::saveCheckpoint's order: the weights, then every m, then every v.
    for (const NamedTensor<float> &t : params)
        tensors.push_back(makeF32Tensor(t.name, t.data, t.shape));
    for (const NamedTensor<float> &t : params)
        tensors.push_back(makeF32Tensor("optimizer.m." + t.name, moments.m.data() + arenaOffset(model, t.data), t.shape));
    for (const NamedTensor<float> &t : params)
        tensors.push_back(makeF32Tensor("optimizer.v." + t.name, moments.v.data() + arenaOffset(model, t.data), t.shape));
    std::ostringstream rng;
    rng << header.rng;
    std::map<std::string, std::string> metadata;
    metadata["format"] = "llm-explorer-reference-checkpoint";
    metadata["config"] = reference::trainConfigToJson(header.config).toStdString();
    metadata["step"] = std::to_string(header.step);
    metadata["optimizer.step"] = std::to_string(header.optimizer_step);
    metadata["rng"] = rng.str();
    return writeSafetensors(path, tensors, metadata);
}

Result<CheckpointHeader> readCheckpointHeader(const SafetensorsFile &checkpoint, const std::string &path,
                                              const reference::TrainConfig &overrides)
{
    auto meta = [&](const char *key) -> const std::string * {
        const auto it = checkpoint.metadata.find(key);
        return it == checkpoint.metadata.end() ? nullptr : &it->second;
    };
    const std::string *config_text = meta("config"), *step_text = meta("step"), *rng_text = meta("rng"),
                      *optimizer_step_text = meta("optimizer.step");
    if (!config_text || !step_text || !rng_text || !optimizer_step_text)
        return Result<CheckpointHeader>::failure(
            path, "metadata", path + ": not a training checkpoint (its __metadata__ lacks config, step, optimizer.step or rng).");
    Result<reference::TrainConfig> parsed =
        reference::trainConfigFromJson(QByteArray::fromStdString(*config_text), path + " __metadata__.config");
    if (!parsed)
        return parsed.problems();
    CheckpointHeader header;
    header.config = parsed.value();
    // What Trainer::resume lets a resumed run change; the model and optimizer stay the checkpoint's.
    header.config.data_path = overrides.data_path;
    header.config.data_dtype = overrides.data_dtype;
    header.config.validation_path = overrides.validation_path;
    header.config.validation_dtype = overrides.validation_dtype;
    header.config.steps = overrides.steps;
    header.config.threads = overrides.threads;
    header.config.peak_flops_per_s = overrides.peak_flops_per_s;
    header.config.eval_every = overrides.eval_every;
    header.config.eval_batches = overrides.eval_batches;
    const std::int64_t step = parseCount(*step_text);
    header.optimizer_step = parseCount(*optimizer_step_text);
    if (step < 0 || step > std::numeric_limits<int>::max() || header.optimizer_step < 0)
        return Result<CheckpointHeader>::failure(path, "metadata",
                                                 path + ": __metadata__ step/optimizer.step is not a whole number >= 0.");
    header.step = int(step);
    std::istringstream in(*rng_text);
    in >> header.rng;
    if (in.fail())
        return Result<CheckpointHeader>::failure(path, "metadata", path + ": __metadata__ rng is not a std::mt19937_64 state.");
    return header;
}

Result<bool> loadCheckpointArenas(const SafetensorsFile &checkpoint, const std::string &path, Model &model,
                                  ArenaMoments &moments)
{
    const std::size_t P = std::size_t(model.parameterCount());
    moments.m.assign(P, 0.0f);
    moments.v.assign(P, 0.0f);
    for (NamedTensor<float> &t : model.parameters()) {
        const SafeTensor *w = checkpoint.find(t.name);
        const SafeTensor *m = checkpoint.find("optimizer.m." + t.name);
        const SafeTensor *v = checkpoint.find("optimizer.v." + t.name);
        const std::int64_t offset = arenaOffset(model, t.data);
        if (!w || !m || !v)
            return Result<bool>::failure(path, "missing", path + ": tensor " + t.name + " or its optimizer moments are missing.");
        if (w->shape != t.shape || !copySafeTensorTo(*w, t.data, t.size()) ||
            !copySafeTensorTo(*m, moments.m.data() + offset, t.size()) ||
            !copySafeTensorTo(*v, moments.v.data() + offset, t.size()))
            return Result<bool>::failure(path, "shape", path + ": tensor " + t.name + " does not have the model's F32 shape.");
    }
    return true;
}

}  // namespace lse::distributed
