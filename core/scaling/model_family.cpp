// SPDX-License-Identifier: GPL-3.0-or-later
#include "scaling/model_family.h"

#include "cost/parameters.h"
#include "scenario/scenario.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
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

class FamilyScaler {
public:
    explicit FamilyScaler(const ModelConfig &base)
        : base_(base),
          group_(base.n_heads / base.n_kv_heads),
          width_per_head_(double(base.d_model) / double(base.qDim())),
          width_per_layer_(double(base.d_model) / base.n_layers),
          ff_ratio_(double(base.d_ff) / double(base.d_model)),
          expert_ratio_(double(base.moe.expert_d_ff) / double(base.d_model)),
          shared_ratio_(double(base.moe.shared_expert_d_ff) / double(base.d_model))
    {
    }

    // The member with `layers` layers and the head count nearest the base's width per layer,
    // shifted by `head_groups_offset` groups.
    std::optional<ModelConfig> member(int layers, int head_groups_offset) const
    {
        const double heads_wanted = width_per_layer_ * layers / (base_.head_dim * width_per_head_);
        // At least one group of heads: a shallow member of a wide family still has attention.
        const long long groups = std::max(1LL, std::llround(heads_wanted / group_)) + head_groups_offset;
        if (groups < 1 || groups * group_ > 65536)
            return std::nullopt;
        ModelConfig model = base_;
        model.n_layers = layers;
        model.n_heads = int(groups * group_);
        model.n_kv_heads = int(groups);
        model.d_model = std::max<std::int64_t>(1, std::llround(double(model.qDim()) * width_per_head_));
        model.d_ff = base_.d_ff > 0 ? roundedWidth(ff_ratio_ * double(model.d_model)) : 0;
        if (model.moe.enabled()) {
            model.moe.expert_d_ff = roundedWidth(expert_ratio_ * double(model.d_model));
            model.moe.shared_expert_d_ff = roundedWidth(shared_ratio_ * double(model.d_model));
            model.moe.first_moe_layer = std::min(model.moe.first_moe_layer, layers - 1);
        }
        if (model.d_model > kMaxDimension || model.d_ff > kMaxDimension || model.moe.expert_d_ff > kMaxDimension)
            return std::nullopt;
        // A rough count first, so the exact one never overflows: 12·L·d² for a dense block.
        const double rough = 12.0 * layers * double(model.d_model) * double(model.d_model)
            * std::max(1.0, double(std::max(model.moe.n_experts, 1)));
        if (rough > kMaxParameters)
            return std::nullopt;
        return model;
    }

private:
    const ModelConfig &base_;
    int group_;
    double width_per_head_;
    double width_per_layer_;
    double ff_ratio_;
    double expert_ratio_;
    double shared_ratio_;
};

double ratioDistance(double params, double target) { return std::abs(std::log(params / target)); }

}  // namespace

double lawParameters(const ModelConfig &model) { return double(countParameters(model).active); }

Result<ModelConfig> modelWithParameters(const ModelConfig &base, double target_params)
{
    if (Problems problems = validateModel(base); !problems.empty())
        return problems;
    if (!std::isfinite(target_params) || target_params <= 0)
        return Result<ModelConfig>::failure("params", "positive",
                                            "the target parameter count must be a positive finite number");
    const FamilyScaler scaler(base);
    // Parameters grow with depth (width grows with it): the smallest depth reaching the target by
    // bisection, then its neighbours and their head counts one group either side.
    int low = 1;
    int high = 1;
    while (high < kMaxLayers) {
        const std::optional<ModelConfig> model = scaler.member(high, 0);
        if (!model || lawParameters(*model) >= target_params)
            break;
        low = high;
        high = std::min(kMaxLayers, high * 2);
    }
    while (high - low > 1) {
        const int middle = low + (high - low) / 2;
        const std::optional<ModelConfig> model = scaler.member(middle, 0);
        if (!model || lawParameters(*model) >= target_params)
            high = middle;
        else
            low = middle;
    }
    std::optional<ModelConfig> best;
    double best_distance = std::numeric_limits<double>::infinity();
    for (int layers = std::max(1, low - 1); layers <= std::min(kMaxLayers, high + 1); ++layers) {
        for (int offset = -1; offset <= 1; ++offset) {
            const std::optional<ModelConfig> model = scaler.member(layers, offset);
            if (!model || !validateModel(*model).empty())
                continue;
            const double distance = ratioDistance(lawParameters(*model), target_params);
            if (distance < best_distance) {
                best_distance = distance;
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
