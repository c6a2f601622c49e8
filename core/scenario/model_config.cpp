// SPDX-License-Identifier: GPL-3.0-or-later
#include "scenario/model_config.h"

#include "common/enum_names.h"

namespace lse {

namespace {
constexpr EnumName<NormType> kNormTypes[] = {
    {NormType::LayerNorm, "layernorm"},
    {NormType::RMSNorm, "rmsnorm"},
    {NormType::None, "none"},
};
constexpr EnumName<NormPlacement> kNormPlacements[] = {
    {NormPlacement::Pre, "pre"},
    {NormPlacement::Post, "post"},
    {NormPlacement::Double, "double"},
};
constexpr EnumName<Activation> kActivations[] = {
    {Activation::ReLU, "relu"},
    {Activation::GeLU, "gelu"},
    {Activation::SwiGLU, "swiglu"},
    {Activation::GeGLU, "geglu"},
    {Activation::SiLU, "silu"},
};
constexpr EnumName<PositionalEncoding> kPositionalEncodings[] = {
    {PositionalEncoding::Learned, "learned"},
    {PositionalEncoding::Sinusoidal, "sinusoidal"},
    {PositionalEncoding::RoPE, "rope"},
    {PositionalEncoding::ALiBi, "alibi"},
    {PositionalEncoding::None, "none"},
};
}  // namespace

std::string_view toString(NormType value) { return enumToString(kNormTypes, value); }
std::string_view toString(NormPlacement value) { return enumToString(kNormPlacements, value); }
std::string_view toString(Activation value) { return enumToString(kActivations, value); }
std::string_view toString(PositionalEncoding value) { return enumToString(kPositionalEncodings, value); }
std::optional<NormType> normTypeFromString(std::string_view text) { return enumFromString(kNormTypes, text); }
std::optional<NormPlacement> normPlacementFromString(std::string_view text)
{
    return enumFromString(kNormPlacements, text);
}
std::optional<Activation> activationFromString(std::string_view text) { return enumFromString(kActivations, text); }
std::optional<PositionalEncoding> positionalEncodingFromString(std::string_view text)
{
    return enumFromString(kPositionalEncodings, text);
}

}  // namespace lse
