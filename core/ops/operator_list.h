// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ops/operator.h"
#include "scenario/model_config.h"

namespace lse {

// The forward operators of one micro-batch for `model` at `shapes`. Expects a validated model.
// The saved-activation bytes reproduce Korthikanti et al. 2022 §4.1 term by term for a GPT-style
// layer (34*s*b*h + 5*a*s^2*b with dropout) and generalise it to GQA, gated MLPs, MoE and
// FlashAttention by listing what is actually kept. A parallel block (GPT-NeoX; PaLM §2) runs both
// norms on the block input, keeps that input once, and adds both branches in one residual op.
ForwardOperators forwardOperators(const ModelConfig &model, const OperatorShapes &shapes);

// Sum of a field over an operator list, e.g. sumOver(ops, &Operator::flops).
double sumOver(const std::vector<Operator> &ops, double Operator::*field);

}  // namespace lse
