// SPDX-License-Identifier: GPL-3.0-or-later
#include "enum_labels.h"

#include <QCoreApplication>

namespace lse::gui {

namespace {
QString latin(std::string_view text) { return QString::fromLatin1(text.data(), qsizetype(text.size())); }
}  // namespace

QString displayName(NormType value)
{
    switch (value) {
    case NormType::LayerNorm: return QStringLiteral("LayerNorm");
    case NormType::RMSNorm: return QStringLiteral("RMSNorm");
    case NormType::None: return QCoreApplication::translate("lse::gui::EnumLabels", "none");
    }
    return latin(toString(value));
}

QString displayName(NormPlacement value)
{
    switch (value) {
    case NormPlacement::Pre: return QCoreApplication::translate("lse::gui::EnumLabels", "pre-norm");
    case NormPlacement::Post: return QCoreApplication::translate("lse::gui::EnumLabels", "post-norm");
    case NormPlacement::Double: return QCoreApplication::translate("lse::gui::EnumLabels", "both sides (sandwich)");
    }
    return latin(toString(value));
}

QString displayName(Activation value)
{
    switch (value) {
    case Activation::ReLU: return QStringLiteral("ReLU");
    case Activation::GeLU: return QStringLiteral("GeLU");
    case Activation::SwiGLU: return QStringLiteral("SwiGLU");
    case Activation::GeGLU: return QStringLiteral("GeGLU");
    case Activation::SiLU: return QStringLiteral("SiLU");
    }
    return latin(toString(value));
}

QString displayName(PositionalEncoding value)
{
    switch (value) {
    case PositionalEncoding::Learned: return QCoreApplication::translate("lse::gui::EnumLabels", "learned");
    case PositionalEncoding::Sinusoidal: return QCoreApplication::translate("lse::gui::EnumLabels", "sinusoidal");
    case PositionalEncoding::RoPE: return QStringLiteral("RoPE");
    case PositionalEncoding::ALiBi: return QStringLiteral("ALiBi");
    case PositionalEncoding::None: return QCoreApplication::translate("lse::gui::EnumLabels", "none");
    }
    return latin(toString(value));
}

QString displayName(PrecisionRecipe value)
{
    switch (value) {
    case PrecisionRecipe::FP32: return QStringLiteral("FP32");
    case PrecisionRecipe::BF16Mixed: return QCoreApplication::translate("lse::gui::EnumLabels", "BF16 mixed");
    case PrecisionRecipe::FP16Mixed: return QCoreApplication::translate("lse::gui::EnumLabels", "FP16 mixed");
    case PrecisionRecipe::FP8Mixed: return QCoreApplication::translate("lse::gui::EnumLabels", "FP8 mixed");
    }
    return latin(toString(value));
}

QString displayName(DType value) { return latin(toString(value)).toUpper(); }

QString displayName(Optimizer value)
{
    switch (value) {
    case Optimizer::SGD: return QStringLiteral("SGD");
    case Optimizer::Momentum: return QCoreApplication::translate("lse::gui::EnumLabels", "SGD with momentum");
    case Optimizer::Adam: return QStringLiteral("Adam");
    case Optimizer::AdamW: return QStringLiteral("AdamW");
    case Optimizer::Adafactor: return QStringLiteral("Adafactor");
    case Optimizer::Adam8bit: return QCoreApplication::translate("lse::gui::EnumLabels", "8-bit Adam");
    }
    return latin(toString(value));
}

QString displayName(Recomputation value)
{
    switch (value) {
    case Recomputation::None: return QCoreApplication::translate("lse::gui::EnumLabels", "none");
    case Recomputation::Selective: return QCoreApplication::translate("lse::gui::EnumLabels", "selective");
    case Recomputation::Full: return QCoreApplication::translate("lse::gui::EnumLabels", "full");
    }
    return latin(toString(value));
}

QString displayName(AttentionFlops value)
{
    return value == AttentionFlops::Full ? QCoreApplication::translate("lse::gui::EnumLabels", "full s²")
                                         : QCoreApplication::translate("lse::gui::EnumLabels", "causal (half)");
}

QString displayName(FlopsModel value)
{
    return value == FlopsModel::Exact ? QCoreApplication::translate("lse::gui::EnumLabels", "exact count")
                                      : QStringLiteral("6·N·D");
}

QString displayName(MfuSource value)
{
    return value == MfuSource::Given ? QCoreApplication::translate("lse::gui::EnumLabels", "given")
                                     : QCoreApplication::translate("lse::gui::EnumLabels", "predicted");
}

QString displayName(AttentionKernel value)
{
    return value == AttentionKernel::FlashAttention2 ? QCoreApplication::translate("lse::gui::EnumLabels", "FlashAttention-2")
                                                     : QCoreApplication::translate("lse::gui::EnumLabels", "FlashAttention-3");
}

}  // namespace lse::gui
