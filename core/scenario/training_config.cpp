// SPDX-License-Identifier: GPL-3.0-or-later
#include "scenario/training_config.h"

#include "common/enum_names.h"

namespace lse {

namespace {
constexpr EnumName<PrecisionRecipe> kRecipes[] = {
    {PrecisionRecipe::FP32, "fp32"},
    {PrecisionRecipe::BF16Mixed, "bf16-mixed"},
    {PrecisionRecipe::FP16Mixed, "fp16-mixed"},
    {PrecisionRecipe::FP8Mixed, "fp8-mixed"},
};
constexpr EnumName<Optimizer> kOptimizers[] = {
    {Optimizer::SGD, "sgd"},           {Optimizer::Momentum, "momentum"},
    {Optimizer::Adam, "adam"},         {Optimizer::AdamW, "adamw"},
    {Optimizer::Adafactor, "adafactor"}, {Optimizer::Adam8bit, "adam8bit"},
};
constexpr EnumName<Recomputation> kRecomputations[] = {
    {Recomputation::None, "none"},
    {Recomputation::Selective, "selective"},
    {Recomputation::Full, "full"},
};
constexpr EnumName<AttentionFlops> kAttentionFlops[] = {
    {AttentionFlops::Full, "full"},
    {AttentionFlops::Causal, "causal"},
};
constexpr EnumName<FlopsModel> kFlopsModels[] = {
    {FlopsModel::Exact, "exact"},
    {FlopsModel::SixND, "6nd"},
};
constexpr EnumName<MfuSource> kMfuSources[] = {
    {MfuSource::Given, "given"},
    {MfuSource::Predicted, "predicted"},
};
constexpr EnumName<AttentionKernel> kAttentionKernels[] = {
    {AttentionKernel::FlashAttention2, "flash2"},
    {AttentionKernel::FlashAttention3, "flash3"},
};
}  // namespace

PrecisionConfig precisionForRecipe(PrecisionRecipe recipe)
{
    PrecisionConfig config;
    config.recipe = recipe;
    switch (recipe) {
    case PrecisionRecipe::FP32:
        config.weight_dtype = config.gradient_dtype = config.activation_dtype = DType::FP32;
        config.matmul_dtype = DType::FP32;
        config.master_weights = false;
        break;
    case PrecisionRecipe::BF16Mixed:
        // ZeRO §3.1 convention: 16-bit weights and gradients, fp32 master copy (16 bytes/param).
        break;
    case PrecisionRecipe::FP16Mixed:
        config.weight_dtype = config.gradient_dtype = config.activation_dtype = DType::FP16;
        config.matmul_dtype = DType::FP16;
        break;
    case PrecisionRecipe::FP8Mixed:
        // Transformer-Engine style: bf16 weights and activations, matmuls run in fp8.
        config.matmul_dtype = DType::FP8;
        break;
    }
    return config;
}

std::string_view toString(PrecisionRecipe value) { return enumToString(kRecipes, value); }
std::string_view toString(Optimizer value) { return enumToString(kOptimizers, value); }
std::string_view toString(Recomputation value) { return enumToString(kRecomputations, value); }
std::string_view toString(AttentionFlops value) { return enumToString(kAttentionFlops, value); }
std::string_view toString(FlopsModel value) { return enumToString(kFlopsModels, value); }
std::string_view toString(MfuSource value) { return enumToString(kMfuSources, value); }
std::optional<PrecisionRecipe> precisionRecipeFromString(std::string_view text)
{
    return enumFromString(kRecipes, text);
}
std::optional<Optimizer> optimizerFromString(std::string_view text) { return enumFromString(kOptimizers, text); }
std::optional<Recomputation> recomputationFromString(std::string_view text)
{
    return enumFromString(kRecomputations, text);
}
std::optional<AttentionFlops> attentionFlopsFromString(std::string_view text)
{
    return enumFromString(kAttentionFlops, text);
}
std::optional<FlopsModel> flopsModelFromString(std::string_view text) { return enumFromString(kFlopsModels, text); }
std::optional<MfuSource> mfuSourceFromString(std::string_view text) { return enumFromString(kMfuSources, text); }
std::string_view toString(AttentionKernel value) { return enumToString(kAttentionKernels, value); }
std::optional<AttentionKernel> attentionKernelFromString(std::string_view text)
{
    return enumFromString(kAttentionKernels, text);
}
std::string precisionRecipeChoices() { return enumChoices(kRecipes); }
std::string optimizerChoices() { return enumChoices(kOptimizers); }

}  // namespace lse
