// SPDX-License-Identifier: GPL-3.0-or-later
#include "scaling/model_family.h"

#include "cost/parameters.h"
#include "scenario/scenario.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <numeric>
#include <optional>

namespace lse::scaling {

namespace {

constexpr int kMaxLayers = 100000;                          // validation's limit on model.n_layers
constexpr std::int64_t kMaxDimension = std::int64_t(1) << 24;  // validation's limit on d_model and d_ff
// Beyond this the int64 parameter counts could overflow; no scenario comes near it.
constexpr double kMaxParameters = 1e17;

std::int64_t roundToMultiple(double value, std::int64_t multiple)
{
    const auto rounded = std::int64_t(std::llround(value / double(multiple))) * multiple;
    return std::max<std::int64_t>(multiple, rounded);
}

// FFN widths are rounded the way model configs round them (Llama: multiple_of 256; GPT: 4·d):
// a multiple of 64 keeps every tensor-parallel degree up to 64 possible.
std::int64_t roundedWidth(double value)
{
    if (value <= 0)
        return 0;
    return roundToMultiple(value, value >= 256 ? 64 : 8);
}

std::string countText(double params)
{
    char text[32];
    if (params >= 1e12)
        std::snprintf(text, sizeof text, "%.3gT", params / 1e12);
    else if (params >= 1e9)
        std::snprintf(text, sizeof text, "%.3gB", params / 1e9);
    else
        std::snprintf(text, sizeof text, "%.3gM", params / 1e6);
    return text;
}

// Heads grow in steps that keep the family's attention and tensor parallelism: a GQA/MQA family
// keeps its KV head count (Llama 3 has 8 KV heads at 8B, 70B and 405B) and grows the query heads in
// multiples of it; every family keeps the base's divisibility by up to 8 (the usual tp degrees).
int headStep(const ModelConfig &base)
{
    const int tp_step = std::gcd(base.n_heads, 8);
    return base.n_kv_heads == base.n_heads ? tp_step : std::lcm(base.n_kv_heads, tp_step);
}

class FamilyScaler {
public:
    explicit FamilyScaler(const ModelConfig &base)
        : base_(base),
          multi_head_(base.n_kv_heads == base.n_heads),
          head_step_(headStep(base)),
          width_per_head_(double(base.d_model) / double(base.qDim())),
          width_per_layer_(double(base.d_model) / base.n_layers),
          ff_ratio_(double(base.d_ff) / double(base.d_model)),
          expert_ratio_(double(base.moe.expert_d_ff) / double(base.d_model)),
          shared_ratio_(double(base.moe.shared_expert_d_ff) / double(base.d_model))
    {
    }

    // Steps of heads that keep the base's width per layer at this depth (at least one: a shallow
    // member of a wide family still has attention).
    int naturalSteps(int layers) const
    {
        const double heads_wanted = width_per_layer_ * layers / (base_.head_dim * width_per_head_);
        return int(std::clamp<double>(std::round(heads_wanted / head_step_), 1.0, 65536.0));
    }

    // d_model / n_layers of the base; a member's distance from it says how far its shape drifted.
    double widthPerLayer() const { return width_per_layer_; }

    // The member with `layers` layers and `steps` × the head step query heads.
    std::optional<ModelConfig> member(int layers, int steps) const
    {
        if (layers < 1 || layers > kMaxLayers || steps < 1 || std::int64_t(steps) * head_step_ > 65536)
            return std::nullopt;
        ModelConfig model = base_;
        model.n_layers = layers;
        model.n_heads = steps * head_step_;
        model.n_kv_heads = multi_head_ ? model.n_heads : base_.n_kv_heads;
        model.d_model = std::max<std::int64_t>(1, std::llround(double(model.qDim()) * width_per_head_));
        model.d_ff = base_.d_ff > 0 ? roundedWidth(ff_ratio_ * double(model.d_model)) : 0;
        if (model.moe.enabled()) {
            model.moe.expert_d_ff = roundedWidth(expert_ratio_ * double(model.d_model));
            model.moe.shared_expert_d_ff = roundedWidth(shared_ratio_ * double(model.d_model));
            model.moe.first_moe_layer = std::min(model.moe.first_moe_layer, layers - 1);
        }
        if (model.d_model > kMaxDimension || model.d_ff > kMaxDimension || model.moe.expert_d_ff > kMaxDimension)
            return std::nullopt;
        // A rough count first, so the exact one never overflows: 12·L·d² per dense block, times
        // the experts of an MoE model.
        const double rough = 12.0 * layers * double(model.d_model) * double(model.d_model)
            * std::max(1.0, double(std::max(model.moe.n_experts, 1)));
        if (rough > kMaxParameters)
            return std::nullopt;
        return model;
    }

private:
    const ModelConfig &base_;
    bool multi_head_;
    int head_step_;
    double width_per_head_;
    double width_per_layer_;
    double ff_ratio_;
    double expert_ratio_;
    double shared_ratio_;
};

double ratioDistance(double params, double target) { return std::abs(std::log(params / target)); }

// The smallest depth whose member reaches `target` parameters (or has none beyond it), by
// doubling and then bisection; members grow with depth.
template <typename Member>
int firstLayersReaching(const Member &member, double target)
{
    const auto reaches = [&](int layers) {
        const std::optional<ModelConfig> model = member(layers);
        return !model || lawParameters(*model) >= target;
    };
    int low = 0;  // never reaches (no depth 0)
    int high = 1;
    while (high < kMaxLayers && !reaches(high)) {
        low = high;
        high = std::min(kMaxLayers, high * 2);
    }
    while (high - low > 1) {
        const int middle = low + (high - low) / 2;
        (reaches(middle) ? high : low) = middle;
    }
    return high;
}

}  // namespace

double lawParameters(const ModelConfig &model) { return double(countParameters(model).active); }

Result<ModelConfig> modelWithParameters(const ModelConfig &base, double target_params, int layer_multiple)
{
    if (Problems problems = validateModel(base); !problems.empty())
        return problems;
    if (!std::isfinite(target_params) || target_params <= 0)
        return Result<ModelConfig>::failure("params", "positive",
                                            "the target parameter count must be a positive finite number");
    const FamilyScaler scaler(base);
    // The base's shape first: depth and width grow together, so parameters grow with depth and
    // bisection finds the depth where the count crosses the target.
    const auto natural = [&](int layers) { return scaler.member(layers, scaler.naturalSteps(layers)); };
    const int natural_layers = firstLayersReaching(natural, target_params);
    // Heads come in coarse steps (a 70B Llama grows by 1,024 in d_model per step), so at the
    // widths either side, the depth that matches the count best.
    std::optional<ModelConfig> best;
    double best_distance = std::numeric_limits<double>::infinity();
    double best_shape = std::numeric_limits<double>::infinity();
    const int natural_steps = scaler.naturalSteps(natural_layers);
    for (int steps = natural_steps - 1; steps <= natural_steps + 1; ++steps) {
        const auto at_width = [&](int layers) { return scaler.member(layers, steps); };
        const int layers = firstLayersReaching(at_width, target_params);
        const int multiple = std::max(1, layer_multiple);
        const int below = (layers - 1) / multiple * multiple;
        for (int candidate : {below, below + multiple}) {
            const std::optional<ModelConfig> model = scaler.member(candidate, steps);
            if (!model || !validateModel(*model).empty())
                continue;
            // Within 1 % of the target the shape decides; otherwise the nearer count.
            const double distance = std::max(ratioDistance(lawParameters(*model), target_params), 0.01);
            const double shape = ratioDistance(double(model->d_model) / model->n_layers, scaler.widthPerLayer());
            if (distance < best_distance || (distance == best_distance && shape < best_shape)) {
                best_distance = distance;
                best_shape = shape;
                best = model;
            }
        }
    }
    if (!best)
        return Result<ModelConfig>::failure("params", "range",
                                            "no model of the family of '" + base.name + "' has about "
                                                + countText(target_params) + " parameters");
    best->name = base.name + " scaled to " + countText(lawParameters(*best));
    return *best;
}

}  // namespace lse::scaling
