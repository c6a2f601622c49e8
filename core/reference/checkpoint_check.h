// SPDX-License-Identifier: GPL-3.0-or-later
// What a reference checkpoint must hold before a model is built from it (issue 14, items 1 and 6):
// every parameter its configuration implies, as F32 with exactly that shape, read from the
// safetensors header alone, so a small file whose config claims a huge model is refused before
// anything of that size is allocated; and only finite values, so a diverged run's weights are
// never loaded for generation or training.
#pragma once

#include "common/problem.h"
#include "reference/safetensors.h"
#include "scenario/model_config.h"

#include <cstdint>
#include <string>

namespace lse::reference {

// Problems (field `where`, the checkpoint path) for missing tensors, other dtypes or shapes than
// referenceParameterShapes(model), and non-finite values. With `optimizer_moments` the AdamW
// moments "optimizer.m.<name>" and "optimizer.v.<name>" are checked the same way (resuming).
// `model` must have passed validateForReference. At most a few problems are listed one by one.
Problems checkCheckpointTensors(const SafetensorsFile &checkpoint, const ModelConfig &model, bool optimizer_moments,
                                const std::string &where);

// Whether every element is finite. An F32 or F64 tensor is read from its little-endian bytes;
// tensors of other dtypes hold no floating-point values and count as finite.
bool allFinite(const SafeTensor &tensor);
bool allFinite(const float *data, std::int64_t count);

}  // namespace lse::reference
